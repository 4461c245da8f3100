/**
 * What the control plane shows of an Exposition's tools (`GET /api/v1/expositions/<id>/tools`) is
 * what a gateway serving it lists (`tools/list`, through both official clients): per tool, the
 * same name, the same effective inputSchema (the plan's fixed arguments dropped, `required`
 * updated, `Mcp-Param-*` annotations kept) and the same outputSchema (derived through the plan's
 * filter), for operations and for a custom tool alike. Both sides build them with
 * @atrium/contract/tool-schema; this checks that nothing between them differs.
 */
import type { ExpositionToolView } from "@atrium/contract/rest";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { officialClients, type Stack, useStack, waitFor } from "./testing.ts";

/** A custom tool on the fixture Service: its own inputSchema, one argument mirrored into an Mcp-Param header. */
const tagPet = {
  name: "tag_pet",
  description: "Tags a pet",
  inputSchema: {
    type: "object",
    properties: {
      petId: { type: "integer", "x-mcp-header": "Pet" },
      tag: { type: "string", example: "cute" },
      store: { type: "string" },
    },
    required: ["petId", "tag", "store"],
  },
  request: {
    method: "POST",
    path: "/pets/{{petId}}/tags",
    headers: { "X-Store": "{{store}}" },
    body: '{"tag": {{tag}}}',
  },
};

let stack: Stack;
let gateway: Gateway;
let url: string;
let apiKey: string;
let expositionId: string;
useStack(async (started: Stack) => {
  stack = started;
  const admin = stack.controlPlane.admin;
  const custom = await admin.call("POST", "/api/v1/custom-tools", {
    name: "view-tools",
    serviceId: stack.serviceId,
    tools: [tagPet],
  });
  expect(custom.status).toBe(201);
  const exposed = await stack.expose("viewed", {
    plan: {
      apiKey: true,
      toolOverrides: {
        getPet: { name: "get_pet", fixedArguments: { petId: 7 } },
        tag_pet: { fixedArguments: { store: "main" } },
      },
      toolOutputFilters: { getPet: { retain: ["/name"] } },
    },
  });
  expositionId = exposed.expositionId;
  apiKey = exposed.apiKey ?? "";
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the exposition served");
  url = `${gateway.url}/mcp/${expositionId}`;
});

async function shownTools(): Promise<ExpositionToolView[]> {
  const shown = await stack.controlPlane.admin.call("GET", `/api/v1/expositions/${expositionId}/tools`);
  expect(shown.status).toBe(200);
  return shown.body.items;
}

describe.each(officialClients(() => ({ url, apiKey })))("the tools view and tools/list ($era)", ({ connect }) => {
  it("show every tool with the same inputSchema and outputSchema", async () => {
    const shown = await shownTools();
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(shown.map((tool) => tool.name).sort()).toEqual(tools.map((tool) => tool.name).sort());
      for (const listed of tools) {
        const view = shown.find((tool) => tool.name === listed.name);
        expect({ name: listed.name, inputSchema: view?.inputSchema }).toEqual({
          name: listed.name,
          inputSchema: listed.inputSchema,
        });
        expect({ name: listed.name, outputSchema: view?.outputSchema }).toEqual({
          name: listed.name,
          outputSchema: listed.outputSchema,
        });
      }
    } finally {
      await client.close();
    }
  });
});

describe("the tools view", () => {
  it("drops the fixed arguments from properties and required, and keeps the rest as gateways publish it", async () => {
    const shown = await shownTools();
    const byName = (name: string) => shown.find((tool) => tool.name === name);
    expect(byName("get_pet")?.inputSchema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    expect(byName("get_pet")?.outputSchema).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    });
    expect(byName("tag_pet")?.inputSchema).toEqual({
      type: "object",
      properties: { petId: { type: "integer", "x-mcp-header": "Pet" }, tag: { type: "string", examples: ["cute"] } },
      required: ["petId", "tag"],
    });
  });
});
