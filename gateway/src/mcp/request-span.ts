/**
 * The server span of an MCP request (issue 24), per the OpenTelemetry semantic conventions for
 * MCP: one per POST, named `{mcp.method.name} {target}` (the tool or prompt, when the Exposition
 * has it), continuing the client's trace from `params._meta.traceparent` (MCP 2026-07-28,
 * SEP-414) or else the `traceparent` header. It is the active span while the request runs, so
 * backend spans and log lines nest in it, and ends when the answer has gone out (a stream
 * included); a request whose new trace the sampler drops gets no span at all, only a
 * `traceparent` for its backend (droppedTraceparent). It says who and what (organization,
 * Exposition, tool, era, JSON-RPC id, a hash of the session id) and the outcome, kept apart:
 * the HTTP status, a JSON-RPC error code, a tool's `isError`. Never arguments, keys, tokens or
 * resource URIs (which hold arguments).
 */
import { createHash } from "node:crypto";
import {
  type Attributes,
  type Context,
  carriesTraceContext,
  context,
  parentOf,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracing,
  trace,
  tracing,
} from "@atrium/contract/telemetry";
import type { FastifyReply, FastifyRequest } from "fastify";
import { methodLabel } from "../metrics.ts";
import type { ServedExposition } from "../registry.ts";
import { headerValue, isModern } from "./modern.ts";
import { isJsonRpcRequest, type JsonRpcRequest, META } from "./protocol.ts";

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** `handler` run within the request's server span. */
export function tracedRequests(
  tracing: Tracing,
  lookup: (request: FastifyRequest) => ServedExposition | undefined,
  handler: Handler,
): Handler {
  return (request, reply) => {
    const body = request.body;
    const message = isJsonRpcRequest(body) ? body : undefined;
    const meta = message?.params?._meta;
    // A request starting a trace its sampler drops (most, at a low ratio) never reaches the SDK,
    // nor runs in a context: its backend calls find its unsampled `traceparent` on its headers
    // (droppedTraceparent) and send it on.
    if (!carriesTraceContext(request.headers, meta) && tracing.dropRoot(request.headers))
      return handler(request, reply);
    const parent = parentOf(tracing, request.headers, meta);
    const span = startServerSpan(tracing, parent, request, reply, body, message, lookup(request));
    // Within the client's context: its baggage (header or `_meta`) is there for the backend call.
    return context.with(trace.setSpan(parent, span), () => handler(request, reply));
  };
}

/** The SDK's span of a request, with its attributes and ended when the answer has gone out, if recorded. */
function startServerSpan(
  tracing: Tracing,
  parent: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  message: JsonRpcRequest | undefined,
  served: ServedExposition | undefined,
): Span {
  const method = Array.isArray(body) ? "batch" : message ? methodLabel(message.method) : "invalid";
  const target = message && served ? targetOf(message, served) : undefined;
  const span = tracing.tracer.startSpan(
    target ? `${method} ${target.name}` : method,
    { kind: SpanKind.SERVER },
    parent,
  );
  // The samplers the SDK offers decide on the trace (a ratio, the parent), never on attributes:
  // an unsampled request (its parent's decision) skips building them and waiting for its end.
  if (span.isRecording()) {
    span.setAttributes(attributesOf(request, method, message, served, target, message?.params?._meta));
    endOnClose(span, reply);
  }
  return span;
}

/** Ends `span` when the answer has gone out (a stream included), with the HTTP status and outcome. */
function endOnClose(span: Span, reply: FastifyReply): void {
  reply.raw.once("close", () => {
    const status = reply.raw.statusCode;
    span.setAttribute("http.response.status_code", status);
    if (status >= 500 && !errorMarked.has(span)) span.setAttribute("error.type", String(status));
    if (status >= 500 || errorMarked.has(span)) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** Spans whose request already failed as JSON-RPC or as a tool (their error.type is set). */
const errorMarked = new WeakSet<object>();

/** The request failed with JSON-RPC error `code` (recorded on the active server span, when tracing). */
export function markRpcError(code: number): void {
  if (!tracing()) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute("rpc.response.status_code", String(code));
  span.setAttribute("error.type", String(code));
  errorMarked.add(span);
}

/** A tool answered with `isError` (the MCP conventions' `tool_error`). */
export function markToolError(): void {
  if (!tracing()) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute("atrium.tool.is_error", true);
  span.setAttribute("error.type", "tool_error");
  errorMarked.add(span);
}

type Target = { kind: "tool" | "prompt"; name: string };

/** The tool or prompt the message names, when the Exposition has it: never a made-up name in a span name. */
function targetOf(message: JsonRpcRequest, served: ServedExposition): Target | undefined {
  const name = message.params?.name;
  if (typeof name !== "string") return undefined;
  if (message.method === "tools/call" && served.toolset.get(name)) return { kind: "tool", name };
  if (message.method === "prompts/get" && served.exposition.prompts.some((prompt) => prompt.name === name))
    return { kind: "prompt", name };
  return undefined;
}

function attributesOf(
  request: FastifyRequest,
  method: string,
  message: JsonRpcRequest | undefined,
  served: ServedExposition | undefined,
  target: Target | undefined,
  meta: unknown,
): Attributes {
  const attributes: Attributes = {
    "mcp.method.name": method,
    "network.protocol.name": "http",
    "network.protocol.version": request.raw.httpVersion,
    "client.address": request.ip,
  };
  if (served) {
    const { exposition } = served;
    attributes["atrium.organization"] = exposition.organization.name;
    attributes["atrium.exposition.id"] = exposition.id;
    attributes["atrium.exposition.name"] = exposition.name;
  }
  if (target?.kind === "tool") {
    attributes["gen_ai.tool.name"] = target.name;
    attributes["gen_ai.operation.name"] = "execute_tool";
  } else if (target?.kind === "prompt") attributes["gen_ai.prompt.name"] = target.name;
  if (message) {
    attributes["jsonrpc.protocol.version"] = "2.0";
    if (message.id !== undefined && message.id !== null) attributes["jsonrpc.request.id"] = String(message.id);
    attributes["atrium.mcp.era"] = isModern(message, request.headers) ? "modern" : "legacy";
    const version = protocolVersionOf(request, message, meta);
    if (version) attributes["mcp.protocol.version"] = version;
  }
  const session = request.headers["mcp-session-id"];
  // A session id is a credential of sorts: only a hash of it, enough to group a session's spans.
  if (typeof session === "string")
    attributes["mcp.session.id"] = createHash("sha256").update(session).digest("hex").slice(0, 32);
  return attributes;
}

function protocolVersionOf(request: FastifyRequest, message: JsonRpcRequest, meta: unknown): string | undefined {
  const fromMeta =
    typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>)[META.protocolVersion] : undefined;
  const fromInitialize = message.method === "initialize" ? message.params?.protocolVersion : undefined;
  const version = fromMeta ?? fromInitialize ?? headerValue(request.headers, "mcp-protocol-version");
  return typeof version === "string" && version.length <= 32 ? version : undefined;
}
