/**
 * The gateway end to end against a real control plane and a real backend: driven by the
 * official MCP clients (v1 SDK for the 2025 versions, v2 client pinned to 2026-07-28 and in
 * auto mode) and by raw HTTP for everything a client must be refused.
 */

import { gunzipSync } from "node:zlib";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { modernHeaders as modernHeadersOf, modernMeta, type Stack, useStackWithGateway, waitFor } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;
let url: string;

useStackWithGateway((running) => {
  ({ stack, gateway } = running);
  url = `${gateway.url}${stack.mcpPath}`;
});

const keyHeaders = () => ({ "x-atrium-key": stack.apiKey });
/** A modern-era request's headers, with the client API key. */
const modernHeaders = (method: string, name?: string) => modernHeadersOf(method, name, keyHeaders());
const meta = modernMeta();

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string>,
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever came back
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const response = await request(`${gateway.url}${path}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** `tools/call` of `name` with `args`, in the modern era, the client API key sent; `extra` headers beside. */
function callTool(id: number, name: string, args: Record<string, unknown>, extra: Record<string, string> = {}) {
  return post(
    stack.mcpPath,
    { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: meta } },
    { ...modernHeaders("tools/call", name), ...extra },
  );
}

describe("official clients", () => {
  it("v1 SDK (2025-11-25, sessions) lists and calls tools", async () => {
    const client = new V1Client({ name: "v1-test", version: "1.0.0" });
    await client.connect(new V1Transport(new URL(url), { requestInit: { headers: keyHeaders() } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "listPets",
      "createPet",
      "getPet",
      "deletePet",
      "slow",
      "image",
      "echoHeaders",
    ]);
    expect(tools.find((t) => t.name === "getPet")?.annotations).toMatchObject({ readOnlyHint: true });
    const result = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: 1, name: "Rex" });
    await client.close();
  });

  it("v2 client pinned to 2026-07-28 lists and calls tools statelessly", async () => {
    const client = new V2Client(
      { name: "v2-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new V2Transport(new URL(url), { requestInit: { headers: keyHeaders() } }));
    expect(client.getProtocolEra()).toBe("modern");
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    const created = await client.callTool({ name: "createPet", arguments: { body: { name: "Nemo" } } });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ name: "Nemo", status: "available" });
    await client.close();
  });

  it("v2 client in auto mode settles on the modern era", async () => {
    const client = new V2Client({ name: "v2-auto", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new V2Transport(new URL(url), { requestInit: { headers: keyHeaders() } }));
    expect(client.getProtocolEra()).toBe("modern");
    const result = await client.callTool({ name: "listPets", arguments: { status: "sold" } });
    expect(JSON.stringify(result.structuredContent)).toContain("Tom");
    await client.close();
  });
});

describe("tool calls", () => {
  it("returns backend failures as isError results, and a gateway 504 on timeout", async () => {
    const notFound = await callTool(1, "getPet", { petId: 99 });
    expect(notFound.status).toBe(200);
    expect(notFound.body.result.isError).toBe(true);
    expect(JSON.stringify(notFound.body.result.content)).toContain("404");
    const slow = await callTool(2, "slow", {});
    expect(slow.body.result.isError).toBe(true);
    expect(JSON.stringify(slow.body.result.content)).toContain("504");
  });

  it("lists argument violations in an isError result", async () => {
    const invalid = await callTool(3, "getPet", { petId: "abc" });
    expect(invalid.body.result.isError).toBe(true);
    expect(JSON.stringify(invalid.body.result.content)).toContain("petId");
    expect(stack.backend.received.some((r) => r.url.includes("abc"))).toBe(false);
  });

  it("returns images as image content and forwards the allowed headers only", async () => {
    const image = await callTool(4, "image", {});
    expect(image.body.result.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
    const echoed = await callTool(5, "echoHeaders", {}, { "x-request-id": "req-77", "x-secret-header": "nope" });
    const headers = echoed.body.result.structuredContent;
    expect(headers["x-request-id"]).toBe("req-77");
    expect(headers["x-secret-header"]).toBeUndefined();
    expect(headers["x-atrium-key"]).toBeUndefined();
    // Allowed response headers travel in _meta, beside the server info the modern era adds.
    expect(echoed.body.result._meta).toMatchObject({
      "dev.atrium/headers": { "x-ratelimit-remaining": "42" },
      "io.modelcontextprotocol/serverInfo": { name: "atrium-gateway" },
    });
  });
});

describe("tools/list", () => {
  const list = (id: number | string, encoding?: string) =>
    request(url, {
      method: "POST",
      headers: { ...modernHeaders("tools/list"), ...(encoding ? { "accept-encoding": encoding } : {}) },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: meta } }),
    });

  it("is gzip-encoded for clients that accept it, and the same answer either way", async () => {
    const plain = await list(7);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    const identity = JSON.parse(await plain.body.text());
    expect(identity).toMatchObject({ jsonrpc: "2.0", id: 7, result: { resultType: "complete" } });
    expect(identity.result.tools).toHaveLength(7);

    const compressed = await list("req-ü", "br, gzip;q=0.9");
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    const bytes = Buffer.from(await compressed.body.arrayBuffer());
    expect(Number(compressed.headers["content-length"])).toBe(bytes.length);
    expect(JSON.parse(gunzipSync(bytes).toString("utf8"))).toEqual({ ...identity, id: "req-ü" });

    const refused = await list(8, "gzip;q=0, deflate");
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(await refused.body.text()).id).toBe(8);
  });
});

describe("refusals", () => {
  it("401 without or with a wrong API key; 404 for an unknown exposition or organization", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } };
    const { "x-atrium-key": _key, ...noKey } = modernHeaders("tools/list");
    expect((await post(stack.mcpPath, body, noKey)).status).toBe(401);
    expect((await post(stack.mcpPath, body, { ...noKey, "x-atrium-key": "atr_k_wrong" })).status).toBe(401);
    expect((await post("/mcp/00000000-0000-4000-8000-000000000000", body, modernHeaders("tools/list"))).status).toBe(
      404,
    );
    expect((await post("/mcp/nowhere/fixture", body, modernHeaders("tools/list"))).status).toBe(404);
    expect((await post("/mcp/default/fixture", body, modernHeaders("tools/list"))).status).toBe(200);
  });

  it("answers malformed, oversized and mistyped bodies with the right status, never 500", async () => {
    const headers = modernHeaders("tools/list");
    const malformed = await post(stack.mcpPath, "{not json", headers);
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    const mistyped = await post(stack.mcpPath, "{}", { ...headers, "content-type": "text/plain" });
    expect(mistyped.status).toBe(415);
    const huge = await post(
      stack.mcpPath,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(100_000) } },
      headers,
    );
    expect(huge.status).toBe(413);
    const notRpc = await post(stack.mcpPath, { hello: "world" }, headers);
    expect(notRpc.status).toBe(400);
  });

  it("checks 2026-07-28 headers against the body", async () => {
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: meta } };
    const mismatch = await post(stack.mcpPath, list, modernHeaders("tools/call"));
    expect(mismatch).toMatchObject({ status: 400, body: { id: 7, error: { code: -32020 } } });
    const call = {
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: { name: "getPet", arguments: { petId: 1 }, _meta: meta },
    };
    expect((await post(stack.mcpPath, call, modernHeaders("tools/call", "listPets"))).body.error.code).toBe(-32020);
    expect((await post(stack.mcpPath, call, modernHeaders("tools/call", "  getPet  "))).status).toBe(200);
    const oldMeta = { ...meta, "io.modelcontextprotocol/protocolVersion": "1900-01-01" };
    const unsupported = await post(
      stack.mcpPath,
      { ...list, params: { _meta: oldMeta } },
      { ...modernHeaders("tools/list"), "mcp-protocol-version": "1900-01-01" },
    );
    expect(unsupported).toMatchObject({
      status: 400,
      body: { error: { code: -32022, data: { requested: "1900-01-01" } } },
    });
    const noMeta = await post(stack.mcpPath, { ...list, params: {} }, modernHeaders("tools/list"));
    expect(noMeta).toMatchObject({ status: 400, body: { error: { code: -32602 } } });
    const unknownMethod = await post(
      stack.mcpPath,
      { jsonrpc: "2.0", id: 9, method: "nothing/here", params: { _meta: meta } },
      modernHeaders("nothing/here"),
    );
    expect(unknownMethod).toMatchObject({ status: 404, body: { error: { code: -32601 } } });
    const unknownTool = await post(
      stack.mcpPath,
      { ...call, params: { ...call.params, name: "nope" } },
      modernHeaders("tools/call", "nope"),
    );
    expect(unknownTool.body.error.code).toBe(-32602);
    const discover = await post(
      stack.mcpPath,
      { jsonrpc: "2.0", id: 10, method: "server/discover", params: { _meta: meta } },
      modernHeaders("server/discover"),
    );
    expect(discover.body.result.supportedVersions).toContain("2026-07-28");
    const get = await request(`${gateway.url}${stack.mcpPath}`, { method: "GET", headers: keyHeaders() });
    expect(get.statusCode).toBe(405);
    await get.body.dump();
  });

  it("needs a session in the 2025 era, refuses unknown or ended ones, and batches only in 2025-03-26", async () => {
    const legacy = (version: string, session?: string) => ({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": version,
      ...(session ? { "mcp-session-id": session } : {}),
      ...keyHeaders(),
    });
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect((await post(stack.mcpPath, list, legacy("2025-06-18"))).status).toBe(400);
    expect((await post(stack.mcpPath, list, legacy("2025-06-18", "forged.session"))).status).toBe(404);

    const init = (version: string) =>
      post(
        stack.mcpPath,
        {
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        },
        legacy(version),
      );
    const modern = await init("2025-06-18");
    const session = String(modern.headers["mcp-session-id"]);
    expect(modern.body.result.protocolVersion).toBe("2025-06-18");
    expect((await post(stack.mcpPath, list, legacy("2025-06-18", session))).status).toBe(200);
    expect((await post(stack.mcpPath, [list, { ...list, id: 2 }], legacy("2025-06-18", session))).status).toBe(400);

    const old = await init("2025-03-26");
    const oldSession = String(old.headers["mcp-session-id"]);
    const batch = await post(
      stack.mcpPath,
      [list, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...list, id: 2 }],
      legacy("2025-03-26", oldSession),
    );
    expect(batch.status).toBe(200);
    expect(batch.body.map((r: { id: number }) => r.id)).toEqual([1, 2]);

    const ended = await request(`${gateway.url}${stack.mcpPath}`, {
      method: "DELETE",
      headers: legacy("2025-06-18", session),
    });
    expect(ended.statusCode).toBe(200);
    await ended.body.dump();
    expect((await post(stack.mcpPath, list, legacy("2025-06-18", session))).status).toBe(404);
  });
});

describe("sync", () => {
  it("serves a 2025 session created on one replica from another replica of the group", async () => {
    const other = await stack.startGateway();
    const client = new V1Client({ name: "roaming", version: "1" });
    const transport = new V1Transport(new URL(url), { requestInit: { headers: keyHeaders() } });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    expect(sessionId).toBeTruthy();
    const onOther = await request(`${other.url}${stack.mcpPath}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": String(sessionId),
        "mcp-protocol-version": "2025-11-25",
        ...keyHeaders(),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }),
    });
    expect(onOther.statusCode).toBe(200);
    expect(((await onOther.body.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(7);
    await client.close();
  });

  it("takes a renewed API key without restart and refuses the old one as soon as the change arrives", async () => {
    const renewed = await stack.controlPlane.admin.call(
      "POST",
      `/api/v1/configuration-plans/${stack.planId}/renew-api-key`,
    );
    const oldKey = stack.apiKey;
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } };
    const headersWith = (key: string) => ({ ...modernHeaders("tools/list"), "x-atrium-key": key });
    await waitFor(async () => (await post(stack.mcpPath, body, headersWith(oldKey))).status === 401, "old key refused");
    expect((await post(stack.mcpPath, body, headersWith(renewed.body.apiKey))).status).toBe(200);
    stack.apiKey = renewed.body.apiKey;
  });

  it("keeps serving while the control plane is down, and after its own restart from the cache", async () => {
    const config = stack.gatewayConfig({ id: "gw-cache" });
    const first = await stack.startGateway(config);
    await first.close();
    await stack.controlPlane.close(); // the control plane is gone from here on
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } };
    expect((await post(stack.mcpPath, body, modernHeaders("tools/list"))).status).toBe(200);

    const { startGateway } = await import("./gateway.ts");
    const restarted = await startGateway(config);
    try {
      expect(restarted.registry.size).toBe(1);
      expect(restarted.sync.ready).toBe(false);
      const response = await request(`${restarted.url}${stack.mcpPath}`, {
        method: "POST",
        headers: modernHeaders("tools/list"),
        body: JSON.stringify(body),
      });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
      const ready = await request(`${restarted.url}/q/health/ready`);
      expect(ready.statusCode).toBe(503);
      await ready.body.dump();
    } finally {
      await restarted.close();
    }
  });

  it("exports Prometheus metrics per exposition and tool, on the management listener only", async () => {
    const metrics = await request(`${managementUrl(gateway.app)}/q/metrics`);
    const text = await metrics.body.text();
    expect(text).toContain(
      `atrium_mcp_requests_total{exposition="${stack.expositionId}",method="tools/call",status="200"}`,
    );
    expect(text).toMatch(/atrium_backend_responses_total\{exposition="[^"]+",tool="getPet",outcome="404"\} \d+/);
  });
});
