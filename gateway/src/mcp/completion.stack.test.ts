/**
 * completion/complete through the official clients: v1 in a 2025-11-25 session, v2 pinned to
 * 2026-07-28. A prompt argument completes from its listed values, a resource-template variable
 * from the enum of the operation parameter it fills; an Exposition with nothing to complete
 * declares no `completions` capability and answers the method as not found.
 */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import {
  connectLegacyClient,
  connectModernClient,
  FIXTURE_OPENAPI,
  modernRequest,
  type Stack,
  useStackWithGateway,
  waitFor,
} from "../testing.ts";

let stack: Stack;
let gateway: Gateway;
let bare: { expositionId: string; apiKey: string };

useStackWithGateway(async (started) => {
  ({ stack, gateway } = started);
  const { admin } = stack.controlPlane;
  await admin.call("POST", "/api/v1/prompts", {
    name: "adoption",
    serviceId: stack.serviceId,
    prompts: [
      {
        name: "adopt",
        arguments: [{ name: "species", required: true, values: ["cat", "canary", "dog"] }],
        messages: [{ role: "user", text: "Find a {{species}}." }],
      },
    ],
  });
  await admin.call("POST", "/api/v1/resources", {
    name: "by-status",
    serviceId: stack.serviceId,
    resourceTemplates: [
      { name: "by-status", uriTemplate: "pets://status/{status}", fromBackend: { path: "/pets?status={{status}}" } },
    ],
  });
  const exposed = await stack.expose("bare", { plan: { apiKey: true }, openapi: FIXTURE_OPENAPI });
  bare = { expositionId: exposed.expositionId, apiKey: exposed.apiKey ?? "" };
  await waitFor(() => {
    const served = gateway.registry.byId(stack.expositionId)?.exposition;
    return (
      (served?.prompts.length ?? 0) > 0 &&
      (served?.resourceTemplates.length ?? 0) > 0 &&
      !!gateway.registry.byId(bare.expositionId)
    );
  }, "the prompts, templates and the bare Exposition");
});

const promptRef = { type: "ref/prompt", name: "adopt" } as const;
const templateRef = { type: "ref/resource", uri: "pets://status/{status}" } as const;

describe("completion/complete", () => {
  it("completes prompt arguments and template variables for the v1 client in a 2025-11-25 session", async () => {
    const client = await connectLegacyClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    try {
      expect(client.getServerCapabilities()?.completions).toEqual({});
      const species = await client.complete({ ref: promptRef, argument: { name: "species", value: "ca" } });
      expect(species.completion).toEqual({ values: ["cat", "canary"], total: 2, hasMore: false });
      const status = await client.complete({ ref: templateRef, argument: { name: "status", value: "" } });
      expect(status.completion.values).toEqual(["available", "sold"]);
      await expect(
        client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } }),
      ).rejects.toThrow(/Unknown prompt: nope/);
    } finally {
      await client.close();
    }
  });

  it("completes prompt arguments and template variables for the v2 client at 2026-07-28", async () => {
    const client = await connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    try {
      expect(client.getServerCapabilities()?.completions).toEqual({});
      const species = await client.complete({ ref: promptRef, argument: { name: "species", value: "D" } });
      expect(species.completion.values).toEqual(["dog"]);
      const status = await client.complete({ ref: templateRef, argument: { name: "status", value: "av" } });
      expect(status.completion.values).toEqual(["available"]);
    } finally {
      await client.close();
    }
  });

  it("is neither declared nor answered by an Exposition with nothing to complete", async () => {
    const url = `${gateway.url}/mcp/${bare.expositionId}`;
    const headers = { "x-atrium-key": bare.apiKey };
    const discovered = await request(url, modernRequest("server/discover", {}, { headers }));
    const capabilities = ((await discovered.body.json()) as { result: { capabilities: Record<string, unknown> } })
      .result.capabilities;
    expect(capabilities.prompts).toEqual({ listChanged: true });
    expect(capabilities.completions).toBeUndefined();
    const asked = await request(
      url,
      modernRequest("completion/complete", { ref: promptRef, argument: { name: "species", value: "" } }, { headers }),
    );
    expect(asked.statusCode).toBe(404);
    expect(((await asked.body.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });
});
