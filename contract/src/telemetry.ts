/**
 * OpenTelemetry tracing for Atrium's servers (gateway, control plane, operator). The code makes
 * its spans with `@opentelemetry/api`; the SDK (`@opentelemetry/sdk-node`, OTLP exporters) is
 * loaded only when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and then honours the standard `OTEL_*` variables:
 * protocol, headers, sampler, resource attributes, service name.
 *
 * With nothing set, `tracing()` is undefined and hot paths test that and nothing else: no SDK,
 * no context manager, no span objects.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  TraceFlags,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { IdGenerator } from "./root-sampling.ts";

export { type Attributes, type Context, context, type Link, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace };

export interface Tracing {
  readonly tracer: Tracer;
  /**
   * For a request that carries no trace context (`carriesTraceContext`): true when the configured
   * sampler drops the trace it starts, decided without the SDK (root-sampling.ts). Its
   * `traceparent`, flagged unsampled, is then kept on `request` (the request's headers object)
   * for `droppedTraceparent`, `requestTraceId` and `withinRequest`. False when the sampler keeps
   * the root: then start the SDK's span right away, which takes the trace id drawn here.
   */
  dropRoot(request: object): boolean;
  /** The W3C trace context (traceparent, tracestate) of a carrier: HTTP headers or an MCP `_meta`. */
  extract(carrier: Readonly<Record<string, unknown>>): Context;
  /** Writes the W3C trace context of `span` into `carrier`, with the baggage of `from` only when `baggage`. */
  inject(span: Span, carrier: Record<string, string>, options?: { baggage?: boolean; from?: Context }): void;
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

let current: Tracing | undefined;

/** The process's tracing, or undefined when no OTLP endpoint is set (then nothing is traced). */
export function tracing(): Tracing | undefined {
  return current;
}

/** Whether the environment asks for traces: an OTLP endpoint is set, and the traces exporter is not `none`. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_TRACES_EXPORTER !== "none" && env.OTEL_SDK_DISABLED !== "true";
}

/**
 * What `startTracing` needs of `@opentelemetry/sdk-node`. The servers pass a function importing
 * that package: the SDK is their dependency, not the contract's,
 * which the CLI and the webhook also ship with.
 */
export interface NodeSdkModule {
  NodeSDK: new (config: {
    serviceName?: string;
    instrumentations?: never[];
    idGenerator?: IdGenerator;
  }) => { start(): void; shutdown(): Promise<void> };
}

/**
 * Starts the SDK when the environment asks for traces (once per process; later calls return the
 * same). `service` names the process unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES`
 * does. Traces only: metrics stay on the Prometheus endpoints and logs on standard output,
 * unless `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` say otherwise.
 */
export async function startTracing(
  service: { name: string; version: string },
  loadSdk: () => Promise<NodeSdkModule>,
): Promise<Tracing | undefined> {
  // The SDK and its exporters read process.env themselves.
  const env = process.env;
  if (current || !tracingRequested(env)) return current;
  env.OTEL_METRICS_EXPORTER ??= "none";
  env.OTEL_LOGS_EXPORTER ??= "none";
  const [{ NodeSDK }, { W3CTraceContextPropagator, W3CBaggagePropagator }, { RootSampling }] = await Promise.all([
    loadSdk(),
    import("@opentelemetry/core"),
    import("./root-sampling.ts"),
  ]);
  const named = env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const roots = new RootSampling();
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: service.name }),
    // Spans are made by Atrium's own code, with its attributes: no auto-instrumentation.
    instrumentations: [],
    idGenerator: roots.ids,
  });
  sdk.start();
  const traceContext: TextMapPropagator = new W3CTraceContextPropagator();
  const baggage: TextMapPropagator = new W3CBaggagePropagator();
  current = {
    tracer: trace.getTracer(service.name, service.version),
    dropRoot(request) {
      const traceparent = roots.dropped();
      if (traceparent) (request as Dropped)[DROPPED] = traceparent;
      return traceparent !== undefined;
    },
    extract: (carrier) => baggage.extract(traceContext.extract(ROOT_CONTEXT, carrier, metaGetter), carrier, metaGetter),
    inject(span, carrier, options) {
      const withSpan = trace.setSpan(options?.from ?? ROOT_CONTEXT, span);
      traceContext.inject(withSpan, carrier, setter);
      if (options?.baggage && propagation.getBaggage(withSpan)) baggage.inject(withSpan, carrier, setter);
    },
    shutdown: async () => {
      current = undefined;
      await sdk.shutdown();
    },
  };
  return current;
}

/**
 * Where a request dropped before the SDK (`dropRoot`) keeps its `traceparent`: a symbol property
 * of its headers object, which its work is handed anyway, and which lists of headers (string
 * keys) never show. Such a request (most, at a low ratio) makes no span object and does not run
 * as the active context: the benchmark measured each of those, and a WeakMap entry per request,
 * as a share of tracing's cost at 1 % (docs/performance.md).
 */
const DROPPED = Symbol("atrium.trace.dropped");
type Dropped = { [DROPPED]?: string };

/** The `traceparent` (flagged unsampled) of `request` when its trace was dropped before the SDK; its backend gets it as is. */
export function droppedTraceparent(request: object): string | undefined {
  return (request as Dropped)[DROPPED];
}

