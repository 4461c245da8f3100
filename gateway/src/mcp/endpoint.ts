/**
 * The MCP endpoints, `POST /mcp/<exposition_id>` and `POST /mcp/<organization>/<name>`:
 * route lookup, client authentication (API key or OAuth bearer token, audited when the plan
 * asks), then the modern (stateless) or legacy (session) era; and the OAuth endpoints'
 * protected-resource metadata. Every failure is a JSON-RPC error with the right HTTP status —
 * never a 500 for bad input.
 */
import { acceptsEventStream, acceptsGzip } from "@atrium/contract/accept-encoding";
import { nestsDeeperThan } from "@atrium/contract/json-depth";
import { sampledTraceId, tracing } from "@atrium/contract/telemetry";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type AuditLog, type AuditOrigin, traceIdOf } from "../audit.ts";
import type { ClientAuthenticator, ClientIdentity } from "../auth/client-auth.ts";
import { AuthRefusal, refusals } from "../auth/refusals.ts";
import { addressOf, bearerChallenge, METADATA_PREFIX, protectedResourceMetadata } from "../auth/resource.ts";
import type { Backends, CircuitEvent } from "../backend.ts";
import { asksEachUser, type ElicitationCall, type ElicitationServices } from "../elicitation/flow.ts";
import type { LimitRefusal } from "../limits.ts";
import type { GatewayMetrics, ToolCallOutcome, ToolOutcomeWord } from "../metrics.ts";
import type { ExpositionRegistry, ServedExposition } from "../registry.ts";
import { answerBatch } from "./batch.ts";
import { mcpCors } from "./cors.ts";
import { checkToolAccess } from "./dispatch.ts";
import { handleLegacy, initialize, sessionOf } from "./legacy.ts";
import { SessionLogLevels } from "./log-levels.ts";
import { handleModern, isModern } from "./modern.ts";
import { TooManyCalls } from "./overload.ts";
import {
  BATCHING_VERSION,
  ERROR,
  errorResponse,
  isJsonRpcRequest,
  isResponseOrNotificationLike,
  type JsonRpcId,
  MAX_REQUEST_DEPTH,
  McpError,
  META,
  resultResponse,
} from "./protocol.ts";
import { markRpcError, tracedRequests } from "./request-span.ts";
import { backendPollRead } from "./resource-polling.ts";
import { DEFAULT_PROGRESS_AFTER_MS, type LogSink, type ResponseStream, responseStream } from "./response-stream.ts";
import { SerializedResult } from "./serialized.ts";
import type { Session, SessionSigner } from "./sessions.ts";
import { StreamReplay } from "./stream-replay.ts";
import { ListenRequest, type StreamCaller, Subscriptions } from "./subscriptions.ts";

export interface EndpointOptions {
  /** Host names accepted in Host and Origin; undefined accepts any. */
  allowedHosts: Set<string> | undefined;
  /** Browser origins answered with CORS headers (ATRIUM_GATEWAY_CORS_ORIGINS); none when absent. */
  corsOrigins?: string[];
  registry: ExpositionRegistry;
  backends: Backends;
  sessions: SessionSigner;
  metrics: GatewayMetrics;
  maxResultBytes: number;
  /** Most messages in one JSON-RPC batch. */
  maxBatchSize: number;
  auth: ClientAuthenticator;
  audit: AuditLog;
  /** The elicited-credential flow; undefined without a cluster key (the registry then refuses plans that elicit). */
  elicitation?: ElicitationServices;
  /** A request with a `progressToken` running this long gets progress notifications (ATRIUM_GATEWAY_PROGRESS_AFTER_MS). */
  progressAfterMs?: number;
  /** A 2025-11-25 call running this long has its answer stream primed and its connection closed (ATRIUM_GATEWAY_SSE_POLL_AFTER_MS); never when undefined. */
  ssePollAfterMs?: number;
}

const ALLOW = "POST, DELETE";
const PATHS = ["/mcp/:id", "/mcp/:organization/:name"];

