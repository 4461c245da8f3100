/**
 * An Exposition changed in place (PUT /api/v1/expositions/<id>) reaches a running gateway through
 * the change stream: a new name moves its path (the old one answers 404 at once), and a group
 * that does not select the gateway takes it off that gateway.
 */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { modernRequest, type Stack, useStackWithGateway, waitFor } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;
useStackWithGateway((running) => ({ stack, gateway } = running));

describe("an Exposition changed in place", () => {
  it("moves to its new path, then off the gateway when its new group does not select it", async () => {
    const admin = stack.controlPlane.admin;
    const listTools = async (name: string) =>
      (
        await request(
          `${gateway.url}/mcp/default/${name}`,
          modernRequest("tools/list", {}, { headers: { "x-atrium-key": stack.apiKey } }),
        )
      ).statusCode;
    expect(await listTools("fixture")).toBe(200);

    const renamed = await admin.call("PUT", `/api/v1/expositions/${stack.expositionId}`, {
      name: "fixture-renamed",
      configurationPlanId: stack.planId,
      gatewayGroupId: stack.groupId,
    });
    expect(renamed.status).toBe(200);
    await waitFor(() => gateway.registry.byPath("default", "fixture-renamed") !== undefined, "the new path");
    expect(gateway.registry.byId(stack.expositionId)?.exposition.name).toBe("fixture-renamed");
    expect(await listTools("fixture-renamed")).toBe(200);
    expect(await listTools("fixture")).toBe(404);

    const elsewhere = await admin.call("POST", "/api/v1/gateway-groups", {
      name: "elsewhere",
      labels: { env: "prod" },
    });
    const moved = await admin.call("PUT", `/api/v1/expositions/${stack.expositionId}`, {
      name: "fixture-renamed",
      configurationPlanId: stack.planId,
      gatewayGroupId: elsewhere.body.id,
    });
    expect(moved.status).toBe(200);
    await waitFor(() => gateway.registry.byId(stack.expositionId) === undefined, "the gateway to drop it");
    expect(await listTools("fixture-renamed")).toBe(404);
  });
});
