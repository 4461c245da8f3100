/**
 * The plan's limits end to end: a real control plane and gateway, the fixture backend, the
 * official MCP clients. A plan's rate past its burst answers 429 with Retry-After in both eras
 * (and for a backend resource read), and the clients' sessions survive it; a concurrency cap
 * holds while slow calls are in progress; per-caller budgets keep two OAuth subjects apart; a
 * tool's own limit answers an isError result; a plan update changes the limits of the running
 * gateway; the REST API refuses limits it could not enforce. Metrics and audit events are read
 * back.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPError,
  StreamableHTTPClientTransport as V1Transport,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./auth/testing.ts";
import type { Gateway } from "./gateway.ts";
import { TOO_MANY_CALLS } from "./mcp/overload.ts";
import { managementUrl } from "./server.ts";
import { modernRequest, type Stack, startStack, waitFor } from "./testing.ts";

const NAMES = ["rated", "capped", "tooled", "callers", "updated", "batched", "discovery"] as const;
type Name = (typeof NAMES)[number];

let stack: Stack;
let as: TestAuthorizationServer;
let gateway: Gateway;
const ids = {} as Record<Name, string>;
const plans = {} as Record<Name, { id: string; body: Record<string, unknown> }>;
let auditDir: string;
let auditFile: string;

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  const publish = async (name: Name, plan: Record<string, unknown>) => {
    const body = { backendEndpoint: `${stack.backend.url}/api`, ...plan };
    const exposed = await stack.expose(name, { plan: body });
    ids[name] = exposed.expositionId;
    plans[name] = { id: exposed.planId, body: { name, serviceId: stack.serviceId, ...body } };
    return exposed;
  };
  await publish("rated", { audit: true, limits: { requestsPerSecond: 0.2, burst: 3 } });
  await stack.controlPlane.admin.call("POST", "/api/v1/resources", {
    name: "pets",
    serviceId: stack.serviceId,
    resourceTemplates: [{ uriTemplate: "pets://{petId}", name: "pet", fromBackend: { path: "/pets/{{petId}}" } }],
  });
  await publish("capped", { limits: { concurrentCalls: 2 } });
  await publish("tooled", { audit: true, limits: { tools: { createPet: { requestsPerSecond: 0.1 } } } });
  await publish("callers", {
    oauth: { issuer: as.issuer, audience: "limits-test" },
    limits: { per: "caller", requestsPerSecond: 0.1, burst: 2 },
  });
  await publish("updated", { limits: { requestsPerSecond: 0.1, burst: 1 } });
  await publish("batched", { limits: { requestsPerSecond: 0.1, burst: 2 } });
  await publish("discovery", { toolExposureMode: "Discovery", limits: { requestsPerSecond: 0.1, burst: 1 } });
  auditDir = mkdtempSync(join(tmpdir(), "atrium-limits-audit-"));
  auditFile = join(auditDir, "audit.jsonl");
  gateway = await stack.startGateway({ auditFile });
  await waitFor(
    () => NAMES.every((name) => gateway.registry.byId(ids[name])?.exposition.resourceTemplates.length === 1),
    "the expositions served, with the resource template",
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await as?.close();
  if (auditDir) rmSync(auditDir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are read field by field
type Answer = { status: number; retryAfter: string | undefined; body: any };

/** A modern-era request to `name`'s endpoint: the status, Retry-After and body. */
async function modern(name: Name, method: string, params: Record<string, unknown>, token?: string): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(typeof params.uri === "string" ? { "mcp-name": params.uri } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const response = await request(`${gateway.url}/mcp/${ids[name]}`, modernRequest(method, params, { headers }));
  return {
    status: response.statusCode,
    retryAfter: response.headers["retry-after"] as string | undefined,
    body: await response.body.json(),
  };
}

const callTool = (name: Name, tool: string, args: Record<string, unknown> = {}, token?: string) =>
  modern(name, "tools/call", { name: tool, arguments: args }, token);

async function metrics(): Promise<string> {
  const response = await request(`${managementUrl(gateway.app)}/q/metrics`);
  return response.body.text();
}

