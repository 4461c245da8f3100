/**
 * Tracing at a sampling ratio (issue 24), against a real OpenTelemetry Collector: a call that
 * starts a trace is sampled before the SDK is asked (root-sampling.ts), so this checks that the
 * gateway's decision and the SDK's agree. Every call's backend gets a traceparent; the calls it
 * got flagged sampled are exactly those whose spans reach the collector, each with its backend
 * call's span. A dropped call to an OAuth endpoint leaves no span of its token check, a kept one
 * has it under its server span, and each call's audit event names the trace its backend got. And
 * the client's baggage in `_meta` goes on to the backend only when the plan forwards `baggage`.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestCollector } from "@atrium/test-collector";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./auth/testing.ts";
import { connectModernClient, modernRequest, type Stack, startStack, startTracedProcess, waitFor } from "./testing.ts";

let collector: TestCollector;
let traced: Awaited<ReturnType<typeof startTracedProcess>>;
let stack: Stack;
let url: string;
const forwarding = { url: "", apiKey: "" };
let as: TestAuthorizationServer;
let oauthUrl: string;
let oauthExpositionId: string;
let auditDir: string;

beforeAll(async () => {
  traced = await startTracedProcess("atrium-gateway", {
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: "0.5",
  });
  collector = traced.collector;
  stack = await startStack();
  const baggage = await stack.expose("fixture-baggage", {
    plan: { apiKey: true, headerPolicy: { forwardRequestHeaders: ["baggage"] } },
  });
  as = await startAuthorizationServer();
  const oauth = await stack.expose("fixture-oauth", {
    plan: { oauth: { issuer: as.issuer, jwksUri: as.jwksUri }, audit: true },
  });
  oauthExpositionId = oauth.expositionId;
  auditDir = mkdtempSync(join(tmpdir(), "atrium-tracing-ratio-"));
  const gateway = await stack.startGateway({ auditFile: join(auditDir, "audit.jsonl") });
  oauthUrl = `${gateway.url}/mcp/${oauth.expositionId}`;
  for (const id of [stack.expositionId, baggage.expositionId, oauth.expositionId])
    await waitFor(() => gateway.registry.byId(id) !== undefined, `exposition ${id} served`);
  url = `${gateway.url}${stack.mcpPath}`;
  forwarding.url = `${gateway.url}/mcp/${baggage.expositionId}`;
  forwarding.apiKey = baggage.apiKey ?? "";
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await as?.close();
  await traced?.stop();
  if (auditDir) rmSync(auditDir, { recursive: true, force: true });
});

const SERVER = 2;
const CLIENT = 3;
const BACKEND_TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-(0[01])$/;

/**
 * The traces of the `calls` backend requests after the `seen` first, as the backend got them
 * (both kinds there: at 0.5, 40 calls all one way has a chance of 2⁻³⁹), and the collected spans
 * once every sampled one's backend span has arrived. No span of a dropped trace is recorded.
 */
async function tracesSince(seen: number, calls: number) {
  const sent = stack.backend.received.slice(seen).map((received) => {
    const match = BACKEND_TRACEPARENT.exec(String(received.headers.traceparent));
    if (!match) throw new Error(`the backend got traceparent ${received.headers.traceparent}`);
    return { traceId: String(match[1]), sampled: match[2] === "01" };
  });
  expect(sent).toHaveLength(calls);
  // One trace per call.
  expect(new Set(sent.map((call) => call.traceId)).size).toBe(calls);
  const sampled = sent.filter((call) => call.sampled).map((call) => call.traceId);
  const dropped = sent.filter((call) => !call.sampled).map((call) => call.traceId);
  expect(sampled.length).toBeGreaterThan(0);
  expect(dropped.length).toBeGreaterThan(0);
  const spans = await collector.waitForSpans((found) => {
    const ids = new Set(found.filter((span) => span.kind === CLIENT).map((span) => span.traceId));
    return sampled.every((traceId) => ids.has(traceId));
  }, 20_000);
  const recorded = new Set(spans.map((span) => span.traceId));
  expect(dropped.filter((traceId) => recorded.has(traceId))).toEqual([]);
  const serverSpanOf = (traceId: string) => spans.find((span) => span.traceId === traceId && span.kind === SERVER);
  return { sent, sampled, spans, serverSpanOf };
}

