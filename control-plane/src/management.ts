/**
 * The control plane's management listener (ATRIUM_MANAGEMENT_HOST / ATRIUM_MANAGEMENT_PORT, off
 * unless the port is set): /q/metrics for Prometheus, and the health endpoints again for probes.
 * The API port never serves /q/metrics (it answers 404).
 */
import { capConnectionsPerAddress, slowClientOptions } from "@atrium/contract/listener";
import Fastify, { type FastifyInstance, LogController } from "fastify";
import type { AppContext } from "./context.ts";
import { healthRoutes } from "./routes/health.ts";

export async function buildManagementServer(context: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: context.config.logLevel, file: context.config.logFile },
    ...slowClientOptions(context.config),
    return503OnClosing: true,
    // A scrape every few seconds is no news for the log.
    logController: new LogController({ disableRequestLogging: true }),
  });
  capConnectionsPerAddress(app.server, context.config.maxConnectionsPerAddress);
  await app.register(healthRoutes, { context });
  app.get("/q/metrics", async (_request, reply) => {
    const { text, contentType } = await context.metrics.render();
    return reply.type(contentType).send(text);
  });
  return app;
}
