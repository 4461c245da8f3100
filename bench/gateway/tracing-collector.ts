/**
 * Tracing in the hot-path benchmark (issue 24): the real OpenTelemetry Collector the traced
 * gateways export to over OTLP/HTTP (@atrium/test-collector, built once by hack/otel/build.sh),
 * started on first use on the harness core; the environment that turns a gateway's tracing on at
 * a sampling ratio; and the check, before any load, that the collector really receives that
 * gateway's spans at that ratio — a contestant tracing nothing would measure nothing.
 */
import { type CollectedSpan, startCollector, type TestCollector } from "@atrium/test-collector";
import { adoptChild, HARNESS_CORE } from "./processes.ts";

/** The collector, started when a traced contestant first needs it (a run without one starts none). */
export class BenchCollector {
  private started: Promise<TestCollector> | undefined;

  get(): Promise<TestCollector> {
    this.started ??= startCollector().then((collector) => {
      // Spawned by the collector package, not startPinned: pinned here, and counted as ours.
      adoptChild("otelcol", HARNESS_CORE);
      return collector;
    });
    return this.started;
  }

  async stop(): Promise<void> {
    await (await this.started?.catch(() => undefined))?.stop();
  }
}

/** A gateway's environment without tracing, whatever the shell running the benchmark has set. */
export const TRACING_OFF: Record<string, string> = {
  OTEL_EXPORTER_OTLP_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
};

/**
 * A gateway's environment with tracing on: OTLP/HTTP to `collector`, the sampler operators are
 * told to use (parent-based, trace-id ratio), and `instance` as service.instance.id so this
 * gateway's spans are told apart from another traced contestant's.
 */
export function tracingEnv(collector: TestCollector, ratio: number, instance: string): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlpHttpEndpoint,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: String(ratio),
    OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${instance}`,
  };
}

/** Server spans of `instance`'s tool calls, each with its backend call's client span as a child. */
function tracedCalls(spans: CollectedSpan[], instance: string): { server: number; withBackend: number } {
  const own = spans.filter((span) => span.resource["service.instance.id"] === instance);
  const servers = own.filter((span) => span.kind === 2 && span.name.startsWith("tools/call "));
  const clientParents = new Set(own.filter((span) => span.kind === 3).map((span) => span.parentSpanId));
  return { server: servers.length, withBackend: servers.filter((span) => clientParents.has(span.spanId)).length };
}

/** Calls checked for a ratio under 1: at 1 %, none sampled among 1,000 has a chance of 0.004 %. */
const CALLS_AT_RATIO = 1_000;
const CALLS_AT_FULL = 20;
// The SDK's batch processor exports every 5 s by default (kept: it is what a gateway runs with).
const EXPORT_WAIT_MS = 20_000;

/**
 * Makes calls with `call` (8 at a time) and checks what reached the collector: at ratio 1 every
 * call's server span and its backend call's client span; below 1, at least one sampled call
 * (both spans) and not more than three times the expected share of them.
 */
export async function checkTraced(
  collector: TestCollector,
  instance: string,
  ratio: number,
  call: () => Promise<void>,
): Promise<void> {
  const before = tracedCalls(await collector.spans(), instance);
  const calls = ratio >= 1 ? CALLS_AT_FULL : CALLS_AT_RATIO;
  for (let done = 0; done < calls; done += 8) {
    await Promise.all(Array.from({ length: Math.min(8, calls - done) }, call));
  }
  const expected = ratio >= 1 ? calls : 1;
  const spans = await collector
    .waitForSpans((found) => tracedCalls(found, instance).withBackend - before.withBackend >= expected, EXPORT_WAIT_MS)
    .catch(async () => collector.spans());
  const after = tracedCalls(spans, instance);
  const server = after.server - before.server;
  const withBackend = after.withBackend - before.withBackend;
  if (withBackend < expected)
    throw new Error(
      `tracing at ${ratio}: ${calls} calls gave the collector ${server} server span(s), ${withBackend} with the backend call's span (expected at least ${expected})`,
    );
  if (ratio < 1 && server > calls * ratio * 3)
    throw new Error(`tracing at ${ratio}: ${server} of ${calls} calls sampled, far more than the ratio`);
}