function limited(text: string, name: Name, scope: string, kind: string): number {
  const series = `atrium_limited_calls_total{exposition="${ids[name]}",scope="${scope}",kind="${kind}"} `;
  const line = text.split("\n").find((candidate) => candidate.startsWith(series));
  return Number(line?.slice(series.length) ?? 0);
}

// biome-ignore lint/suspicious/noExplicitAny: audit events are read as JSON
function limitEvents(name: Name): any[] {
  if (!existsSync(auditFile)) return [];
  return readFileSync(auditFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((event) => event.event?.action === "call_limited" && event.atrium.exposition.id === ids[name]);
}

describe("a plan's request rate", () => {
  it("answers past the burst with 429, Retry-After and a JSON-RPC error, in both eras; sessions survive it", async () => {
    for (let i = 0; i < 3; i++) expect((await callTool("rated", "listPets")).status).toBe(200);
    const refused = await callTool("rated", "listPets");
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("5");
    expect(refused.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: TOO_MANY_CALLS,
        message:
          "Too many calls: this endpoint admits 0.2 calls per second on this gateway replica, and they are used up; retry in 5 s",
        data: { retryAfterSeconds: 5, scope: "plan", kind: "rate" },
      },
    });
    // A backend resource read spends the same budget; a listing, which the gateway answers itself, does not.
    expect((await modern("rated", "resources/read", { uri: "pets://1" })).status).toBe(429);
    expect((await modern("rated", "tools/list", {})).status).toBe(200);

    // The v2 client (2026-07-28) sees an HTTP error carrying the status and the message, and keeps working.
    const v2 = new V2Client(
      { name: "limits-v2", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await v2.connect(new V2Transport(new URL(`${gateway.url}/mcp/${ids.rated}`)));
    const v2Error = await v2.callTool({ name: "listPets", arguments: {} }).then(
      () => undefined,
      (error: unknown) => error as { name: string; status?: number; message: string },
    );
    expect(v2Error).toMatchObject({ name: "SdkHttpError", status: 429 });
    expect(v2Error?.message).toContain("Too many calls");
    expect((await v2.listTools()).tools.length).toBeGreaterThan(0);
    await v2.close();

    // The v1 client (2025 session): the same, and the session goes on.
    const v1 = new V1Client({ name: "limits-v1", version: "1" });
    const transport = new V1Transport(new URL(`${gateway.url}/mcp/${ids.rated}`));
    await v1.connect(transport);
    const sessionId = transport.sessionId;
    const v1Error = await v1.callTool({ name: "listPets", arguments: {} }).then(
      () => undefined,
      (error: unknown) => error as { code?: number; message: string },
    );
    expect(v1Error).toBeInstanceOf(StreamableHTTPError);
    expect(v1Error?.code).toBe(429);
    expect(v1Error?.message).toContain("retry in");
    expect((await v1.listTools()).tools.length).toBeGreaterThan(0);
    expect(transport.sessionId).toBe(sessionId);
    await v1.close();

    const text = await metrics();
    expect(limited(text, "rated", "plan", "rate")).toBe(4);
    expect(limited(text, "rated", "plan", "concurrency")).toBe(0);
    await waitFor(() => limitEvents("rated").length === 4, "the audit events of the refusals");
    expect(limitEvents("rated")[0]).toMatchObject({
      event: { category: "api", action: "call_limited", outcome: "failure", reason: "rate_limit" },
      http: { response: { status_code: 429 } },
      atrium: {
        limit: { scope: "plan", kind: "rate", value: 0.2, retry_after_seconds: 5 },
        tool: { name: "listPets" },
      },
    });
    expect(limitEvents("rated")[1].atrium.tool).toBeUndefined(); // the resource read
  }, 30_000);
});

describe("a plan's concurrency cap", () => {
  it("refuses calls beyond 2 in progress with 429 and Retry-After 1, and admits again once they finish", async () => {
    const slow = [callTool("capped", "slow"), callTool("capped", "slow")];
    await waitFor(() => (gateway.registry.byId(ids.capped)?.limiter?.keptBudgets ?? 0) > 0, "the limiter in use");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await callTool("capped", "listPets");
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("1");
    expect(refused.body.error.data).toEqual({ retryAfterSeconds: 1, scope: "plan", kind: "concurrency" });
    for (const answer of await Promise.all(slow)) expect(answer.status).toBe(200);
    // Fast calls in a row never hold two slots at once.
    for (let i = 0; i < 5; i++) expect((await callTool("capped", "listPets")).status).toBe(200);
    expect(limited(await metrics(), "capped", "plan", "concurrency")).toBe(1);
  }, 30_000);
});

describe("per-caller budgets", () => {
  it("keep one OAuth subject's exhaustion from another", async () => {
    const alice = await as.mint({ sub: "alice", aud: "limits-test" });
    const bob = await as.mint({ sub: "bob", aud: "limits-test" });
    for (let i = 0; i < 2; i++) expect((await callTool("callers", "listPets", {}, alice)).status).toBe(200);
    const refused = await callTool("callers", "listPets", {}, alice);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain("your share of this endpoint");
    expect(refused.body.error.data.scope).toBe("caller");
    for (let i = 0; i < 2; i++) expect((await callTool("callers", "listPets", {}, bob)).status).toBe(200);
    expect((await callTool("callers", "listPets", {}, bob)).status).toBe(429);
    expect(limited(await metrics(), "callers", "caller", "rate")).toBe(2);
  }, 30_000);
});

describe("a tool's own limit", () => {
  it("answers an isError result saying when to retry, and leaves the other tools and the session alone", async () => {
    const v1 = new V1Client({ name: "limits-tool", version: "1" });
    await v1.connect(new V1Transport(new URL(`${gateway.url}/mcp/${ids.tooled}`)));
    const first = await v1.callTool({ name: "createPet", arguments: { body: { name: "Nemo" } } });
    expect(first.isError).toBeFalsy();
    const second = await v1.callTool({ name: "createPet", arguments: { body: { name: "Dory" } } });
    expect(second).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: "Too many calls to tool createPet: it admits 0.1 calls per second on this gateway replica, and they are used up. Retry in 10 s, or use another tool meanwhile.",
        },
      ],
    });
    for (let i = 0; i < 5; i++) expect((await v1.callTool({ name: "listPets", arguments: {} })).isError).toBeFalsy();
    await v1.close();
    expect(limited(await metrics(), "tooled", "tool", "rate")).toBe(1);
    await waitFor(() => limitEvents("tooled").length === 1, "the tool refusal's audit event");
    expect(limitEvents("tooled")[0]).toMatchObject({
      http: { response: { status_code: 200 } },
      atrium: { limit: { scope: "tool", kind: "rate" }, tool: { name: "createPet" } },
    });
  }, 30_000);
});

