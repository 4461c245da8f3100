/**
 * The gateway's HTTP server on port 7777: MCP endpoints, readiness, liveness and metrics.
 */
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { Backends } from "./backend.ts";
import type { GatewayConfig } from "./config.ts";
import { mcpEndpoints } from "./mcp/endpoint.ts";
import type { SessionSigner } from "./mcp/sessions.ts";
import { type GatewayMetrics, METRICS_CONTENT_TYPE } from "./metrics.ts";
import type { ExpositionRegistry } from "./registry.ts";

export interface GatewayParts {
  config: Pick<GatewayConfig, "bodyLimitBytes" | "maxResultBytes" | "logLevel" | "allowedHosts">;
  registry: ExpositionRegistry;
  backends: Backends;
  sessions: SessionSigner;
  metrics: GatewayMetrics;
  version: string;
  /** Readiness: initial control-plane connectivity established. */
  isReady: () => boolean;
}

export async function buildGatewayServer(parts: GatewayParts): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: parts.config.logLevel,
      // Client credentials never reach the log.
      redact: ["req.headers.authorization", 'req.headers["x-atrium-key"]', "req.headers.cookie"],
    },
    bodyLimit: parts.config.bodyLimitBytes,
    return503OnClosing: true,
    // The hot path: request logging costs more than the rest of a proxied call.
    logController: new LogController({ disableRequestLogging: true }),
  });
  // The root logger serves every request: a pino child per request (for its reqId binding)
  // costs more than the rest of fastify's routing, and requests are rarely logged — the few
  // log lines that concern one name its reqId themselves.
  app.setChildLoggerFactory((logger) => logger);
  app.get("/q/health/live", async () => ({ status: "UP", version: parts.version }));
  app.get("/q/health/ready", async (_request, reply) => {
    const ready = parts.isReady();
    return reply.status(ready ? 200 : 503).send({ status: ready ? "UP" : "DOWN", expositions: parts.registry.size });
  });
  app.get("/q/metrics", async (_request, reply) => reply.type(METRICS_CONTENT_TYPE).send(parts.metrics.render()));
  await app.register(async (mcp) =>
    mcpEndpoints(mcp, {
      ...parts,
      maxResultBytes: parts.config.maxResultBytes,
      allowedHosts: parts.config.allowedHosts,
    }),
  );
  return app;
}
