/**
 * The MCP endpoints, `POST /mcp/<exposition_id>` and `POST /mcp/<organization>/<name>`:
 * route lookup, API-key check, then the modern (stateless) or legacy (session) era. Every
 * failure is a JSON-RPC error with the right HTTP status — never a 500 for bad input.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Backends } from "../backend.ts";
import { MAX_REQUEST_DEPTH, nestsDeeperThan } from "../json-depth.ts";
import type { GatewayMetrics, ToolOutcomeWord } from "../metrics.ts";
import { type ExpositionRegistry, type ServedExposition, sha256 } from "../registry.ts";
import { answerBatch } from "./batch.ts";
import { handleLegacy, initialize, sessionOf } from "./legacy.ts";
import { handleModern, isModern } from "./modern.ts";
import {
  BATCHING_VERSION,
  ERROR,
  errorResponse,
  isJsonRpcRequest,
  isResponseOrNotificationLike,
  type JsonRpcId,
  McpError,
  resultResponse,
} from "./protocol.ts";
import { acceptsGzip, SerializedResult } from "./serialized.ts";
import type { SessionSigner } from "./sessions.ts";

export interface EndpointOptions {
  /** Host names accepted in Host and Origin; undefined accepts any. */
  allowedHosts: Set<string> | undefined;
  registry: ExpositionRegistry;
  backends: Backends;
  sessions: SessionSigner;
  metrics: GatewayMetrics;
  maxResultBytes: number;
  /** Most messages in one JSON-RPC batch. */
  maxBatchSize: number;
}

const ALLOW = "POST, DELETE";

function send(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}) {
  return reply.status(status).headers(headers).type("application/json").send(body);
}

