/**
 * CORS on the MCP endpoints, for browser clients of another origin (the web UI's playground):
 * off unless ATRIUM_GATEWAY_CORS_ORIGINS lists origins, and then only those, matched exactly.
 * No cookies are involved (credentials travel in headers the page sets), so no
 * Access-Control-Allow-Credentials; a listed origin also passes the DNS-rebinding check.
 */
import { parseOrigins } from "@atrium/contract/origins";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** What a browser client sends beyond the CORS-safelisted headers: credentials and the MCP transport's own. */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "x-atrium-key",
  "mcp-protocol-version",
  "mcp-session-id",
  "mcp-method",
  "mcp-name",
  "last-event-id",
].join(", ");
/** What the page may read from an answer: the session id it must send back, the version, the OAuth challenge. */
const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

/** ATRIUM_GATEWAY_CORS_ORIGINS: the listed origins, normalized; anything else stops the gateway with the value named. */
export function corsOrigins(text: string | undefined): string[] {
  return parseOrigins("ATRIUM_GATEWAY_CORS_ORIGINS", text);
}

/**
 * Answers preflights on `paths` and adds the CORS headers to every answer of this (encapsulated)
 * app for a listed Origin. Returns whether an Origin is listed (the DNS-rebinding check accepts it).
 */
export function mcpCors(app: FastifyInstance, paths: string[], origins: string[]): (origin: string) => boolean {
  const listed = new Set(origins);
  const allowed = (origin: string | undefined): origin is string => origin !== undefined && listed.has(origin);
  if (listed.size === 0) return () => false;

  // On the raw response: a large result is written straight to the socket, past fastify's hooks.
  app.addHook("onRequest", async (request, reply) => {
    reply.raw.setHeader("vary", "Origin");
    const { origin } = request.headers;
    if (allowed(origin)) {
      reply.raw.setHeader("access-control-allow-origin", origin);
      reply.raw.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
    }
  });
  const preflight = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!allowed(request.headers.origin)) {
      return reply.status(403).type("application/json").send({
        error: "origin_not_allowed",
        error_description: "This origin may not call the gateway from a browser",
      });
    }
    return reply
      .status(204)
      .headers({
        "access-control-allow-methods": "POST, GET, DELETE",
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": "600",
      })
      .send();
  };
  for (const path of paths) app.options(path, preflight);
  return allowed;
}
