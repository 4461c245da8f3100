/**
 * A server span per REST request, when tracing is on (contract/telemetry): named
 * `{method} {route template}` (HTTP semantic conventions), continuing the caller's `traceparent`
 * (the operator's, or any client's), with the route, the status and the organization once the request
 * is authenticated. Never the URL's values, its query string, a header or a body. The request's
 * handlers run within the span, so its database calls and the change it commits are its children.
 * Without tracing no hook is registered.
 */
import {
  type Context,
  context,
  endWithError,
  type Span,
  SpanKind,
  type Tracing,
  trace,
  tracing,
} from "@atrium/contract/telemetry";
import type { FastifyInstance, FastifyRequest } from "fastify";

/** The context of each request in flight: its span active. */
const spans = new WeakMap<FastifyRequest, Context>();

export function traceRequests(app: FastifyInstance): void {
  const traced = tracing();
  if (!traced) return;
  // Callback hooks: the rest of the request's hooks and its handler run inside `context.with`.
  app.addHook("onRequest", (request, reply, done) => {
    const span = startRequestSpan(traced, request);
    const active = trace.setSpan(context.active(), span);
    spans.set(request, active);
    // 'close' comes after the answer, or when the client went away (a change stream ends so too).
    reply.raw.once("close", () => {
      spans.delete(request);
      if (reply.raw.headersSent) endRequestSpan(span, request, reply.raw.statusCode);
      else endWithError(span, "aborted", organizationOf(request));
    });
    context.with(active, done);
  });
  // The body is read on the socket's events, outside the span's context: enter it again after.
  app.addHook("preValidation", (request, _reply, done) => {
    const active = spans.get(request);
    if (active) context.with(active, done);
    else done();
  });
}

function startRequestSpan(traced: Tracing, request: FastifyRequest): Span {
  const route = request.routeOptions.url;
  const parent = traced.extract(request.headers as Record<string, unknown>);
  return traced.tracer.startSpan(
    route ? `${request.method} ${route}` : request.method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        "http.request.method": request.method,
        ...(route ? { "http.route": route } : {}),
        "url.scheme": request.protocol,
        "network.protocol.version": request.raw.httpVersion,
        "client.address": request.ip,
      },
    },
    parent,
  );
}

function endRequestSpan(span: Span, request: FastifyRequest, status: number): void {
  span.setAttribute("http.response.status_code", status);
  const organization = organizationOf(request);
  if (status >= 500) {
    endWithError(span, String(status), organization);
    return;
  }
  // A 4xx is the client's error: a server span's status stays unset (HTTP conventions).
  span.setAttributes(organization);
  span.end();
}

function organizationOf(request: FastifyRequest): Record<string, string> {
  const organizationId = (request as { principal?: { organizationId?: string } }).principal?.organizationId;
  return organizationId ? { "atrium.organization.id": organizationId } : {};
}