function send(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}) {
  return reply.status(status).headers(headers).type("application/json").send(body);
}

export async function mcpEndpoints(app: FastifyInstance, options: EndpointOptions): Promise<void> {
  const { registry, sessions, metrics, audit } = options;
  const progressAfterMs = options.progressAfterMs ?? DEFAULT_PROGRESS_AFTER_MS;
  const logLevels = new SessionLogLevels();
  const replay = new StreamReplay();
  // With tracing on, observations carry the request's sampled trace id (histogram exemplars in OpenMetrics).
  const activeTraceId = tracing() ? sampledTraceId : () => undefined;
  const subscriptions = new Subscriptions({
    read: backendPollRead(options.backends),
    isLive: (sessionId) => sessions.verify(sessionId) !== undefined,
    latest: (id) => registry.byId(id),
  });
  registry.observe((before, after) => subscriptions.changed(before, after));
  // Open notification streams would hold the server's close until their clients left.
  app.addHook("preClose", (done) => {
    subscriptions.close();
    done();
  });
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

  const corsListed = mcpCors(app, PATHS, options.corsOrigins ?? []);
  const byId = (request: FastifyRequest) => (request.params as { id?: string }).id !== undefined;
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

  /** 403 for a foreign Host/Origin, 404 for an unknown exposition; undefined when the request may go on. */
  const refusal = (request: FastifyRequest, served: ServedExposition | undefined) => {
    const { origin } = request.headers;
    if (!hostAllowed(request.headers.host, false) || !(hostAllowed(origin, true) || corsListed(origin ?? ""))) {
      return {
        status: 403,
        message: "Forbidden: Host or Origin is not one of this gateway's names (DNS-rebinding protection)",
      };
    }
    if (!served) return { status: 404, message: "Unknown organization or exposition: check the endpoint path" };
    return undefined;
  };

  /** Where the request came from, for audit events (worked out once, and only for audited plans). */
  const originOf = (request: FastifyRequest): AuditOrigin => ({
    sourceIp: request.ip,
    traceId: traceIdOf(request.headers),
  });
  const modeOf = (served: ServedExposition) => (served.exposition.plan.oauth ? "oauth" : "apiKey");

  const keysWarnedAt = new Map<string, number>();
  /** Answers a refused credential: the status, the OAuth challenge, and an audit event when the plan asks. */
  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    served: ServedExposition,
    refused: AuthRefusal,
    id: JsonRpcId | null | undefined,
    context: { identity?: ClientIdentity; origin?: AuditOrigin; tool?: unknown } = {},
  ) => {
    const headers: Record<string, string> = {};
    const { plan } = served.exposition;
    metrics.authDecision(served.exposition.id, modeOf(served), refused.reason);
    if (plan.oauth) {
      headers["www-authenticate"] = bearerChallenge(refused, addressOf(request.headers, served, byId(request)), served);
    }
    if (refused.status === 503) {
      headers["retry-after"] = "5";
      // Once per issuer and half-minute: every request is refused while the keys are away.
      const issuer = plan.oauth?.issuer ?? "";
      const now = Date.now();
      if ((keysWarnedAt.get(issuer) ?? 0) + 30_000 < now) {
        keysWarnedAt.set(issuer, now);
        request.log.warn(
          { exposition: served.exposition.id, issuer: plan.oauth?.issuer, problem: options.auth.keysProblemOf(served) },
          "refusing OAuth requests: the issuer's signing keys are out of reach",
        );
      }
    }
    if (plan.audit) {
      audit.authentication({
        served,
        origin: context.origin ?? originOf(request),
        mode: modeOf(served),
        status: refused.status,
        reason: refused.reason,
        principal: context.identity?.mode === "oauth" ? context.identity.principal : undefined,
        tool: typeof context.tool === "string" ? context.tool : undefined,
      });
    }
    return send(reply, refused.status, errorResponse(id, ERROR.invalidRequest, refused.message), headers);
  };

  /**
   * Who the client is, or undefined once a refusal was answered. Synchronous for open and API-key
   * endpoints; an audited plan records the decision when the answer has gone out, with its status.
   */
  const identify = (
    request: FastifyRequest,
    reply: FastifyReply,
    served: ServedExposition,
    id: JsonRpcId | null | undefined,
    origin: AuditOrigin | undefined,
  ): ClientIdentity | undefined | Promise<ClientIdentity | undefined> => {
    const refused = (error: unknown) => {
      if (!(error instanceof AuthRefusal)) throw error;
      refuse(request, reply, served, error, id, { origin });
      return undefined;
    };
    const admitted = (identity: ClientIdentity) => {
      metrics.authDecision(served.exposition.id, identity.mode);
      if (origin && identity.mode !== "none") {
        reply.raw.once("finish", () => {
          // A call refused for a tool's scopes has its own (failure) event.
          if (refusedForScope.has(reply)) return;
          audit.authentication({
            served,
            origin,
            mode: modeOf(served),
            status: reply.raw.statusCode,
            principal: identity.mode === "oauth" ? identity.principal : undefined,
          });
        });
      }
      return identity;
    };
    let decided: ClientIdentity | Promise<ClientIdentity>;
    try {
      decided = options.auth.authenticate(request.headers, served, byId(request));
    } catch (error) {
      return refused(error);
    }
    // No await for open and API-key endpoints: the hot path stays synchronous.
    return decided instanceof Promise ? decided.then(admitted, refused) : admitted(decided);
  };
  const refusedForScope = new WeakSet<FastifyReply>();

  /** Whose a notification stream is (subscriptions.ts bounds each caller's), and until when its token holds. */
  const streamCaller = (request: FastifyRequest, served: ServedExposition, identity: ClientIdentity): StreamCaller => {
    if (identity.mode === "oauth")
      return { key: `user ${identity.principal.user}`, validUntilMs: identity.principal.validUntilMs };
    if (identity.mode === "apiKey") return { key: `plan ${served.exposition.plan.id}` };
    return { key: `address ${request.ip}` };
  };

  /** A 2025 session, which on OAuth endpoints belongs to the user who opened it. */
  const sessionFor = (request: FastifyRequest, served: ServedExposition, identity: ClientIdentity): Session => {
    const session = sessionOf(request.headers, sessions, served.exposition.id);
    const user = identity.mode === "oauth" ? identity.principal.user : undefined;
    if (session.user !== user) throw refusals.sessionOfAnotherUser();
    return session;
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
    const origin = served.exposition.plan.audit ? originOf(request) : undefined;
    const identified = identify(request, reply, served, firstId, origin);
    const identity = identified instanceof Promise ? await identified : identified;
    if (!identity) return reply;
    const principal = identity.mode === "oauth" ? identity.principal : undefined;
    const expositionLabel = served.exposition.id;
    const elicitation: ElicitationCall | undefined =
      options.elicitation && asksEachUser(served.exposition.plan.backendSecret)
        ? {
            services: options.elicitation,
            origin: addressOf(request.headers, served, byId(request)).origin,
            principal: principal ? { iss: principal.issuer, sub: principal.subject } : undefined,
          }
        : undefined;
    const context = {
      served,
      elicitation,
      // The modern era adds the request's clientCapabilities (modern.ts).
      askArguments:
        options.elicitation && served.exposition.plan.elicitMissingArguments
          ? {
              keyring: options.elicitation.keyring,
              clientCapabilities: undefined as unknown,
              principal: principal ? { iss: principal.issuer, sub: principal.subject } : undefined,
              expositionId: served.exposition.id,
            }
          : undefined,
      clientHeaders: request.headers,
      backends: options.backends,
      maxResultBytes: options.maxResultBytes,
      toolAccess: identity.mode === "oauth" ? identity.tools : undefined,
      onToolCall: (tool: string, outcome: number | ToolOutcomeWord, backendSeconds: number | undefined) => {
        metrics.toolCall(expositionLabel, tool, outcome, backendSeconds, activeTraceId());
        if (origin) audit.toolCall({ served, origin, tool, outcome, principal });
      },
      onToolCallAnswered: (tool: string, outcome: ToolCallOutcome, seconds: number, bytes: number) =>
        metrics.toolCallAnswered(expositionLabel, tool, outcome, seconds, bytes, activeTraceId()),
      caller: principal?.user,
      callerValidUntilMs: principal?.validUntilMs,
      onLimited: (refusal: LimitRefusal, tool: string | undefined) => {
        metrics.limited(expositionLabel, refusal.scope, refusal.kind);
        if (origin) audit.limited({ served, origin, refusal, tool, principal });
      },
      onFilteredBytes: (tool: string, before: number, after: number) =>
        metrics.filteredBytes(expositionLabel, tool, before, after),
      onCircuit: (event: CircuitEvent) => {
        metrics.circuit(expositionLabel, event);
        if (origin && event !== "refused") audit.circuit({ served, origin, transition: event });
      },
      // Set when the client asked for log messages and reads the answer's event stream.
      log: undefined as LogSink | undefined,
      logLevels,
      subscriptions,
    };
    const observe = (method: string, status: number) => {
      metrics.request(expositionLabel, method, status, (performance.now() - started) / 1000, activeTraceId());
    };

    if (Array.isArray(body)) {
      // Refused whole, before any of it runs, when one call names a tool the token may not use.
      try {
        for (const item of body)
          if (isJsonRpcRequest(item) && item.method === "tools/call")
            checkToolAccess(context.toolAccess, item.params?.name);
      } catch (error) {
        if (!(error instanceof AuthRefusal)) throw error;
        refusedForScope.add(reply);
        return refuse(request, reply, served, error, null, { identity, origin });
      }
      return batch(body, request, reply, served, identity, context, observe);
    }
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
    let stream: ResponseStream | undefined;
    try {
      if (isModern(message, request.headers)) {
        if (message.id === undefined) return reply.status(202).send();
        const scope = identity.mode === "none" ? "public" : "private";
        const meta = message.params?._meta as Record<string, unknown> | undefined;
        stream = responseStream(reply, meta?.progressToken, meta?.[META.logLevel], progressAfterMs);
        context.log = stream?.log;
        const result = await handleModern(message, request.headers, context, scope);
        if (result instanceof ListenRequest) {
          stream?.stop();
          if (!acceptsEventStream(request.headers.accept))
            throw new McpError(
              ERROR.invalidRequest,
              "subscriptions/listen is answered with an event stream: send Accept: text/event-stream",
              406,
            );
          subscriptions.openListenStream(
            reply,
            served,
            message.id,
            result.filter,
            streamCaller(request, served, identity),
          );
          // Counted once opened: a refusal above is counted with its own status.
          observe(message.method, 200);
          return reply;
        }
        observe(message.method, 200);
        if (stream?.finish(message.id, result)) return reply;
        return answer(request, reply, message.id, result);
      }
      if (message.method === "initialize") {
        if (message.id === undefined || message.id === null)
          throw new McpError(ERROR.invalidRequest, "initialize must be a request with an id", 400);
        const outcome = initialize(message, sessions, served.exposition, principal?.user);
        observe(message.method, 200);
        return send(reply, 200, resultResponse(message.id, outcome.result), {
          "mcp-session-id": outcome.sessionId ?? "",
        });
      }
      const session = sessionFor(request, served, identity);
      if (message.id === undefined) return reply.status(202).send(); // notifications/initialized and friends
      const meta = message.params?._meta as Record<string, unknown> | undefined;
      const sessionId = String(request.headers["mcp-session-id"]);
      const level = logLevels.get(sessionId);
      stream = responseStream(reply, meta?.progressToken, level, progressAfterMs, {
        store: replay,
        sessionId,
        primed: session.protocolVersion >= PRIMING_VERSION,
        pollAfterMs: options.ssePollAfterMs,
      });
      context.log = stream?.log;
      const result = await handleLegacy(message, session, sessionOwned(context, request));
      observe(message.method, 200);
      if (stream?.finish(message.id, result)) return reply;
      return answer(request, reply, message.id, result);
    } catch (error) {
      // An open stream has sent its 200 already: the error goes on it.
      const rpcError = rpcErrorOf(error);
      if (stream?.fail(message.id ?? null, rpcError)) {
        observe(message.method, 200);
        markRpcError(rpcError.code);
        if (!(error instanceof McpError || error instanceof AuthRefusal))
          request.log.error({ err: error }, "MCP request failed");
        return reply;
      }
      if (error instanceof AuthRefusal) {
        observe(message.method, error.status);
        if (error.reason === "missing_scope") refusedForScope.add(reply);
        return refuse(request, reply, served, error, message.id ?? null, {
          identity,
          origin,
          tool: message.params?.name,
        });
      }
      if (!(error instanceof McpError)) throw error;
      observe(message.method, error.httpStatus);
      markRpcError(error.code);
      const headers: Record<string, string> =
        error instanceof TooManyCalls ? { "retry-after": String(error.retryAfterSeconds) } : {};
      return send(reply, error.httpStatus, errorResponse(message.id, error.code, error.message, error.data), headers);
    }
  };

  /** JSON-RPC batches: only within a 2025-03-26 session. */
  const batch = async (
    messages: unknown[],
    request: FastifyRequest,
    reply: FastifyReply,
    served: ServedExposition,
    identity: ClientIdentity,
    context: Parameters<typeof handleLegacy>[2],
    observe: (method: string, status: number) => void,
  ) => {
    try {
      const session = sessionFor(request, served, identity);
      if (session.protocolVersion !== BATCHING_VERSION || messages.length === 0) {
        throw new McpError(
          ERROR.invalidRequest,
          `JSON-RPC batches are only allowed in protocol ${BATCHING_VERSION}`,
          400,
        );
      }
      const answers = await answerBatch(messages, session, sessionOwned(context, request), options.maxBatchSize);
      observe("batch", 200);
      return answers.length > 0 ? send(reply, 200, answers) : reply.status(202).send();
    } catch (error) {
      if (error instanceof AuthRefusal) return refuse(request, reply, served, error, null, { identity });
      if (!(error instanceof McpError)) throw error;
      observe("batch", error.httpStatus);
      return send(reply, error.httpStatus, errorResponse(null, error.code, error.message));
    }
  };

  /** No session: nothing to end and no stream to offer (clients tolerate 405). */
  const notAllowed = (reply: FastifyReply) =>
    send(
      reply,
      405,
      errorResponse(
        null,
        ERROR.badRequest,
        "Method Not Allowed: this endpoint takes POST (DELETE ends a 2025 session, GET opens its notification stream)",
      ),
      { allow: ALLOW },
    );

  /** A DELETE or GET of a 2025 session: route, client and session checked, then `act`. */
  const sessionRoute =
    (
      act: (
        request: FastifyRequest,
        reply: FastifyReply,
        served: ServedExposition,
        sessionId: string,
        identity: ClientIdentity,
      ) => unknown,
    ) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const served = lookup(request);
      const refused = refusal(request, served);
      if (refused || !served)
        return send(
          reply,
          refused?.status ?? 404,
          errorResponse(null, ERROR.invalidRequest, refused?.message ?? "Not found"),
        );
      const origin = served.exposition.plan.audit ? originOf(request) : undefined;
      const identity = await identify(request, reply, served, null, origin);
      if (!identity) return reply;
      const sessionId = request.headers["mcp-session-id"];
      if (sessionId === undefined) return notAllowed(reply);
      try {
        sessionFor(request, served, identity);
        return act(request, reply, served, String(sessionId), identity);
      } catch (error) {
        if (error instanceof AuthRefusal) return refuse(request, reply, served, error, null, { identity, origin });
        if (!(error instanceof McpError)) throw error;
        return send(reply, error.httpStatus, errorResponse(null, error.code, error.message));
      }
    };

  const remove = sessionRoute((_request, reply, _served, sessionId) => {
    sessions.end(sessionId);
    logLevels.forget(sessionId);
    subscriptions.forget(sessionId);
    replay.forgetSession(sessionId);
    return reply.status(200).send();
  });

  /**
   * A 2025 session's stream of server notifications: list changes and updates of subscribed
   * resources; with `Last-Event-ID`, the rest of an answer stream the client lost (stream-replay.ts).
   */
  const get = sessionRoute((request, reply, served, sessionId, identity) => {
    if (!acceptsEventStream(request.headers.accept))
      throw new McpError(ERROR.badRequest, "Not Acceptable: the GET stream is text/event-stream", 406);
    const lastEventId = request.headers["last-event-id"];
    if (typeof lastEventId === "string" && lastEventId !== "") {
      replay.resume(reply.raw, sessionId, lastEventId);
      reply.hijack();
      return reply;
    }
    subscriptions.openSessionStream(reply, served, sessionId, streamCaller(request, served, identity));
    return reply;
  });

  /** RFC 9728 metadata of an OAuth-protected endpoint, at the path-inserted well-known URL; 404 for others. */
  const resourceMetadata = async (request: FastifyRequest, reply: FastifyReply) => {
    const served = lookup(request);
    const refused = refusal(request, served);
    if (refused || !served?.exposition.plan.oauth) {
      return send(reply, refused?.status ?? 404, {
        error: "not_found",
        error_description: refused?.message ?? "No OAuth-protected MCP endpoint at this path",
      });
    }
    const address = addressOf(request.headers, served, byId(request));
    const jwksUri = await options.auth.jwksUriOf(served);
    // Browser-based clients read it from another origin.
    return send(reply, 200, protectedResourceMetadata(served, address, jwksUri), {
      "access-control-allow-origin": "*",
      "cache-control": "max-age=300",
    });
  };

  // Tracing is decided at start (OTEL_EXPORTER_OTLP_ENDPOINT): without it, not even a wrapper.
  const traced = tracing();
  const postHandler = traced ? tracedRequests(traced, lookup, post) : post;
  for (const path of PATHS) {
    app.post(path, postHandler);
    app.delete(path, remove);
    app.get(path, get);
    app.get(`${METADATA_PREFIX}${path}`, resourceMetadata);
  }
}

