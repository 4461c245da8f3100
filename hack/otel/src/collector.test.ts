/**
 * Starts the real collector and sends it spans with the official OpenTelemetry JS SDK and OTLP
 * exporters (HTTP and gRPC), then reads them back from the file exporter's output: trace and span
 * ids, parent, name, kind, status, typed attributes, events and the resource. A clean stop closes
 * both ports and removes the temp dir.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { portAccepts } from "@atrium/kube-testenv";
import { context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter as OTLPGrpcTraceExporter } from "@opentelemetry/exporter-trace-otlp-grpc";
import { OTLPTraceExporter as OTLPHttpTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { SimpleSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CollectedSpan, startCollector, type TestCollector } from "./index.ts";

/** Runs `work` with a tracer exporting through `exporter`, then flushes and shuts the SDK down. */
async function withTracer(exporter: SpanExporter, work: (tracer: ReturnType<TracerProvider["getTracer"]>) => void) {
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  try {
    work(provider.getTracer("atrium-test-collector", "1.2.3"));
    await provider.forceFlush();
  } finally {
    await provider.shutdown();
  }
}

describe("test collector", () => {
  let collector: TestCollector;

  beforeAll(async () => {
    collector = await startCollector();
  }, 240_000); // a cold cache builds the collector first (minutes on 2 cores)

  afterAll(async () => {
    await collector?.stop();
  }, 30_000);

  it("receives spans over OTLP/HTTP and writes them to its file", async () => {
    // One of each OTLP value type the SDK writes: string, int, double, bool, array.
    const serverAttributes = {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "get_weather",
      "jsonrpc.request.id": "7",
      "rpc.response.status_code": 0,
      "test.ratio": 0.25,
      "test.flag": false,
      "test.list": ["a", "b"],
    };
    let parent: Span | undefined;
    let child: Span | undefined;
    await withTracer(new OTLPHttpTraceExporter({ url: collector.otlpHttpTracesUrl }), (tracer) => {
      parent = tracer.startSpan("tools/call get_weather", { kind: SpanKind.SERVER, attributes: serverAttributes });
      child = tracer.startSpan(
        "GET",
        { kind: SpanKind.CLIENT, attributes: { "http.response.status_code": 503 } },
        trace.setSpan(context.active(), parent),
      );
      child.addEvent("retry", { attempt: 2 });
      child.setStatus({ code: SpanStatusCode.ERROR, message: "backend unavailable" });
      child.end();
      parent.end();
    });
    const sent = { parent: parent?.spanContext(), child: child?.spanContext() };
    const ofTrace = (spans: CollectedSpan[]) => spans.filter((span) => span.traceId === sent.parent?.traceId);
    const inTrace = ofTrace(await collector.waitForSpans((found) => ofTrace(found).length >= 2));
    expect(inTrace).toHaveLength(2);

    const server = inTrace.find((span) => span.spanId === sent.parent?.spanId);
    expect(server).toMatchObject({
      name: "tools/call get_weather",
      kind: 2,
      attributes: serverAttributes,
      scope: { name: "atrium-test-collector", version: "1.2.3" },
    });
    expect(server?.parentSpanId).toBeUndefined();
    expect(server?.resource["service.name"]).toEqual(expect.stringMatching(/^unknown_service/));
    expect(server?.endTimeUnixNano).toBeGreaterThan(server?.startTimeUnixNano ?? 0n);

    const client = inTrace.find((span) => span.spanId === sent.child?.spanId);
    expect(client).toMatchObject({
      name: "GET",
      kind: 3,
      parentSpanId: sent.parent?.spanId,
      attributes: { "http.response.status_code": 503 },
      status: { code: 2, message: "backend unavailable" },
      events: [{ name: "retry", attributes: { attempt: 2 } }],
    });
  });

  it("receives spans over OTLP/gRPC too", async () => {
    let sent: Span | undefined;
    await withTracer(new OTLPGrpcTraceExporter({ url: collector.otlpGrpcEndpoint }), (tracer) => {
      sent = tracer.startSpan("over grpc", { attributes: { "test.protocol": "grpc" } });
      sent.end();
    });
    const traceId = sent?.spanContext().traceId;
    const spans = await collector.waitForSpans((found) => found.some((span) => span.traceId === traceId));
    expect(spans.find((span) => span.traceId === traceId)).toMatchObject({
      name: "over grpc",
      spanId: sent?.spanContext().spanId,
      attributes: { "test.protocol": "grpc" },
    });
  });

  it("stops idempotently, closes both ports and removes its temp dir", async () => {
    const ports = [collector.otlpHttpEndpoint, collector.otlpGrpcEndpoint].map((url) => Number(new URL(url).port));
    for (const port of ports) expect(await portAccepts(port)).toBe(true);
    const dir = dirname(collector.files.traces);
    expect(existsSync(dir)).toBe(true);
    await Promise.all([collector.stop(), collector.stop()]);
    for (const port of ports) expect(await portAccepts(port)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });
});
