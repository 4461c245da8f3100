/**
 * `atrium` as a user runs it: `node cli/src/main.ts` in a child process, with the password
 * piped in, checking exit codes, what reaches stdout and stderr, and the credentials file.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestControlPlane, TEST_ADMIN, type TestControlPlane } from "@atrium/control-plane/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialsPath } from "./config.ts";
import { fails, spawnAtrium, testEnv } from "./testing.ts";

let controlPlane: TestControlPlane;
let env: NodeJS.ProcessEnv;
const envs: NodeJS.ProcessEnv[] = [];

function newEnv(): NodeJS.ProcessEnv {
  const created = testEnv();
  envs.push(created);
  return created;
}

beforeAll(async () => {
  controlPlane = await startTestControlPlane("pglite");
  env = newEnv();
});
afterAll(async () => {
  await controlPlane?.close();
  for (const each of envs) rmSync(each.ATRIUM_CONFIG_DIR as string, { recursive: true, force: true });
});

describe("atrium in a child process", () => {
  it("logs in with the password piped to stdin, stores it 0600, and later commands use it", async () => {
    const login = await spawnAtrium(["login", "--control-plane", controlPlane.url, "--username", TEST_ADMIN.username], {
      env,
      stdin: `${TEST_ADMIN.password}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${controlPlane.url} as admin`);
    expect(login.stderr).toBe("");
    const file = credentialsPath(env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8")).token).toMatch(/^atr_s_/);

    const started = Date.now();
    const info = await spawnAtrium(["info", "--output", "json"], { env });
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ controlPlaneVersion: "0.1.0", organization: "default" });
    // Nothing (such as a kept-alive connection) holds the process open after the answer.
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("exits 2 on usage errors, with commander's message on stderr and nothing on stdout", async () => {
    const run = await spawnAtrium(["config", "create", "plan"], { env });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error: required option '--serviceId <id>' not specified");
  });

  it("exits 1 for an unknown id, naming it, without a stack trace", async () => {
    const id = randomUUID();
    const run = await spawnAtrium(["expo", "get", id], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      `error: Exposition '${id}' does not exist in this organization (check the id; the matching \`list\` command shows them)\n`,
    );
  });

  it("exits 1 when the control plane cannot be reached, saying so", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
    const run = await spawnAtrium(["service", "list", "--control-plane", url], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: Cannot reach the control plane at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("exits 3 when not logged in, and prints the version with --version", async () => {
    fails(
      await spawnAtrium(["gateway-group", "list"], { env: newEnv() }),
      3,
      "You are not logged in: run `atrium login --username <user>`",
    );
    const version = await spawnAtrium(["--version"], { env });
    expect(version.code).toBe(0);
    expect(version.stdout).toBe("0.1.0\n");
  });
});
