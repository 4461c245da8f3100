/**
 * Builds the control plane's HTTP server: error rendering, authentication, and the routes.
 * Everything under /api/v1 needs a bearer token except login and the OpenAPI document, and
 * each route is allowed to the roles auth/access-rules.ts lists. Metrics are served apart, on the
 * management listener (management.ts) when one is configured. With ATRIUM_UI_DIR, the web UI is
 * served at `/` (ui-files.ts).
 */

import { capConnectionsPerAddress, closeUnusedOnShutdown, slowClientOptions } from "@atrium/contract/listener";
import { attachManagementListener } from "@atrium/contract/management";
import { traceLogOptions } from "@atrium/contract/telemetry";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { jsonSchemaTransform, serializerCompiler } from "fastify-type-provider-zod";
import { authorize, PUBLIC, ruleOf } from "./auth/access-rules.ts";
import { authenticate, bearerToken } from "./auth/principal.ts";
import type { AppContext } from "./context.ts";
import { isDatabaseUnavailable } from "./db/unavailable.ts";
import { refuseDeepJsonBodies } from "./deep-json-bodies.ts";
import { ApiError, errors } from "./errors.ts";
import { serializeError, serializeRequest, withoutQuery, withoutServerPaths } from "./log-hygiene.ts";
import { buildManagementServer } from "./management.ts";
import { countRequests } from "./metrics-http.ts";
import { withProblemAnswers } from "./openapi-problems.ts";
import { traceRequests } from "./request-tracing.ts";
import { validatorCompiler } from "./request-validation.ts";
import { apiTokenRoutes } from "./routes/api-tokens.ts";
import { configurationPlanRoutes } from "./routes/configuration-plans.ts";
import { elicitationRoutes } from "./routes/elicitations.ts";
import { elicitedCredentialRoutes } from "./routes/elicited-credentials.ts";
import { endedSessionRoutes } from "./routes/ended-sessions.ts";
import { expositionRoutes } from "./routes/expositions.ts";
import { gatewayGroupRoutes } from "./routes/gateway-groups.ts";
import { gatewayProblemRoutes } from "./routes/gateway-problems.ts";
import { gatewayRoutes } from "./routes/gateways.ts";
import { healthRoutes } from "./routes/health.ts";
import { infoRoutes } from "./routes/info.ts";
import { loginRoutes } from "./routes/login.ts";
import { organizationRoutes } from "./routes/organizations.ts";
import { secretRoutes } from "./routes/secrets.ts";
import { serviceArtifactRoutes } from "./routes/service-artifacts.ts";
import { serviceRoutes } from "./routes/services.ts";
import { streamRoutes } from "./routes/stream.ts";
import { findNulCharacter } from "./text-fields.ts";
import { readUiBundle, uiRoutes } from "./ui-files.ts";

/** Deepest nesting of objects and arrays in a JSON request body (JSON Schemas in CustomTools included). */
const MAX_BODY_DEPTH = 128;
/** Longest path parameter the router matches (fastify's default, said in the error). */
const MAX_PARAM_LENGTH = 100;

