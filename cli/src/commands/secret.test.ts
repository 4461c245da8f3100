/**
 * `atrium secret` and `atrium admin reencrypt` against a real control plane: values from stdin
 * only, list, delete, and the re-encryption report.
 */
import { randomUUID } from "node:crypto";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { fails, json, ok, row, withCliStack } from "../testing.ts";

let stack: Stack;
const atrium = withCliStack((cli) => ({ stack } = cli));

describe("secret, admin", () => {
  it("creates secrets from stdin, lists and deletes them; admin reencrypt reports", async () => {
    const created = ok(await atrium(["secret", "create", "backend-token", "--value-stdin"], "s3cret-value\n"));
    const id = row(created, "ID") as string;
    expect(row(created, "NAME")).toBe("backend-token");
    expect(created.stdout).not.toContain("s3cret-value");
    const piped = json(await atrium(["secret", "create", "piped-token", "-o", "json"], "other"));
    expect(piped).toMatchObject({ name: "piped-token" });

    const list = ok(await atrium(["secret", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+CREATED AT\s+UPDATED AT$/m);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+backend-token\\s`, "m"));
    expect(json(await atrium(["secret", "list", "-o", "json"])).map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(["backend-token", "piped-token"]),
    );

    // A plan can send a stored secret to its backend.
    const plan = json(
      await atrium([
        "config",
        "create",
        "secret-plan",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--backend-secret",
        id,
        "--backend-secret-prefix",
        "Bearer ",
        "-o",
        "json",
      ]),
    );
    expect(plan.backendSecret).toMatchObject({ secretId: id, prefix: "Bearer ", in: "header", name: "Authorization" });
    ok(await atrium(["config", "delete", plan.id]));

    const report = ok(await atrium(["admin", "reencrypt"]));
    expect(row(report, "ACTIVE KEY ID")).toBe("test");
    expect(Number(row(report, "SCANNED"))).toBeGreaterThanOrEqual(2);
    expect(json(await atrium(["admin", "reencrypt", "-o", "json"]))).toMatchObject({
      activeKeyId: "test",
      reencrypted: 0,
    });

    expect(ok(await atrium(["secret", "delete", id])).stdout).toBe(`Deleted secret ${id}.\n`);
    expect(json(await atrium(["secret", "delete", piped.id, "-o", "json"]))).toEqual({ id: piped.id, deleted: true });
  });

  it("refuses an empty value and unknown secrets, and says the value is never an argument", async () => {
    fails(await atrium(["secret", "create", "empty", "--value-stdin"], ""), 2, "No secret value was given");
    fails(await atrium(["secret", "create", "x", "the-value"], "v"), 2, "too many arguments");
    const help = ok(await atrium(["secret", "create", "--help"]));
    expect(help.stdout.replace(/\s+/g, " ")).toContain("never taken as an argument (arguments end up in shell history");
    const id = randomUUID();
    fails(await atrium(["secret", "delete", id]), 1, `Secret '${id}' does not exist in this organization`);
  });
});
