/**
 * Traces end to end (issue 24), against a real OpenTelemetry Collector (built from its Go
 * modules) that the gateway exports to over OTLP/HTTP, as it would with OTEL_EXPORTER_OTLP_ENDPOINT
 * set: a tool call whose client put a `traceparent` in `_meta` (v2, 2026-07-28) and one whose
 * client sent the header (v1, in a 2025 session) each give one trace — the client's parent, the
 * gateway's server span, the backend call's client span — and the fixture backend receives that
 * trace's context. Outcomes are kept apart (HTTP status, JSON-RPC error, isError); log lines
 * written within a request carry its ids; no span carries an argument value, a key or a token.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { expose, storeSdl } from "@atrium/control-plane/testing";
import { testLogFile } from "@atrium/reliability/secrets";
import type { CollectedSpan, TestCollector } from "@atrium/test-collector";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createHandler } from "graphql-http/lib/use/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GrpcPetstore, PETSTORE_PROTO, startGrpcPetstore } from "./grpc/testing.ts";
import { connectModernClient, listenLocally, type Stack, startStack, startTracedProcess, waitFor } from "./testing.ts";

// graphql-http loads graphql as Node resolves it (CommonJS): the schema must come from that copy.
const { buildSchema } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

let collector: TestCollector;
let traced: Awaited<ReturnType<typeof startTracedProcess>>;
let stack: Stack;
let url: string;
let logFile: string;
let grpcBackend: GrpcPetstore;
let graphqlBackend: Awaited<ReturnType<typeof listenLocally>> & { traceparents: (string | undefined)[] };
const other = { grpc: "", graphql: "" };

beforeAll(async () => {
  traced = await startTracedProcess();
  collector = traced.collector;
  stack = await startStack();
  // In the run dir, where the secrets scan reads it (and the collector's files) at the end of the run.
  const inRunDir = testLogFile("gateway-traced");
  if (!inRunDir) throw new Error("run with the root vitest config: its global setup makes the run dir");
  logFile = inRunDir;
  grpcBackend = await startGrpcPetstore();
  graphqlBackend = await startGraphqlBackend();
  const admin = stack.controlPlane.admin;
  const grpc = await expose(admin, "pets-grpc", {
    groupId: stack.groupId,
    service: { kind: "grpc", openapi: { protoFiles: [{ path: "petstore/v1/pets.proto", content: PETSTORE_PROTO }] } },
    plan: { backendEndpoint: grpcBackend.url, apiKey: true },
  });
  const graphql = await expose(admin, "store-graphql", {
    groupId: stack.groupId,
    service: { kind: "graphql", openapi: { inline: storeSdl } },
    plan: { backendEndpoint: `${graphqlBackend.url}/graphql`, apiKey: true },
  });
  const gateway = await stack.startGateway({ logFile, logLevel: "info" });
  for (const id of [stack.expositionId, grpc.expositionId, graphql.expositionId])
    await waitFor(() => gateway.registry.byId(id) !== undefined, `exposition ${id} served`);
  url = `${gateway.url}${stack.mcpPath}`;
  other.grpc = `${gateway.url}/mcp/${grpc.expositionId}`;
  other.graphql = `${gateway.url}/mcp/${graphql.expositionId}`;
  keys.grpc = grpc.apiKey ?? "";
  keys.graphql = graphql.apiKey ?? "";
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await grpcBackend?.close();
  await graphqlBackend?.close();
  await traced?.stop();
});

const keys = { grpc: "", graphql: "" };

/** A GraphQL store (graphql-http) recording the traceparent of each request. */
async function startGraphqlBackend() {
  const product = (id: string) => ({
    id,
    name: "Dune",
    price: 9.5,
    category: "BOOKS",
    createdAt: "2024-05-01T10:00:00Z",
    reviews: [],
  });
  const rootValue = { product: ({ id }: { id: string }) => product(id) };
  const handler = createHandler({ schema: buildSchema(storeSdl), rootValue });
  const traceparents: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    traceparents.push(req.headers.traceparent as string | undefined);
    handler(req, res);
  });
  return { ...(await listenLocally(server)), traceparents };
}

/** OTLP's span kinds and error status code. */
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const CLIENT_TRACE = randomBytes(16).toString("hex");
const clientSpan = () => randomBytes(8).toString("hex");
const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;

/** The spans of one trace once its server span and `count` spans in all have arrived. */
async function traceOf(traceId: string, count: number): Promise<CollectedSpan[]> {
  const spans = await collector.waitForSpans(
    (found) => found.filter((span) => span.traceId === traceId).length >= count,
    20_000,
  );
  return spans.filter((span) => span.traceId === traceId);
}

const serverSpanOf = (spans: CollectedSpan[]) =>
  spans.find((span) => span.kind === SERVER && span.name.startsWith("tools/"));
const backendSpanOf = (spans: CollectedSpan[], server: CollectedSpan) =>
  spans.find((span) => span.kind === CLIENT && span.parentSpanId === server.spanId);

