/**
 * The operator's small HTTP server: liveness, readiness (caches synced; a standby replica is
 * ready too: it takes over when the leader goes) and Prometheus metrics.
 */
import { traceLogOptions } from "@atrium/contract/telemetry";
import Fastify, { type FastifyInstance } from "fastify";
import type { OperatorMetrics } from "./metrics.ts";

export interface HealthState {
  /** Every informer has listed once. */
  synced(): boolean;
  leader(): boolean;
}

export function buildHealthServer(options: {
  logLevel: string;
  logFile?: string;
  metrics: OperatorMetrics;
  state: HealthState;
}) {
  // With tracing on, the log lines of a reconcile carry its trace_id and span_id.
  const app: FastifyInstance = Fastify({
    logger: { level: options.logLevel, file: options.logFile, ...traceLogOptions() },
  });
  app.get("/q/health/live", async () => ({ status: "UP" }));
  app.get("/q/health/ready", async (_request, reply) => {
    const synced = options.state.synced();
    return reply
      .status(synced ? 200 : 503)
      .send({ status: synced ? "UP" : "DOWN", checks: { cachesSynced: synced, leader: options.state.leader() } });
  });
  app.get("/q/metrics", async (_request, reply) => {
    const text = await options.metrics.registry.metrics();
    return reply.type(options.metrics.registry.contentType).send(text);
  });
  return app;
}
