/**
 * Synchronization details: a gateway whose registration disappears registers again by itself;
 * one whose token is refused stops its stream and says so; the Service's Resources and Prompts
 * reach clients through the change stream.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { type Stack, startStack, waitFor } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;

beforeAll(async () => {
  stack = await startStack({ controlPlane: { config: { gatewayHealthIntervalSeconds: 1 } } });
  gateway = await stack.startGateway();
});
afterAll(async () => {
  await stack?.close();
});

describe("gateway sync", () => {
  it("registers again when its health advertisement is refused", async () => {
    const admin = stack.controlPlane.admin;
    const id = (await admin.call("GET", "/api/v1/gateways")).body.items[0].id;
    expect((await admin.call("DELETE", `/api/v1/gateways/${id}`)).status).toBe(204);
    expect((await admin.call("GET", "/api/v1/gateways")).body.items).toEqual([]);
    await waitFor(
      async () => (await admin.call("GET", "/api/v1/gateways")).body.items.some((g: { id: string }) => g.id === id),
      "the gateway to register again",
      8000,
    );
  });

  it("stops its stream when its token is refused (a 401 on health), and keeps serving the last configuration", async () => {
    const admin = stack.controlPlane.admin;
    const created = await admin.call("POST", "/api/v1/api-tokens", { name: "revoked-soon", validityDays: 1 });
    const doomed = await stack.startGateway({ controlPlaneToken: created.body.token });
    expect((await admin.call("DELETE", `/api/v1/api-tokens/${created.body.id}`)).status).toBe(204);
    await waitFor(() => doomed.sync.lastFailure === "credential refused", "the gateway to notice the refusal", 8000);
    expect(doomed.registry.byId(stack.expositionId)).toBeDefined();
    const ready = await request(`${doomed.url}/q/health/ready`);
    expect(ready.statusCode).toBe(200);
    expect(await ready.body.json()).toMatchObject({ configuration: { lastProblem: "credential refused" } });
  });

  it("serves the Service's resources and prompts, updated without restart", async () => {
    const admin = stack.controlPlane.admin;
    await admin.call("POST", "/api/v1/resources", {
      name: "docs",
      serviceId: stack.serviceId,
      resources: [{ uri: "docs://policy", name: "policy", mimeType: "text/markdown", text: "Adults only." }],
      resourceTemplates: [{ uriTemplate: "pets://{petId}", name: "pet", fromBackend: { path: "/pets/{{petId}}" } }],
    });
    await admin.call("POST", "/api/v1/prompts", {
      name: "prompts",
      serviceId: stack.serviceId,
      prompts: [
        {
          name: "greet",
          arguments: [{ name: "who", required: true }],
          messages: [{ role: "user", text: "Hello {{who}}" }],
        },
      ],
    });
    await waitFor(
      () => (gateway.registry.byId(stack.expositionId)?.exposition.prompts.length ?? 0) > 0,
      "prompts to arrive",
    );

    const client = new Client(
      { name: "sync-test", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}${stack.mcpPath}`), {
        requestInit: { headers: { "x-atrium-key": stack.apiKey } },
      }),
    );
    try {
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["docs://policy"]);
      const policy = await client.readResource({ uri: "docs://policy" });
      expect(policy.contents[0]).toMatchObject({ uri: "docs://policy", text: "Adults only." });
      const pet = await client.readResource({ uri: "pets://2" });
      expect(JSON.stringify(pet.contents)).toContain("Tom");
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        "pets://{petId}",
      ]);
      const prompt = await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello Ada" });
      await expect(client.getPrompt({ name: "greet", arguments: {} })).rejects.toThrow(/who/);
      await expect(client.readResource({ uri: "docs://nothing" })).rejects.toThrow(/not found/i);
    } finally {
      await client.close();
    }
  });
});