describe("a 2025-03-26 batch", () => {
  it("answers the calls past the limit with the error inside the batch's 200, and runs the others", async () => {
    const headers = (session?: string) => ({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-03-26",
      ...(session ? { "mcp-session-id": session } : {}),
    });
    const url = `${gateway.url}/mcp/${ids.batched}`;
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "batch", version: "1" } },
    };
    const opened = await request(url, { method: "POST", headers: headers(), body: JSON.stringify(initialize) });
    await opened.body.dump();
    const session = String(opened.headers["mcp-session-id"]);
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "listPets", arguments: {} },
    });
    const batch = [call(1), call(2), call(3), { jsonrpc: "2.0", id: 4, method: "tools/list" }];
    const response = await request(url, { method: "POST", headers: headers(session), body: JSON.stringify(batch) });
    expect(response.statusCode).toBe(200);
    expect(response.headers["retry-after"]).toBeUndefined();
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are read field by field
    const answers = (await response.body.json()) as any[];
    expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 4]);
    expect(answers.filter((answer) => answer.result?.content)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.error);
    expect(refused).toHaveLength(1);
    expect(refused[0].error).toMatchObject({ code: TOO_MANY_CALLS, data: { scope: "plan", kind: "rate" } });
    expect(answers[3].result.tools.length).toBeGreaterThan(0);
  });
});