describe("tracing through the gateway", () => {
  it("continues a traceparent given in _meta (v2, 2026-07-28) to the backend in one trace", async () => {
    const parent = clientSpan();
    const client = await connectModernClient(url, stack.apiKey);
    try {
      const result = await client.callTool({
        name: "getPet",
        arguments: { petId: 1 },
        _meta: { traceparent: traceparent(CLIENT_TRACE, parent), tracestate: "vendor=abc" },
      });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const spans = await traceOf(CLIENT_TRACE, 2);
    const server = serverSpanOf(spans);
    expect(server).toMatchObject({
      name: "tools/call getPet",
      parentSpanId: parent,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "getPet",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": "2026-07-28",
        "atrium.mcp.era": "modern",
        "atrium.exposition.id": stack.expositionId,
        "http.response.status_code": 200,
      },
    });
    expect(server?.attributes["jsonrpc.request.id"]).toBeTypeOf("string");
    expect(server?.attributes["error.type"]).toBeUndefined();
    const backend = server && backendSpanOf(spans, server);
    expect(backend).toMatchObject({
      name: "GET /api/pets/{petId}",
      attributes: {
        "http.request.method": "GET",
        "url.template": "/api/pets/{petId}",
        "server.address": "127.0.0.1",
        "http.response.status_code": 200,
      },
    });
    // The backend got the backend span's context, and the client's tracestate with it.
    const received = stack.backend.received.findLast((request) => request.url === "/api/pets/1");
    expect(received?.headers.traceparent).toBe(traceparent(CLIENT_TRACE, backend?.spanId ?? "?"));
    expect(received?.headers.tracestate).toBe("vendor=abc");
  });

  it("passes a client's unsampled trace on to the backend, unsampled, and records none of it", async () => {
    const unsampled = randomBytes(16).toString("hex");
    const sampled = randomBytes(16).toString("hex");
    const client = await connectModernClient(url, stack.apiKey);
    try {
      for (const [traceId, petId, flags] of [
        [unsampled, 1, "00"],
        [sampled, 2, "01"],
      ] as const) {
        const _meta = { traceparent: `00-${traceId}-${clientSpan()}-${flags}` };
        const result = await client.callTool({ name: "getPet", arguments: { petId }, _meta });
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await client.close();
    }
    // The backend learns the trace it is part of, flagged unsampled (W3C: passed on all the same).
    const received = stack.backend.received.findLast((request) => request.url === "/api/pets/1");
    expect(received?.headers.traceparent).toMatch(new RegExp(`^00-${unsampled}-[0-9a-f]{16}-00$`));
    // Exported after it, the sampled call's spans are there; none of the unsampled one's.
    const spans = await collector.waitForSpans((found) => found.filter((s) => s.traceId === sampled).length >= 2);
    expect(spans.filter((span) => span.traceId === unsampled)).toEqual([]);
  });

  it("continues the traceparent header of a 2025 session (v1), one trace per call", async () => {
    const traceId = randomBytes(16).toString("hex");
    const parent = clientSpan();
    const client = new LegacyClient({ name: "traced", version: "1" });
    const headers = { "x-atrium-key": stack.apiKey, traceparent: traceparent(traceId, parent), baggage: "user=ann" };
    await client.connect(new LegacyTransport(new URL(url), { requestInit: { headers } }));
    try {
      await client.callTool({ name: "getPet", arguments: { petId: 2 } });
    } finally {
      await client.close();
    }
    const spans = await traceOf(traceId, 3);
    const server = serverSpanOf(spans);
    expect(server).toMatchObject({
      name: "tools/call getPet",
      parentSpanId: parent,
      attributes: { "atrium.mcp.era": "legacy", "mcp.protocol.version": "2025-11-25" },
    });
    // A hash of the session id, never the id itself.
    expect(server?.attributes["mcp.session.id"]).toMatch(/^[0-9a-f]{32}$/);
    // initialize is a span of the same trace (the client sent the header on every request).
    expect(spans.some((span) => span.name === "initialize" && span.parentSpanId === parent)).toBe(true);
    const received = stack.backend.received.findLast((request) => request.url === "/api/pets/2");
    expect(received?.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // The plan forwards no baggage header: the client's baggage stays at the gateway.
    expect(received?.headers.baggage).toBeUndefined();
  });

  it("keeps a tool's isError, a JSON-RPC error and the HTTP status apart", async () => {
    const toolError = randomBytes(16).toString("hex");
    const rpcError = randomBytes(16).toString("hex");
    const client = await connectModernClient(url, stack.apiKey);
    try {
      const missing = await client.callTool({
        name: "getPet",
        arguments: { petId: 404 },
        _meta: { traceparent: traceparent(toolError, clientSpan()) },
      });
      expect(missing.isError).toBe(true);
      await expect(
        client.callTool({
          name: "noSuchTool",
          arguments: {},
          _meta: { traceparent: traceparent(rpcError, clientSpan()) },
        }),
      ).rejects.toThrow();
    } finally {
      await client.close();
    }
    const failedTool = await traceOf(toolError, 2);
    const server = serverSpanOf(failedTool);
    expect(server?.attributes).toMatchObject({
      "error.type": "tool_error",
      "atrium.tool.is_error": true,
      "http.response.status_code": 200,
    });
    expect(server?.status.code).toBe(ERROR);
    expect(server && backendSpanOf(failedTool, server)?.attributes).toMatchObject({
      "http.response.status_code": 404,
      "error.type": "404",
    });
    const [unknown] = await traceOf(rpcError, 1);
    // An unknown tool's name never becomes a span name.
    expect(unknown).toMatchObject({ name: "tools/call", attributes: { "rpc.response.status_code": "-32602" } });
    expect(unknown?.attributes["gen_ai.tool.name"]).toBeUndefined();
    expect(unknown?.status.code).toBe(ERROR);
  });

  it("stamps the request's trace and span ids on log lines written within it", async () => {
    const traceId = randomBytes(16).toString("hex");
    const unreachable = await stack.expose("unreachable", { plan: { backendEndpoint: "http://127.0.0.1:9/api" } });
    const target = url.replace(stack.expositionId, unreachable.expositionId);
    await waitFor(async () => {
      const client = await connectModernClient(target, unreachable.apiKey ?? "").catch(() => undefined);
      if (!client) return false;
      try {
        const result = await client.callTool({
          name: "getPet",
          arguments: { petId: 1 },
          _meta: { traceparent: traceparent(traceId, clientSpan()) },
        });
        return result.isError === true;
      } finally {
        await client.close();
      }
    }, "a call to the unreachable backend");
    const [server] = (await traceOf(traceId, 2)).filter((span) => span.kind === SERVER);
    const lines = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("backend unreachable"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((line) => line.trace_id === traceId && line.span_id === server?.spanId)).toBe(true);
  });

  it("puts no argument value, key or token in any span", async () => {
    const name = `Zanzibar-${randomBytes(6).toString("hex")}`;
    const traceId = randomBytes(16).toString("hex");
    const client = await connectModernClient(url, stack.apiKey);
    try {
      await client.callTool({
        name: "createPet",
        arguments: { body: { name } },
        _meta: { traceparent: traceparent(traceId, clientSpan()) },
      });
    } finally {
      await client.close();
    }
    await traceOf(traceId, 2);
    const everything = JSON.stringify(await collector.spans(), (_key, value) =>
      typeof value === "bigint" ? String(value) : value,
    );
    expect(everything).toContain("createPet");
    for (const secret of [name, stack.apiKey, stack.token]) expect(everything).not.toContain(secret);
  });

  it("traces a gRPC call as an RPC client span, its context in the call's metadata", async () => {
    const ok = randomBytes(16).toString("hex");
    const missing = randomBytes(16).toString("hex");
    const client = await connectModernClient(other.grpc, keys.grpc);
    try {
      const { tools } = await client.listTools();
      const getPet = tools.find((tool) => tool.name.toLowerCase().includes("getpet"))?.name ?? "GetPet";
      for (const [traceId, id] of [
        [ok, "1"],
        [missing, "404"],
      ] as const)
        await client.callTool({
          name: getPet,
          arguments: { id },
          _meta: { traceparent: traceparent(traceId, clientSpan()) },
        });
    } finally {
      await client.close();
    }
    const spans = await traceOf(ok, 2);
    const backend = spans.find((span) => span.kind === CLIENT);
    expect(backend).toMatchObject({
      name: "petstore.v1.PetService/GetPet",
      attributes: {
        "rpc.system.name": "grpc",
        "rpc.method": "petstore.v1.PetService/GetPet",
        "rpc.response.status_code": "OK",
      },
    });
    const metadata = grpcBackend.received.map((call) => call.metadata.traceparent);
    expect(metadata).toContain(traceparent(ok, backend?.spanId ?? "?"));
    const notFound = (await traceOf(missing, 2)).find((span) => span.kind === CLIENT);
    expect(notFound?.attributes).toMatchObject({ "rpc.response.status_code": "NOT_FOUND", "error.type": "NOT_FOUND" });
    expect(notFound?.status.code).toBe(ERROR);
  });

  it("traces a GraphQL call as an HTTP client span naming its operation", async () => {
    const traceId = randomBytes(16).toString("hex");
    const client = await connectModernClient(other.graphql, keys.graphql);
    try {
      const result = await client.callTool({
        name: "product",
        arguments: { id: "p1" },
        _meta: { traceparent: traceparent(traceId, clientSpan()) },
      });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    const backend = (await traceOf(traceId, 2)).find((span) => span.kind === CLIENT);
    expect(backend).toMatchObject({
      name: "POST /graphql",
      attributes: {
        "http.request.method": "POST",
        "graphql.operation.type": "query",
        "http.response.status_code": 200,
      },
    });
    expect(backend?.attributes["graphql.operation.name"]).toBeTypeOf("string");
    expect(graphqlBackend.traceparents).toContain(traceparent(traceId, backend?.spanId ?? "?"));
  });
});