export async function mcpEndpoints(app: FastifyInstance, options: EndpointOptions): Promise<void> {
  const { registry, sessions, metrics } = options;
  // JSON only: fastify would otherwise parse text/plain, and MCP requires application/json (415).
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser("error", "error");
  const tooDeep = new McpError(
    ERROR.invalidParams,
    `Invalid params: the request nests objects or arrays deeper than ${MAX_REQUEST_DEPTH} levels`,
    400,
  );
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    // A DELETE (ending a session) may carry the content type but no body.
    if (body === "" && request.method !== "POST") return done(null, undefined);
    // Checked before parsing: deep values overflow the stack of whatever walks them later.
    if (nestsDeeperThan(String(body), MAX_REQUEST_DEPTH)) return done(tooDeep, undefined);
    parseJson(request, String(body), done);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof McpError) return send(reply, error.httpStatus, errorResponse(null, error.code, error.message));
    // Transport-level problems, before any JSON-RPC id is known.
    const map: Record<string, [number, number, string]> = {
      FST_ERR_CTP_INVALID_JSON_BODY: [400, ERROR.parse, "Parse error: the body is not valid JSON"],
      FST_ERR_CTP_EMPTY_JSON_BODY: [400, ERROR.parse, "Parse error: the body is empty"],
      FST_ERR_CTP_BODY_TOO_LARGE: [413, ERROR.invalidRequest, "The request body is too large"],
      FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, ERROR.invalidRequest, "Unsupported Content-Type: send application/json"],
    };
    const known = error.code ? map[error.code] : undefined;
    if (!known) request.log.error({ err: error, reqId: request.id }, "MCP request failed");
    const [status, code, message] = known ?? [500, ERROR.internal, "Internal error"];
    send(reply, status, errorResponse(null, code, message));
  });

  const lookup = (request: FastifyRequest): ServedExposition | undefined => {
    const params = request.params as { id?: string; organization?: string; name?: string };
    return params.id !== undefined
      ? registry.byId(params.id)
      : registry.byPath(params.organization ?? "", params.name ?? "");
  };

  // Verdicts per Host/Origin value: a client sends the same few on every request, and parsing
  // them as URLs each time showed in profiles. Bounded, so made-up values cannot grow it.
  const hostVerdicts = new Map<string, boolean>();
  const hostAllowed = (value: string | undefined, isOrigin: boolean) => {
    const allowed = options.allowedHosts;
    if (!allowed || value === undefined) return true;
    const key = isOrigin ? value : `http://${value}`;
    let verdict = hostVerdicts.get(key);
    if (verdict === undefined) {
      verdict = URL.canParse(key) && allowed.has(new URL(key).hostname.toLowerCase());
      if (hostVerdicts.size >= 1_000) hostVerdicts.clear();
      hostVerdicts.set(key, verdict);
    }
    return verdict;
  };

  /** 403 for a foreign Host/Origin, 404 for an unknown exposition, 401 for a bad API key; undefined when allowed. */
  const refusal = (request: FastifyRequest, served: ServedExposition | undefined) => {
    if (!hostAllowed(request.headers.host, false) || !hostAllowed(request.headers.origin, true)) {
      return {
        status: 403,
        message: "Forbidden: Host or Origin is not one of this gateway's names (DNS-rebinding protection)",
      };
    }
    if (!served) return { status: 404, message: "Unknown organization or exposition: check the endpoint path" };
    if (!served.apiKeyHash) return undefined;
    const key = request.headers["x-atrium-key"];
    if (typeof key !== "string" || key === "")
      return { status: 401, message: "Missing API key: send it in the x-atrium-key header" };
    // A key seen valid for this Exposition is remembered (in its served form, which a renewal
    // replaces), sparing a SHA-256 per call; a wrong key is hashed and compared every time.
    if (served.verifiedKeys.has(key)) return undefined;
    if (!timingSafeEqual(sha256(key), served.apiKeyHash)) return { status: 401, message: "Invalid API key" };
    served.verifiedKeys.add(key);
    return undefined;
  };

  const post = async (request: FastifyRequest, reply: FastifyReply) => {
    const started = performance.now();
    const served = lookup(request);
    const refused = refusal(request, served);
    const body = request.body;
    const firstId = isJsonRpcRequest(body) ? body.id : null;
    if (refused || !served) {
      return send(
        reply,
        refused?.status ?? 404,
        errorResponse(firstId, ERROR.invalidRequest, refused?.message ?? "Not found"),
      );
    }
    const expositionLabel = served.exposition.id;
    const context = {
      served,
      clientHeaders: request.headers,
      backends: options.backends,
      maxResultBytes: options.maxResultBytes,
      onToolCall: (tool: string, outcome: number | ToolOutcomeWord, seconds: number) => {
        metrics.toolCall(expositionLabel, tool, outcome, seconds);
      },
    };
    const observe = (method: string, status: number) => {
      metrics.request(expositionLabel, method, status, (performance.now() - started) / 1000);
    };

    if (Array.isArray(body)) return batch(body, request, reply, served, context, observe);
    if (!isJsonRpcRequest(body)) {
      if (isResponseOrNotificationLike(body)) return reply.status(202).send();
      observe("invalid", 400);
      return send(
        reply,
        400,
        errorResponse(firstId, ERROR.invalidRequest, "Invalid Request: expected a JSON-RPC 2.0 request object"),
      );
    }
    const message = body;
    try {
      if (isModern(message, request.headers)) {
        if (message.id === undefined) return reply.status(202).send();
        const scope = served.apiKeyHash ? "private" : "public";
        const result = await handleModern(message, request.headers, context, scope);
        observe(message.method, 200);
        return answer(request, reply, message.id, result);
      }
      if (message.method === "initialize") {
        if (message.id === undefined || message.id === null)
          throw new McpError(ERROR.invalidRequest, "initialize must be a request with an id", 400);
        const outcome = initialize(message, sessions, served.exposition.id);
        observe(message.method, 200);
        return send(reply, 200, resultResponse(message.id, outcome.result), {
          "mcp-session-id": outcome.sessionId ?? "",
        });
      }
      const session = sessionOf(request.headers, sessions, served.exposition.id);
      if (message.id === undefined) return reply.status(202).send(); // notifications/initialized and friends
      const result = await handleLegacy(message, session, context);
      observe(message.method, 200);
      return answer(request, reply, message.id, result);
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      observe(message.method, error.httpStatus);
      return send(reply, error.httpStatus, errorResponse(message.id, error.code, error.message, error.data));
    }
  };

  /** JSON-RPC batches: only within a 2025-03-26 session. */
  const batch = async (
    messages: unknown[],
    request: FastifyRequest,
    reply: FastifyReply,
    served: ServedExposition,
    context: Parameters<typeof handleLegacy>[2],
    observe: (method: string, status: number) => void,
  ) => {
    try {
      const session = sessionOf(request.headers, sessions, served.exposition.id);
      if (session.protocolVersion !== BATCHING_VERSION || messages.length === 0) {
        throw new McpError(
          ERROR.invalidRequest,
          `JSON-RPC batches are only allowed in protocol ${BATCHING_VERSION}`,
          400,
        );
      }
      const answers = await answerBatch(messages, session, context, options.maxBatchSize);
      observe("batch", 200);
      return answers.length > 0 ? send(reply, 200, answers) : reply.status(202).send();
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      observe("batch", error.httpStatus);
      return send(reply, error.httpStatus, errorResponse(null, error.code, error.message));
    }
  };

  const remove = async (request: FastifyRequest, reply: FastifyReply) => {
    const served = lookup(request);
    const refused = refusal(request, served);
    if (refused || !served)
      return send(
        reply,
        refused?.status ?? 404,
        errorResponse(null, ERROR.invalidRequest, refused?.message ?? "Not found"),
      );
    if (request.headers["mcp-session-id"] === undefined) return get(request, reply); // stateless: nothing to end
    try {
      sessionOf(request.headers, sessions, served.exposition.id);
      sessions.end(String(request.headers["mcp-session-id"]));
      return reply.status(200).send();
    } catch (error) {
      if (!(error instanceof McpError)) throw error;
      return send(reply, error.httpStatus, errorResponse(null, error.code, error.message));
    }
  };

  /** No server-initiated streams: GET is not offered (clients tolerate 405). */
  const get = async (_request: FastifyRequest, reply: FastifyReply) =>
    send(
      reply,
      405,
      errorResponse(
        null,
        ERROR.badRequest,
        "Method Not Allowed: this endpoint takes POST (and DELETE to end a session)",
      ),
      {
        allow: ALLOW,
      },
    );

  for (const path of ["/mcp/:id", "/mcp/:organization/:name"]) {
    app.post(path, post);
    app.delete(path, remove);
    app.get(path, get);
  }
}

/** A result answered with 200; a pre-serialized one is written as cached bytes, gzip-encoded when the client accepts it. */
function answer(request: FastifyRequest, reply: FastifyReply, id: JsonRpcId, result: unknown) {
  if (!(result instanceof SerializedResult)) return send(reply, 200, resultResponse(id, result));
  const { chunks, length, gzip } = result.answer(id, acceptsGzip(request.headers["accept-encoding"]));
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": length,
    vary: "accept-encoding",
  };
  if (gzip) headers["content-encoding"] = "gzip";
  // Straight to the socket: fastify would copy megabytes into one string or buffer first.
  reply.hijack();
  reply.raw.writeHead(200, headers);
  for (const chunk of chunks) reply.raw.write(chunk);
  reply.raw.end();
  return reply;
}