/** The trace ids the audit events of the OAuth Exposition's tool calls name, in order. */
function auditedTraceIds(): string[] {
  return readFileSync(join(auditDir, "audit.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes('"action":"tool_call"'))
    .map((line) => JSON.parse(line))
    .filter((event) => event.atrium.exposition.id === oauthExpositionId)
    .map((event) => String(event.trace.id));
}

describe("tracing at a sampling ratio", () => {
  it("records exactly the calls whose trace it sent on sampled, each with its backend call", async () => {
    const calls = 40;
    const client = await connectModernClient(url, stack.apiKey);
    const seen = stack.backend.received.length;
    try {
      for (let call = 0; call < calls; call++) {
        const result = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await client.close();
    }
    const { sampled, spans, serverSpanOf } = await tracesSince(seen, calls);
    for (const traceId of sampled) {
      const server = serverSpanOf(traceId);
      expect(server?.name).toBe("tools/call getPet");
      // A root: the trace began at the gateway, with the id the backend got.
      expect(server?.parentSpanId).toBeUndefined();
      const backend = spans.find((span) => span.traceId === traceId && span.kind === CLIENT);
      expect(backend?.parentSpanId).toBe(server?.spanId);
    }
  });

  it("checks a kept call's token in a span under its server span, and a dropped call's in none; audits each call's trace", async () => {
    const token = await as.clientCredentials(oauthUrl);
    const seen = stack.backend.received.length;
    const calls = 40;
    for (let call = 0; call < calls; call++) {
      const answer = await request(
        oauthUrl,
        modernRequest(
          "tools/call",
          { name: "getPet", arguments: { petId: 1 } },
          {
            headers: { authorization: `Bearer ${token}` },
          },
        ),
      );
      expect(answer.statusCode).toBe(200);
      await answer.body.text();
    }
    const { sent, sampled, spans, serverSpanOf } = await tracesSince(seen, calls);
    // Sampled or dropped, the call's audit event names the trace its backend got.
    await waitFor(() => auditedTraceIds().length >= calls, "the calls' audit events");
    expect(auditedTraceIds()).toEqual(sent.map((call) => call.traceId));
    for (const traceId of sampled) {
      const check = spans.find((span) => span.traceId === traceId && span.name === "verify access token");
      expect(check?.parentSpanId).toBe(serverSpanOf(traceId)?.spanId);
    }
    // Nor did a dropped call's check become a trace of its own.
    expect(spans.filter((span) => span.name === "verify access token" && !span.parentSpanId)).toEqual([]);
  });

  it("passes the baggage in a client's _meta on to a backend whose plan forwards baggage, and only there", async () => {
    const traceId = randomBytes(16).toString("hex");
    const traceparent = `00-${traceId}-${randomBytes(8).toString("hex")}-01`;
    const seen = stack.backend.received.length;
    for (const target of [forwarding, { url, apiKey: stack.apiKey }]) {
      const client = await connectModernClient(target.url, target.apiKey);
      try {
        const _meta = { traceparent, baggage: "tenant=acme" };
        expect((await client.callTool({ name: "getPet", arguments: { petId: 1 }, _meta })).isError).toBeFalsy();
      } finally {
        await client.close();
      }
    }
    const [forwarded, kept] = stack.backend.received.slice(seen);
    expect(forwarded?.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(forwarded?.headers.baggage).toBe("tenant=acme");
    // The stack's own plan forwards no baggage: it stays at the gateway.
    expect(kept?.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(kept?.headers.baggage).toBeUndefined();
  });
});
