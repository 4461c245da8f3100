/**
 * Asking for missing arguments end to end: a real control plane (PGlite), the fixture backend, a
 * gateway with a cluster key, the official v2 client pinned to 2026-07-28 answering the forms
 * through its `elicitation/create` handler (it retries with inputResponses and the requestState
 * by itself), and raw HTTP for what a well-behaved client never sends (a tampered or foreign
 * state). The Exposition `asking` has elicitMissingArguments; `plain` (same Service) has not;
 * `discovery` has it in Discovery mode.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { modernHeaders, type Stack, startStack, waitFor } from "../testing.ts";

let stack: Stack;
let gateway: Gateway;
const ids = { asking: "", plain: "", discovery: "" };

beforeAll(async () => {
  stack = await startStack();
  await stack.controlPlane.admin.call("POST", "/api/v1/prompts", {
    name: "pet-prompts",
    serviceId: stack.serviceId,
    prompts: [
      {
        name: "describe_pet",
        description: "Describe a pet",
        arguments: [{ name: "pet", description: "Which pet", required: true }],
        messages: [{ role: "user", text: "Describe {{pet}}." }],
      },
    ],
  });
  ids.asking = (await stack.expose("asking", { plan: { elicitMissingArguments: true } })).expositionId;
  ids.plain = (await stack.expose("plain")).expositionId;
  ids.discovery = (
    await stack.expose("discovery", { plan: { elicitMissingArguments: true, toolExposureMode: "Discovery" } })
  ).expositionId;
  gateway = await stack.startGateway();
  await waitFor(
    () =>
      gateway.registry.byId(ids.asking)?.exposition.prompts.length === 1 &&
      gateway.registry.byId(ids.plain) !== undefined &&
      gateway.registry.byId(ids.discovery) !== undefined,
    "the three Expositions served, asking with the prompt",
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

type Form = { message: string; requestedSchema: { properties: Record<string, unknown> } };

type Content = Record<string, string | number | boolean>;

/** A v2 client whose user answers each form with `answer(form)`; what it was asked is recorded. */
async function userClient(exposition: string, answer: (form: Form) => Content | "decline") {
  const client = new V2Client(
    { name: "missing-arguments-test", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
  );
  const asked: Form[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    if (request.params.mode === "url") throw new Error("expected form mode");
    const form = request.params as unknown as Form;
    asked.push(form);
    const content = answer(form);
    return content === "decline" ? { action: "decline" } : { action: "accept", content };
  });
  await client.connect(new V2Transport(new URL(`${gateway.url}/mcp/${exposition}`)));
  return { client, asked };
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are read field by field
type Answer = { status: number; body: any };

/** A raw 2026-07-28 request. */
async function modern(
  method: "tools/call" | "prompts/get",
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: {} },
  exposition = ids.asking,
): Promise<Answer> {
  const response = await request(`${gateway.url}/mcp/${exposition}`, {
    method: "POST",
    headers: modernHeaders(method, String(params.name)),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
      },
    }),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

