/**
 * `atrium login` and `atrium logout` against a real control plane: where the token is kept, what
 * is refused, and revocation.
 */
import { readFileSync, statSync } from "node:fs";
import { ApiClient, TEST_ADMIN } from "@atrium/control-plane/testing";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { credentialsPath } from "../config.ts";
import { type CliStack, fails, json, login, ok, runAtrium, withCliStack } from "../testing.ts";

let stack: Stack;
let newEnv: CliStack["newEnv"];
withCliStack((cli) => {
  ({ stack, newEnv } = cli);
});

describe("login, logout", () => {
  it("logs in with the password on stdin and keeps the token in a 0600 file in a 0700 folder", async () => {
    const own = newEnv();
    const run = ok(await login(own, stack.controlPlane));
    expect(run.stdout).toContain(`Logged in to ${stack.controlPlane.url} as admin (organization default)`);
    const file = credentialsPath(own);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(own.ATRIUM_CONFIG_DIR as string).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({
      controlPlaneUrl: stack.controlPlane.url,
      organization: "default",
      username: "admin",
    });
    expect(stored.token).toMatch(/^atr_s_/);
    expect(Date.parse(stored.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("prints the login as JSON, without the token", async () => {
    const own = newEnv();
    const out = json(
      await runAtrium(
        ["login", "--control-plane", stack.controlPlane.url, "--username", "admin", "--password-stdin", "-o", "json"],
        { env: own, stdin: TEST_ADMIN.password },
      ),
    );
    expect(out).toMatchObject({ controlPlaneUrl: stack.controlPlane.url, organization: "default", username: "admin" });
    expect(out.credentialsFile).toBe(credentialsPath(own));
    expect(JSON.stringify(out)).not.toContain("atr_s_");
  });

  it("refuses a wrong password, an empty one and an unknown organization, storing nothing", async () => {
    const own = newEnv();
    const base = ["login", "--control-plane", stack.controlPlane.url, "--username", "admin"];
    fails(
      await runAtrium(base, { env: own, stdin: "nope\n" }),
      1,
      "Organization, user name or password is wrong (check them and try again)",
    );
    fails(await runAtrium(base, { env: own, stdin: "" }), 2, "No password was given");
    const otherOrg = await runAtrium([...base, "--organization", "nowhere"], { env: own, stdin: "x" });
    expect(otherOrg.code).toBe(1);
    expect(() => statSync(credentialsPath(own))).toThrow();
  });

  it("needs --username (usage error) and an http(s) control-plane URL", async () => {
    fails(
      await runAtrium(["login"], { env: newEnv(), stdin: "x" }),
      2,
      "required option '--username <user>' not specified",
    );
    fails(
      await runAtrium(["login", "--username", "a", "--control-plane", "ftp://x"], {
        env: newEnv(),
        stdin: "x",
      }),
      2,
      "'ftp://x' is not an http:// or https:// URL",
    );
  });

  it("logout revokes the token on the server and deletes the file", async () => {
    const own = newEnv();
    ok(await login(own, stack.controlPlane));
    const token = JSON.parse(readFileSync(credentialsPath(own), "utf8")).token as string;
    const run = ok(await runAtrium(["logout"], { env: own }));
    expect(run.stdout).toContain(`Logged out of ${stack.controlPlane.url}.`);
    expect(() => statSync(credentialsPath(own))).toThrow();
    const refused = await new ApiClient(stack.controlPlane.url, token).call("GET", "/api/v1/info");
    expect(refused.status).toBe(401);
    expect(json(await runAtrium(["logout", "-o", "json"], { env: own }))).toEqual({ loggedOut: false });
    fails(await runAtrium(["info"], { env: own }), 3, "You are not logged in: run `atrium login --username <user>`");
  });
});