describe("Discovery mode", () => {
  it("spends the plan's budget on invoke_tool, not on search_tools", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await callTool("discovery", "search_tools", { query: "pets" })).status).toBe(200);
    }
    const invoke = () => callTool("discovery", "invoke_tool", { name: "listPets", arguments: {} });
    const first = await invoke();
    expect(first.status).toBe(200);
    expect(first.body.result.isError).toBeFalsy();
    expect((await invoke()).status).toBe(429);
  });
});

describe("a plan update", () => {
  it("changes the limits of the running gateway, with full buckets", async () => {
    expect((await callTool("updated", "listPets")).status).toBe(200);
    expect((await callTool("updated", "listPets")).status).toBe(429);
    const before = gateway.registry.byId(ids.updated);
    const put = await stack.controlPlane.admin.call("PUT", `/api/v1/configuration-plans/${plans.updated.id}`, {
      ...plans.updated.body,
      limits: { requestsPerSecond: 0.1, burst: 4 },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await waitFor(() => gateway.registry.byId(ids.updated) !== before, "the updated plan on the gateway");
    for (let i = 0; i < 4; i++) expect((await callTool("updated", "listPets")).status).toBe(200);
    expect((await callTool("updated", "listPets")).status).toBe(429);

    // Limits removed: nothing is refused.
    const { limits: _limits, ...without } = plans.updated.body;
    const current = gateway.registry.byId(ids.updated);
    expect(
      (await stack.controlPlane.admin.call("PUT", `/api/v1/configuration-plans/${plans.updated.id}`, without)).status,
    ).toBe(200);
    await waitFor(() => gateway.registry.byId(ids.updated) !== current, "the plan without limits");
    expect(gateway.registry.byId(ids.updated)?.limiter).toBeUndefined();
    for (let i = 0; i < 10; i++) expect((await callTool("updated", "listPets")).status).toBe(200);
  }, 30_000);
});

describe("the REST API", () => {
  it.each([
    [
      { burst: 5, concurrentCalls: 2 },
      "limits.burst",
      "burst needs requestsPerSecond: it is the size of the rate's bucket",
    ],
    [{ per: "caller" }, "limits", "set requestsPerSecond, concurrentCalls or tools: empty limits limit nothing"],
    [{ requestsPerSecond: 0 }, "limits.requestsPerSecond", "Too small: expected number to be >=0.001"],
    [{ concurrentCalls: 2.5 }, "limits.concurrentCalls", "Invalid input: expected int, received number"],
    [
      { tools: { createPet: {} } },
      "limits.tools.createPet",
      "set requestsPerSecond, concurrentCalls or both: an empty tool limit limits nothing",
    ],
    [
      { per: "caller", requestsPerSecond: 1 },
      "limits.per",
      "limits.per caller needs an OAuth-protected plan (set oauth): callers are told apart by their token's subject, and an API key is one caller",
    ],
  ])("refuses limits %j with 400 naming %s", async (limits, field, message) => {
    const response = await stack.controlPlane.admin.call("POST", "/api/v1/configuration-plans", {
      name: `refused-${Math.random().toString(36).slice(2, 8)}`,
      serviceId: stack.serviceId,
      backendEndpoint: `${stack.backend.url}/api`,
      apiKey: true,
      limits,
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toContainEqual(expect.objectContaining({ field: `body.${field}`, message }));
  });

  it("refuses an exposition whose plan limits a tool its Service lacks, at the gateway (fail closed)", async () => {
    const exposed = await stack.expose("unknown-tool", {
      plan: { limits: { tools: { noSuchTool: { concurrentCalls: 1 } } } },
    });
    await waitFor(
      () => gateway.registry.refusals().some((refusal) => refusal.expositionId === exposed.expositionId),
      "the refusal",
    );
    expect(
      gateway.registry.refusals().find((refusal) => refusal.expositionId === exposed.expositionId)?.message,
    ).toContain("limits.tools names tools this Exposition does not have: noSuchTool");
    expect(gateway.registry.byId(exposed.expositionId)).toBeUndefined();
  });
});
