/**
 * `atrium gateway-group` and `atrium gateway` against a real control plane and gateway: groups
 * with labels, their refusals, and gateway health.
 */
import { describe, expect, it } from "vitest";
import { fails, json, ok, row, withCliStack } from "../testing.ts";

const atrium = withCliStack();

describe("gateway-group, gateway", () => {
  it("creates and lists gateway groups with labels", async () => {
    const created = ok(
      await atrium(["gateway-group", "create", "cli-group", "--label", "env=test", "--description", "from the CLI"]),
    );
    expect(row(created, "ID")).toMatch(/^\d+$/);
    expect(row(created, "LABELS")).toBe("env=test");
    const other = json(
      await atrium(["gateway-group", "create", "cli-eu", "--label", "env=prod", "--label", "region=eu", "-o", "json"]),
    );
    expect(other).toMatchObject({ name: "cli-eu", labels: { env: "prod", region: "eu" } });
    expect(Number.isInteger(other.id)).toBe(true);

    const list = ok(await atrium(["gateway-group", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+LABELS\s+DESCRIPTION$/m);
    expect(list.stdout).toMatch(new RegExp(`^${other.id}\\s+cli-eu\\s+env=prod, region=eu`, "m"));
    const listed = json(await atrium(["gateway-group", "list", "--output", "json"]));
    expect(listed.map((g: { name: string }) => g.name)).toEqual(
      expect.arrayContaining(["test", "cli-group", "cli-eu"]),
    );

    expect(json(await atrium(["gateway-group", "get", String(other.id), "-o", "json"])).name).toBe("cli-eu");
    expect(ok(await atrium(["gateway-group", "delete", String(other.id)])).stdout).toBe(
      `Deleted gateway group ${other.id}.\n`,
    );
  });

  it("explains bad labels, bad names and unknown groups", async () => {
    fails(await atrium(["gateway-group", "create", "g", "--label", "novalue"]), 2, "give it as key=value");
    fails(await atrium(["gateway-group", "create", "Bad_Name"]), 1, "body.name");
    fails(
      await atrium(["gateway-group", "get", "987654"]),
      1,
      "Gateway group '987654' does not exist in this organization",
    );
    const notANumber = await atrium(["gateway-group", "get", "abc"]);
    expect(notANumber.code).toBe(2);
  });

  it("lists gateways with their health", async () => {
    const table = ok(await atrium(["gateway", "list"]));
    expect(table.stdout).toMatch(/^ID\s+FQDNS\s+LABELS\s+VERSION\s+HEALTH\s+LAST SEEN$/m);
    expect(table.stdout).toMatch(/^gw-1\s+gw-1\.test\s+env=test\s+.*\bUP\b/m);
    const listed = json(await atrium(["gateway", "list", "-o", "json"]));
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: "gw-1", fqdns: ["gw-1.test"], health: "UP" })]),
    );
  });
});
