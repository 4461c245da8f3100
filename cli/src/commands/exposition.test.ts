/**
 * `atrium expo` against a real control plane and gateway: Expositions named after their plan,
 * their group and ENDPOINTS, their TOOLS as clients see them, and what each refusal says.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Gateway } from "@atrium/gateway";
import { type Stack, waitFor } from "@atrium/gateway/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { fails, json, ok, row, withCliStack } from "../testing.ts";

let stack: Stack;
let gateway: Gateway;
const atrium = withCliStack((cli) => {
  ({ stack, gateway } = cli);
});

beforeAll(async () => {
  // The group the Expositions are published on.
  ok(await atrium(["gateway-group", "create", "cli-group", "--label", "env=test"]));
});

describe("expo", () => {
  it("creates expositions (named after the plan by default) and shows their group and ENDPOINTS", async () => {
    const groups = json(await atrium(["gateway-group", "list", "-o", "json"]));
    const group = groups.find((g: { name: string }) => g.name === "cli-group");
    const plan = json(
      await atrium([
        "config",
        "create",
        "expo-plan",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        `${stack.backend.url}/api`,
        "-o",
        "json",
      ]),
    );

    const created = ok(
      await atrium(["expo", "create", "--configuration", plan.id, "--gateway-group", String(group.id)]),
    );
    const expositionId = row(created, "ID") as string;
    expect(row(created, "NAME")).toBe("expo-plan");
    expect(row(created, "GATEWAY GROUP")).toBe(`cli-group (${group.id})`);
    expect(row(created, "ENDPOINTS")).toBe("gw-1.test");
    expect(row(created, "MCP PATH")).toBe(`/mcp/${expositionId}`);

    const named = json(
      await atrium([
        "expo",
        "create",
        "--configuration",
        plan.id,
        "--gateway-group",
        String(group.id),
        "--name",
        "expo-named",
        "--output",
        "json",
      ]),
    );
    expect(named).toMatchObject({
      name: "expo-named",
      configurationPlanId: plan.id,
      gatewayGroup: { id: group.id, name: "cli-group" },
      endpoints: ["gw-1.test"],
    });

    const shown = ok(await atrium(["expo", "get", named.id]));
    expect(row(shown, "GATEWAY GROUP")).toBe(`cli-group (${group.id})`);
    expect(row(shown, "ENDPOINTS")).toBe("gw-1.test");
    expect(json(await atrium(["expo", "get", named.id, "-o", "json"])).endpoints).toEqual(["gw-1.test"]);
    expect(row(shown, "PROBLEMS")).toBe("(none)");
    // As a gateway that cannot serve it reports (its whole set, replacing the last one).
    const reported = await stack.controlPlane.api.withToken(stack.token).call("PUT", "/api/v1/gateways/gw-1/problems", {
      instanceId: gateway.sync.instanceId,
      problems: [{ expositionId: named.id, message: "the backend secret references ${env:X}, which is not set" }],
    });
    expect(reported.status).toBe(204);
    expect(row(ok(await atrium(["expo", "get", named.id])), "PROBLEMS")).toMatch(
      /^gw-1: the backend secret references \$\{env:X\}, which is not set \(since .+\)$/,
    );

    const list = ok(await atrium(["expo", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+CONFIGURATION PLAN\s+GATEWAY GROUP\s+ENDPOINTS$/m);
    expect(list.stdout).toMatch(
      new RegExp(`^${named.id}\\s+expo-named\\s+${plan.id}\\s+cli-group \\(${group.id}\\)\\s+gw-1\\.test$`, "m"),
    );
    expect(json(await atrium(["expo", "list", "-o", "json"])).map((e: { id: string }) => e.id)).toEqual(
      expect.arrayContaining([expositionId, named.id, stack.expositionId]),
    );

    await waitFor(() => gateway.registry.size >= 3, "the gateway serves the new expositions");

    expect(ok(await atrium(["expo", "delete", expositionId])).stdout).toBe(`Deleted exposition ${expositionId}.\n`);
    expect(json(await atrium(["expo", "delete", named.id, "-o", "json"]))).toEqual({ id: named.id, deleted: true });
    ok(await atrium(["gateway-group", "delete", String(group.id)]));
  });

  it("shows each tool's name, the tool it comes from, its arguments, filter and budget; JSON has the full view", async () => {
    const folder = mkdtempSync(join(tmpdir(), "atrium-expo-tools-"));
    const overrides = join(folder, "overrides.yaml");
    writeFileSync(overrides, "getPet:\n  name: get_pet\n  fixedArguments:\n    petId: 1\n  maxResultBytes: 4096\n");
    const filters = join(folder, "filters.json");
    writeFileSync(filters, JSON.stringify({ getPet: { retain: ["/name"], format: "toon" } }));
    const plan = json(
      await atrium([
        "config",
        "create",
        "expo-tools-plan",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        `${stack.backend.url}/api`,
        "--tool-overrides",
        overrides,
        "--tool-output-filters",
        filters,
        "--max-result-bytes",
        "65536",
        "-o",
        "json",
      ]),
    );
    const group = json(await atrium(["gateway-group", "create", "tools-group", "--label", "env=tools", "-o", "json"]));
    const expo = json(
      await atrium(["expo", "create", "--configuration", plan.id, "--gateway-group", String(group.id), "-o", "json"]),
    );

    const shown = ok(await atrium(["expo", "get", expo.id]));
    expect(row(shown, "TOOLS")).toBe("NAME  FROM  ARGUMENTS  FILTER  BUDGET");
    // getPet's only argument is fixed by the plan: it takes none.
    expect(shown.stdout).toMatch(/^\s*get_pet {2}getPet {2}- {2}yes {2}4096 B$/m);
    expect(shown.stdout).toMatch(/^\s*listPets {2}listPets {2}status {2}no {2}65536 B$/m);
    expect(shown.stdout).toMatch(/^\s*createPet {2}createPet {2}body\* {2}no {2}65536 B$/m);

    const tools = json(await atrium(["expo", "get", expo.id, "-o", "json"])).tools;
    const byFrom = (from: string) => tools.find((tool: { from: string }) => tool.from === from);
    expect(byFrom("getPet")).toMatchObject({
      name: "get_pet",
      fixedArguments: { petId: 1 },
      filter: { retain: ["/name"], format: "toon" },
      outputSchema: { type: "object", properties: { name: expect.any(Object) } },
      maxResultBytes: 4096,
    });
    // The whole effective inputSchema: the fixed petId gone from properties and required.
    expect(byFrom("getPet").inputSchema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(byFrom("createPet").inputSchema).toMatchObject({
      type: "object",
      properties: { body: { type: "object", required: ["name"] } },
      required: ["body"],
      additionalProperties: false,
    });
    const yaml = ok(await atrium(["expo", "get", expo.id, "-o", "yaml"])).stdout;
    expect(yaml).toMatch(/^ {4}inputSchema:\n {6}type: object\n {6}properties:\n {8}status:\n/m);
    ok(await atrium(["expo", "delete", expo.id]));
    ok(await atrium(["gateway-group", "delete", String(group.id)]));
  });

  it("explains missing flags, unknown plans and groups, and unknown expositions", async () => {
    fails(
      await atrium(["expo", "create", "--configuration", stack.planId]),
      2,
      "required option '--gateway-group <group_id>' not specified",
    );

    const planId = randomUUID();
    fails(
      await atrium(["expo", "create", "--configuration", planId, "--gateway-group", "1"]),
      1,
      `Configuration plan '${planId}' does not exist in this organization`,
    );

    fails(
      await atrium(["expo", "create", "--configuration", stack.planId, "--gateway-group", "987654", "--name", "x"]),
      1,
      "body.gatewayGroupId: no gateway group 987654 in this organization",
    );

    const id = randomUUID();
    fails(await atrium(["expo", "get", id]), 1, `Exposition '${id}' does not exist in this organization`);
  });
});
