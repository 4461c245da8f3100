/**
 * The gateway's HTTP servers. The public one on port 7777: MCP endpoints, the elicitation page
 * (on gateways with a cluster key), readiness and liveness (where the specification puts
 * them). The management one, on its own port and loopback by default: metrics and health
 * again, for Prometheus and the kubelet. Metrics never reach the public listener, which answers
 * 404 for /q/metrics: they name Expositions and count their traffic.
 *
 * Both listeners close requests whose headers or body arrive too slowly and cap the connections
 * one client address holds (@atrium/contract/listener).
 */
import { capConnectionsPerAddress, closeUnusedOnShutdown, slowClientOptions } from "@atrium/contract/listener";
import { attachManagementListener } from "@atrium/contract/management";
import { traceLogOptions } from "@atrium/contract/telemetry";
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import { AuditLog } from "./audit.ts";
import { BearerVerifiers } from "./auth/bearer.ts";
import { ClientAuthenticator } from "./auth/client-auth.ts";
import { DEFAULT_ISSUER_KEY_OPTIONS } from "./auth/issuer-keys.ts";
import type { Backends } from "./backend.ts";
import type { GatewayConfig } from "./config.ts";
import type { ElicitationServices } from "./elicitation/flow.ts";
import { elicitationPage } from "./elicitation/page.ts";
import { ElicitationSignIn } from "./elicitation/sign-in.ts";
import { closeUnusedChannels } from "./grpc/channel-sweep.ts";
import { mcpEndpoints } from "./mcp/endpoint.ts";
import type { SessionSigner } from "./mcp/sessions.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { formatFor } from "./metrics-format.ts";
import type { ExpositionRegistry } from "./registry.ts";

export interface GatewayParts {
  config: Pick<
    GatewayConfig,
    | "bodyLimitBytes"
    | "maxResultBytes"
    | "logLevel"
    | "logFile"
    | "allowedHosts"
    | "corsOrigins"
    | "managementHost"
    | "managementPort"
    | "maxBatchSize"
    | "headersTimeoutMs"
    | "requestTimeoutMs"
    | "maxConnectionsPerAddress"
  > &
    Partial<Pick<GatewayConfig, "progressAfterMs" | "ssePollAfterMs">>;
  registry: ExpositionRegistry;
  backends: Backends;
  sessions: SessionSigner;
  metrics: GatewayMetrics;
  version: string;
  /** Readiness: initial control-plane connectivity established. */
  isReady: () => boolean;
  /** Client authentication; by default OAuth with the default key-set settings. */
  auth?: ClientAuthenticator;
  /** Where audit events go; by default standard output. */
  audit?: AuditLog;
  /** The elicited-credential flow (and its page), on gateways with a cluster key. */
  elicitation?: ElicitationServices;
  /** Where the log goes; by default standard output (tests read it). */
  logStream?: NodeJS.WritableStream;
  /** Shown with readiness, never changing it: how current the configuration is, what was not served. */
  readinessDetails?: () => Record<string, unknown>;
}

/** Where the management listener of a server built here listens (after `listen` or `ready`). */
export { managementUrl } from "@atrium/contract/management";

export async function buildGatewayServer(parts: GatewayParts): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions(parts),
    bodyLimit: parts.config.bodyLimitBytes,
    // The hot path: request logging costs more than the rest of a proxied call.
    logController: new LogController({ disableRequestLogging: true }),
  });
  capConnectionsPerAddress(app.server, parts.config.maxConnectionsPerAddress);
  closeUnusedOnShutdown(app);
  // The root logger serves every request: a pino child per request (for its reqId binding)
  // costs more than the rest of fastify's routing, and requests are rarely logged — the few
  // log lines that concern one name its reqId themselves.
  app.setChildLoggerFactory((logger) => logger);
  parts.backends.setLogger(app.log);
  closeUnusedChannels(parts.registry, parts.backends.grpc);
  healthRoutes(app, parts);
  const auth =
    parts.auth ?? new ClientAuthenticator(new BearerVerifiers({ ...DEFAULT_ISSUER_KEY_OPTIONS, cacheSize: 10_000 }));
  await app.register(async (mcp) =>
    mcpEndpoints(mcp, {
      ...parts,
      maxResultBytes: parts.config.maxResultBytes,
      allowedHosts: parts.config.allowedHosts,
      corsOrigins: parts.config.corsOrigins,
      maxBatchSize: parts.config.maxBatchSize,
      progressAfterMs: parts.config.progressAfterMs,
      ssePollAfterMs: parts.config.ssePollAfterMs,
      auth,
      audit: parts.audit ?? new AuditLog(),
    }),
  );
  const { elicitation } = parts;
  if (elicitation)
    await app.register(async (page) =>
      elicitationPage(page, {
        services: elicitation,
        exposition: (id) => parts.registry.byId(id)?.exposition,
        // The endpoints' issuer keys: one discovery and key cache per issuer.
        signIn: new ElicitationSignIn(elicitation.keyring, (issuer, jwksUri) => auth.issuerKeys(issuer, jwksUri)),
      }),
    );

  attachManagementListener(app, buildManagementServer(parts), parts.config);
  return app;
}

/** Metrics and health, for Prometheus and probes; not the MCP clients' business. */
function buildManagementServer(parts: GatewayParts): FastifyInstance {
  const app = Fastify({ ...serverOptions(parts), logController: new LogController({ disableRequestLogging: true }) });
  capConnectionsPerAddress(app.server, parts.config.maxConnectionsPerAddress);
  closeUnusedOnShutdown(app);
  healthRoutes(app, parts);
  app.get("/q/metrics", async (request, reply) => {
    // OpenMetrics (with exemplars) when the scraper asks for it, else the Prometheus text format.
    const format = formatFor(request.headers.accept);
    return reply.type(format.contentType).send(parts.metrics.render(format));
  });
  return app;
}

function healthRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get("/q/health/live", async () => ({ status: "UP", version: parts.version }));
  app.get("/q/health/ready", async (_request, reply) => {
    const ready = parts.isReady();
    return reply.status(ready ? 200 : 503).send({
      status: ready ? "UP" : "DOWN",
      expositions: parts.registry.size,
      ...parts.readinessDetails?.(),
    });
  });
}

function serverOptions(parts: GatewayParts): FastifyServerOptions {
  return {
    ...slowClientOptions(parts.config),
    logger: {
      level: parts.config.logLevel,
      // With tracing on, each line written within a request names its trace and span.
      ...traceLogOptions(),
      ...(parts.logStream ? { stream: parts.logStream } : { file: parts.config.logFile }),
      // Client credentials never reach the log.
      redact: ["req.headers.authorization", 'req.headers["x-atrium-key"]', "req.headers.cookie"],
      // Nor do query strings, which may carry them.
      serializers: {
        req: (request: { method: string; url: string }) => ({ method: request.method, url: withoutQuery(request.url) }),
      },
    },
    return503OnClosing: true,
  };
}

function withoutQuery(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