/** Priming events (with no data) only from this version: older clients fail on them. */
const PRIMING_VERSION = "2025-11-25";

/** What an error says on a stream: refusals and MCP errors as they are, anything else as an internal error. */
function rpcErrorOf(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof McpError) return error;
  if (error instanceof AuthRefusal) return { code: ERROR.invalidRequest, message: error.message };
  return { code: ERROR.internal, message: "Internal error" };
}

/** 2025 eras without OAuth: an elicited credential belongs to the MCP session (its id, checked before). */
function sessionOwned<T extends { elicitation?: ElicitationCall }>(context: T, request: FastifyRequest): T {
  const elicitation = context.elicitation;
  if (!elicitation || elicitation.principal) return context;
  const sessionId = String(request.headers["mcp-session-id"]);
  return { ...context, elicitation: { ...elicitation, principal: { sessionId } } };
}

/** A result answered with 200; a pre-serialized one is written as cached bytes, gzip-encoded when the client accepts it. */
function answer(request: FastifyRequest, reply: FastifyReply, id: JsonRpcId, result: unknown) {
  if (!(result instanceof SerializedResult)) return send(reply, 200, resultResponse(id, result));
  const { chunks, length, gzip } = result.answer(id, acceptsGzip(request.headers["accept-encoding"]));
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": length,
    // Beside a CORS Vary: Origin already set on the raw response.
    vary: [reply.raw.getHeader("vary"), "accept-encoding"].filter(Boolean).join(", "),
  };
  if (gzip) headers["content-encoding"] = "gzip";
  // Straight to the socket: fastify would copy megabytes into one string or buffer first.
  reply.hijack();
  reply.raw.writeHead(200, headers);
  for (const chunk of chunks) reply.raw.write(chunk);
  reply.raw.end();
  return reply;
}