/** The trace id of `request`'s work (the active span's, or its dropped trace's); undefined when not tracing. */
export function requestTraceId(request: object): string | undefined {
  if (!current) return undefined;
  const dropped = droppedTraceparent(request);
  return dropped ? droppedSpanContext(dropped).traceId : trace.getActiveSpan()?.spanContext().traceId;
}

/** The ids of a dropped request's `traceparent`, in the one form root-sampling.ts writes: `00-<trace id>-<span id>-00`. */
function droppedSpanContext(traceparent: string): SpanContext {
  return { traceId: traceparent.slice(3, 35), spanId: traceparent.slice(36, 52), traceFlags: TraceFlags.NONE };
}

/**
 * Runs `work` in the context of `request`'s trace when it was dropped, flagged unsampled, so the
 * spans `work` would start know their trace is not sampled (`inSpan` then starts none); else runs
 * it as is. For the few steps of a request that may start spans of their own (an OAuth check, a
 * token request).
 */
export function withinRequest<T>(request: object, work: () => T): T {
  const traceparent = current && droppedTraceparent(request);
  if (!traceparent) return work();
  return context.with(trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(droppedSpanContext(traceparent))), work);
}

/** Reads string members only: an MCP `_meta` is the client's JSON, and a header may repeat. */
const metaGetter = {
  keys: (carrier: Readonly<Record<string, unknown>>) => Object.keys(carrier),
  get(carrier: Readonly<Record<string, unknown>>, key: string) {
    const value = carrier[key];
    if (typeof value === "string") return value;
    return Array.isArray(value) && typeof value[0] === "string" ? value[0] : undefined;
  },
};

const setter = {
  set(carrier: Record<string, string>, key: string, value: string) {
    carrier[key] = value;
  },
};

/** The parent a request's server span continues: `_meta.traceparent` when the message has one, else the HTTP header. */
export function parentOf(tracing: Tracing, headers: IncomingHttpHeaders, meta: unknown): Context {
  if (metaTraceparent(meta)) return tracing.extract(meta as Record<string, unknown>);
  return tracing.extract(headers as Record<string, unknown>);
}

/**
 * Whether a request names a trace to continue (a `traceparent` in `_meta` or the headers), without
 * parsing it. (A `baggage` header alone needs no context: a plan forwarding it forwards the header.)
 */
export function carriesTraceContext(headers: IncomingHttpHeaders, meta: unknown): boolean {
  return headers.traceparent !== undefined || metaTraceparent(meta);
}

const metaTraceparent = (meta: unknown) =>
  typeof meta === "object" && meta !== null && typeof (meta as { traceparent?: unknown }).traceparent === "string";

/**
 * Writes the active span's W3C context (traceparent, tracestate; never baggage) into `carrier`:
 * for a request this process makes within a traced operation. Nothing without tracing or span.
 */
export function injectActive(carrier: Record<string, string>): void {
  const traced = current;
  const span = traced && trace.getActiveSpan();
  if (span) traced.inject(span, carrier, { from: context.active() });
}

/** The active span's `traceparent`, to carry past the process (a stored change); undefined when none. */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  injectActive(carrier);
  return carrier.traceparent;
}

/** The context a `traceparent` names (a stored or streamed one), or undefined when not tracing or malformed. */
export function contextOfTraceparent(traceparent: string | undefined): Context | undefined {
  const traced = current;
  if (!traced || !traceparent) return undefined;
  const extracted = traced.extract({ traceparent });
  return trace.getSpanContext(extracted) ? extracted : undefined;
}

/** `trace_id` and `span_id` of the active span, for every log line written within it (pino's `mixin`). */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The active span's trace id when its trace is sampled (exported): what a metric exemplar may point to. */
export function sampledTraceId(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && context.traceFlags & 1 ? context.traceId : undefined;
}

/** The pino options that stamp log lines with the active span's ids; none when not tracing. */
export function traceLogOptions(): { mixin?: () => object } {
  return current ? { mixin: traceLogFields } : {};
}

/** Ends `span` with an error status and the error's type (never its message: it may quote input). */
export function endWithError(span: Span, type: string, attributes?: Attributes): void {
  span.setAttribute("error.type", type);
  if (attributes) span.setAttributes(attributes);
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Runs `work` in a span of its own (a child of the active one), ended when `work` settles; an
 * error thrown ends it with `error.type` the error's name or code. Without tracing, just `work()`.
 */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const traced = current;
  if (!traced) return work(undefined);
  // A child of a span not recorded is not recorded either (parent-based samplers; a ratio gives
  // the same trace id the same answer): none is started, and what `work` starts is not either.
  const parent = trace.getActiveSpan();
  if (parent && !parent.isRecording()) return work(undefined);
  return traced.tracer.startActiveSpan(name, options, async (span) => {
    try {
      const result = await work(span);
      span.end();
      return result;
    } catch (error) {
      endWithError(span, errorTypeOf(error));
      throw error;
    }
  });
}

function errorTypeOf(error: unknown): string {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (typeof code === "string" && code !== "") return code;
  return typeof name === "string" && name !== "" ? name : "Error";
}