describe("through the official v2 client", () => {
  it("asks for a missing path parameter and calls the backend with the answer", async () => {
    const { client, asked } = await userClient(ids.asking, () => ({ petId: 2 }));
    const result = await client.callTool({ name: "getPet", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Tom");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.requestedSchema).toEqual({
      type: "object",
      properties: { petId: { type: "integer" } },
      required: ["petId"],
    });
    expect(stack.backend.received.at(-1)?.url).toBe("/api/pets/2");
    await client.close();
  });

  it("asks for a request body (a $ref'd object of primitive properties) as a form of its properties", async () => {
    const { client, asked } = await userClient(ids.asking, () => ({ name: "Bolt", status: "available" }));
    const result = await client.callTool({ name: "createPet", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Bolt");
    expect(Object.keys(asked[0]?.requestedSchema.properties ?? {})).toEqual(["id", "name", "status"]);
    await client.close();
  });

  it("asks again, in a new round, while an answer does not fit the form", async () => {
    const answers: Content[] = [{ petId: "one" }, { petId: 1 }];
    const { client, asked } = await userClient(ids.asking, () => answers.shift() ?? {});
    const result = await client.callTool({ name: "getPet", arguments: {} });
    expect(JSON.stringify(result.content)).toContain("Rex");
    expect(asked).toHaveLength(2);
    await client.close();
  });

  it("fills a prompt's missing argument", async () => {
    const { client, asked } = await userClient(ids.asking, () => ({ pet: "Rex" }));
    const prompt = await client.getPrompt({ name: "describe_pet" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Describe Rex." });
    expect(asked[0]?.message).toBe("describe_pet needs pet: Which pet");
    await client.close();
  });

  it("a declined form gets the usual missing-argument error, and nothing reaches the backend", async () => {
    const before = stack.backend.received.length;
    const { client } = await userClient(ids.asking, () => "decline");
    const result = await client.callTool({ name: "getPet", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("petId");
    expect(stack.backend.received.length).toBe(before);
    await client.close();
  });
});

describe("over raw HTTP", () => {
  it("answers input_required with one form per missing argument and a sealed requestState", async () => {
    const answer = await modern("tools/call", { name: "getPet", arguments: {} });
    expect(answer.status).toBe(200);
    const { result } = answer.body;
    expect(result.resultType).toBe("input_required");
    expect(result.inputRequests).toEqual({
      petId: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "getPet needs petId",
          requestedSchema: { type: "object", properties: { petId: { type: "integer" } }, required: ["petId"] },
        },
      },
    });
    expect(result.requestState).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it("refuses a tampered requestState, and one issued for another tool, with -32602", async () => {
    const first = (await modern("tools/call", { name: "getPet", arguments: {} })).body.result;
    const retry = (name: string, requestState: string) =>
      modern("tools/call", {
        name,
        arguments: {},
        requestState,
        inputResponses: { petId: { action: "accept", content: { petId: 1 } } },
      });
    const tampered = await retry("getPet", `${first.requestState}-TAMPERED`);
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toMatchObject({ code: -32602, data: { reason: "tampered" } });
    const foreign = await retry("deletePet", first.requestState);
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: -32602, data: { reason: "other-tool" } });
    const fine = await retry("getPet", first.requestState);
    expect(fine.body.result).toMatchObject({ resultType: "complete" });
    expect(fine.body.result.isError).toBeFalsy();
  });

  it("asks nothing of a client without form-mode elicitation, nor on a plan without the setting", async () => {
    for (const [capabilities, exposition] of [
      [{}, ids.asking],
      [{ sampling: {} }, ids.asking],
      [{ elicitation: { url: {} } }, ids.asking],
      [{ elicitation: {} }, ids.plain],
    ] as const) {
      const answer = await modern("tools/call", { name: "getPet", arguments: {} }, capabilities, exposition);
      expect(answer.body.result.resultType).toBe("complete");
      expect(answer.body.result.isError).toBe(true);
    }
    // Discovery mode's own tools are the model's to fill.
    const invoke = await modern("tools/call", { name: "invoke_tool", arguments: {} }, undefined, ids.discovery);
    expect(invoke.body.result).toMatchObject({ resultType: "complete", isError: true });
    const prompt = await modern("prompts/get", { name: "describe_pet" }, {}, ids.asking);
    expect(prompt.status).toBe(400);
    expect(prompt.body.error.code).toBe(-32602);
  });

  it("refuses inputResponses that are not an object", async () => {
    const answer = await modern("tools/call", { name: "getPet", arguments: {}, inputResponses: null });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32602);
  });
});

it("2025 sessions (official v1 client) get the usual error: the feature is of the input_required era", async () => {
  const client = new V1Client({ name: "missing-arguments-test", version: "1" }, { capabilities: { elicitation: {} } });
  await client.connect(new V1Transport(new URL(`${gateway.url}/mcp/${ids.asking}`)));
  const result = await client.callTool({ name: "getPet", arguments: {} });
  expect(result.isError).toBe(true);
  await client.close();
});