export async function buildServer(context: AppContext): Promise<FastifyInstance> {
  // Read before anything listens: a wrong ATRIUM_UI_DIR stops the start with what to fix.
  const uiBundle =
    context.config.uiDir === undefined
      ? undefined
      : readUiBundle(context.config.uiDir, context.config.uiGatewayOrigins);
  const app = Fastify({
    logger: {
      level: context.config.logLevel,
      file: context.config.logFile,
      // Credentials, query strings and query parameters never reach the log (log-hygiene.ts).
      redact: ["req.headers.authorization", 'req.headers["x-atrium-key"]', "req.headers.cookie"],
      serializers: { err: serializeError, req: serializeRequest },
      // With tracing on, each line names the request's trace_id and span_id.
      ...traceLogOptions(),
    },
    bodyLimit: context.config.bodyLimitBytes,
    return503OnClosing: true,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // What the router refuses before any route (a bad %-encoding, a path parameter too long)
    // gets the same problem document as everything else, not fastify's own JSON.
    frameworkErrors: (error, request, reply) => sendProblem(toApiError(error), request, reply),
    // Slow clients: a request whose headers or body never finish is closed (listener.ts).
    ...slowClientOptions(context.config),
  });
  // First: every later hook (authentication's database calls among them) runs in the request's span.
  traceRequests(app);
  capConnectionsPerAddress(app.server, context.config.maxConnectionsPerAddress);
  closeUnusedOnShutdown(app);
  countRequests(app, context.metrics);
  // Deeper bodies would overflow the stack of the validators that walk them: a 400, never a 500.
  refuseDeepJsonBodies(app, MAX_BODY_DEPTH, () =>
    errors.invalidField("body", `nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels`),
  );
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  function sendProblem(apiError: ApiError, request: FastifyRequest, reply: FastifyReply): void {
    reply
      .status(apiError.status)
      .headers(apiError.headers)
      .type("application/problem+json")
      .send(clientProblem(apiError, request.url, context.config.dataDir));
  }
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error as FastifyError);
    if (apiError.status >= 500) request.log.error({ err: error }, "request failed");
    sendProblem(apiError, request, reply);
  });
  app.setNotFoundHandler((request, reply) => {
    sendProblem(errors.routeNotFound(request.method, withoutQuery(request.url)), request, reply);
  });

  await app.register(swagger, {
    openapi: {
      info: { title: "Atrium control plane", version: context.version },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: withProblemAnswers,
  });

  app.decorateRequest("principal", undefined as never);
  app.addHook("onRequest", async (request) => {
    const path = request.routeOptions.url ?? "";
    if (!path.startsWith("/api/v1/") || ruleOf(request.method, path) === PUBLIC) return;
    request.principal = await authenticate(context.database.db, bearerToken(request));
    authorize(request.principal, request.method, path);
  });
  // Before any route's validation: one check for characters the database cannot store.
  app.addHook("preValidation", async (request) => {
    const problem =
      findNulCharacter(request.params, "params") ??
      findNulCharacter(request.query, "querystring") ??
      findNulCharacter(request.body, "body");
    if (problem) throw errors.invalidRequest([problem]);
  });

  await app.register(healthRoutes, { context });
  await app.register(
    async (api) => {
      api.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
      await api.register(loginRoutes, { context });
      await api.register(infoRoutes, { context });
      await api.register(organizationRoutes, { context });
      await api.register(apiTokenRoutes, { context });
      await api.register(secretRoutes, { context });
      await api.register(serviceRoutes, { context });
      await api.register(serviceArtifactRoutes, { context });
      await api.register(gatewayGroupRoutes, { context });
      await api.register(configurationPlanRoutes, { context });
      await api.register(expositionRoutes, { context });
      await api.register(gatewayRoutes, { context });
      await api.register(endedSessionRoutes, { context });
      await api.register(elicitedCredentialRoutes, { context });
      await api.register(elicitationRoutes, { context });
      await api.register(gatewayProblemRoutes, { context });
      await api.register(streamRoutes, { context, hub: context.hub });
    },
    { prefix: "/api/v1" },
  );
  if (uiBundle) await app.register(uiRoutes, { bundle: uiBundle });
  const { managementHost, managementPort } = context.config;
  if (managementPort !== undefined) {
    attachManagementListener(app, await buildManagementServer(context), { managementHost, managementPort });
  }
  return app;
}

/** The problem document a client sees: no query string, no path of the server's disk. */
function clientProblem(apiError: ApiError, url: string, dataDir: string) {
  const problem = apiError.toProblem(withoutQuery(url));
  return {
    ...problem,
    detail: withoutServerPaths(problem.detail, [dataDir]),
    ...(problem.errors
      ? { errors: problem.errors.map((e) => ({ ...e, message: withoutServerPaths(e.message, [dataDir]) })) }
      : {}),
  };
}

/** Maps anything thrown to the problem the client sees; unknown errors become a logged 500. */
function toApiError(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return errors.malformedBody(error.message);
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return errors.bodyTooLarge(Number(error.message.match(/\d+/)?.[0] ?? 0));
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return errors.unsupportedMediaType(error.message.split(": ").pop());
    case "FST_ERR_BAD_URL":
      return errors.badUrl();
    case "FST_ERR_MAX_PARAM_LENGTH":
      return errors.pathParameterTooLong(MAX_PARAM_LENGTH);
  }
  const database = databaseError(error);
  if (database) return database;
  if (isDatabaseUnavailable(error)) return errors.databaseUnavailable();
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(error.statusCode, error.code ?? "BAD_REQUEST", error.message);
  }
  return errors.internal();
}

/** PostgreSQL constraint violations that a request can cause are the client's to fix. */
function databaseError(error: unknown): ApiError | undefined {
  const cause = (error as { cause?: { code?: string; detail?: string } }).cause ?? (error as { code?: string });
  const code = (cause as { code?: string }).code;
  if (code === "23505") return errors.conflict("A record with the same name already exists in this organization");
  // 23001 restrict_violation, 23503 foreign_key_violation.
  if (code === "23001" || code === "23503") {
    return errors.conflict("The record is still used by others (such as Expositions of a plan): delete those first");
  }
  // Input the checks before the database missed: still the client's to fix, never a 500.
  // 22021 character_not_in_repertoire, 22P05 untranslatable_character.
  if (code === "22021" || code === "22P05") {
    return errors.invalidField("body", "holds a character the database cannot store (such as \\u0000)");
  }
  // 22003 numeric_value_out_of_range.
  if (code === "22003") return errors.invalidField("body", "holds a number out of range (ids are at most 2147483647)");
  return undefined;
}
