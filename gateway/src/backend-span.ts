/**
 * The client span of a backend call (issue 24), a child of the MCP request's server span, per
 * the OpenTelemetry semantic conventions: HTTP (`{method} {url.template}`; a GraphQL tool's POST
 * included, with its operation) or gRPC (`{package.Service}/{Method}`). Its W3C trace context
 * goes to the backend as `traceparent`/`tracestate` headers, or gRPC metadata; the client's
 * `baggage` only when the plan forwards that header. Never a URL with argument values, a query
 * string, a header value or a body.
 */
import {
  type Attributes,
  type Context,
  context,
  droppedTraceparent,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracing,
  trace,
} from "@atrium/contract/telemetry";
import type { Metadata } from "@grpc/grpc-js";
import { grpcCodeName } from "./grpc/status.ts";
import type { BackendRequest } from "./tools/request.ts";
import type { BackendResponse } from "./tools/result.ts";

/** What a tool's backend call is, in low-cardinality words, for its span (ToolRuntime.route). */
export interface BackendRoute {
  /** The operation's path template (`/pets/{petId}`), relative to the endpoint's base path. */
  template?: string;
  /** A GraphQL tool's operation. */
  graphql?: { type: string; name: string };
}

export type SpanOutcome =
  | { kind: "response"; response: BackendResponse }
  | { kind: "timeout" }
  | { kind: "failed"; error: { code?: string } };

/**
 * Starts the span of a call to `origin` and writes its context into `headers` (HTTP) or
 * `metadata` (gRPC). `basePath`: the endpoint's own path, prefixed to a template. Undefined when
 * the request's span is not recorded: the call's would not be either (see below), so none is made.
 * `request`: the client request's headers object, which holds the ready-made `traceparent` of a
 * request whose trace was dropped before the SDK (droppedTraceparent).
 */
export function startBackendSpan(
  tracing: Tracing,
  request: object,
  origin: string,
  basePath: string,
  call: BackendRequest,
  route: BackendRoute | undefined,
  carrier: { headers: Record<string, string>; metadata?: Metadata; baggage: boolean },
): Span | undefined {
  // Most requests at a low ratio: their unsampled context is all the backend gets, as is.
  const dropped = droppedTraceparent(request);
  if (dropped) {
    carrier.headers.traceparent = dropped;
    carrier.metadata?.set("traceparent", dropped);
    return undefined;
  }
  const active = context.active();
  const parent = trace.getSpan(active);
  // Every sampler the SDK takes from the environment leaves a child of an unrecorded span
  // unrecorded (parent-based: the parent's decision; a ratio: the same trace id, the same
  // answer). So no span for it: the backend gets the request span's context, flagged unsampled,
  // which W3C asks to pass on all the same.
  if (parent && !parent.isRecording()) {
    write(tracing, parent, active, carrier);
    return undefined;
  }
  // `/package.Service/Method`: names only, no argument ever gets into a gRPC path.
  const method = call.grpc ? (call.path.startsWith("/") ? call.path.slice(1) : call.path) : undefined;
  const template =
    method === undefined && route?.template !== undefined ? joinTemplate(basePath, route.template) : undefined;
  const name = method ?? (template !== undefined ? `${call.method} ${template}` : call.method);
  const span = tracing.tracer.startSpan(name, { kind: SpanKind.CLIENT }, active);
  // Attributes only for a recorded span (the SDK's samplers never read them): an unsampled call
  // skips parsing its origin. Its context goes to the backend all the same, flagged unsampled.
  if (span.isRecording()) span.setAttributes(attributesOf(origin, call, route, method, template));
  write(tracing, span, active, carrier);
  return span;
}

/** Writes `span`'s W3C context (and the client's baggage when forwarded) into the call's headers or metadata. */
function write(
  tracing: Tracing,
  span: Span,
  active: Context,
  carrier: { headers: Record<string, string>; metadata?: Metadata; baggage: boolean },
): void {
  const written: Record<string, string> = {};
  tracing.inject(span, written, { baggage: carrier.baggage, from: active });
  for (const [key, value] of Object.entries(written)) {
    carrier.headers[key] = value;
    carrier.metadata?.set(key, value);
  }
}

/** The span's attributes: the server, and the gRPC method (`method`) or the HTTP call and its template. */
function attributesOf(
  origin: string,
  call: BackendRequest,
  route: BackendRoute | undefined,
  method: string | undefined,
  template: string | undefined,
): Attributes {
  const url = new URL(origin);
  const attributes: Attributes = { "server.address": url.hostname };
  if (url.port) attributes["server.port"] = Number(url.port);
  if (method !== undefined) {
    attributes["rpc.system.name"] = "grpc";
    attributes["rpc.method"] = method;
    return attributes;
  }
  attributes["http.request.method"] = call.method;
  if (template !== undefined) attributes["url.template"] = template;
  attributes["url.scheme"] = url.protocol.slice(0, -1);
  if (route?.graphql) {
    attributes["graphql.operation.type"] = route.graphql.type;
    attributes["graphql.operation.name"] = route.graphql.name;
  }
  return attributes;
}

/** Ends the span with what the backend answered: its status (HTTP or gRPC), or why there was no answer. */
export function endBackendSpan(span: Span, outcome: SpanOutcome): void {
  if (outcome.kind === "response") {
    const { response } = outcome;
    if (response.grpc) {
      const status = grpcCodeName(response.grpc.code);
      span.setAttribute("rpc.response.status_code", status);
      if (response.grpc.code !== 0) fail(span, status);
    } else {
      span.setAttribute("http.response.status_code", response.status);
      if (response.status >= 400) fail(span, String(response.status));
    }
  } else if (outcome.kind === "timeout") fail(span, "timeout");
  else fail(span, outcome.error.code ?? "error");
  span.end();
}

function fail(span: Span, type: string): void {
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** `/api` + `/pets/{petId}` → `/api/pets/{petId}`; the endpoint itself (a GraphQL POST) for an empty template. */
function joinTemplate(basePath: string, template: string): string {
  const base = basePath.endsWith("/") ? basePath.slice(0, -1) : basePath;
  return template === "" ? basePath || "/" : `${base}${template}`;
}
