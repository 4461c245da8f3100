/**
 * Counts every request of a fastify server in the control plane's metrics, under its route
 * pattern: at the end of its connection's use rather than in onResponse, so that requests the
 * authentication hook refuses, change streams a gateway drops, and clients that leave early are
 * counted too.
 */
import type { FastifyInstance } from "fastify";
import type { ControlPlaneMetrics } from "./metrics.ts";

/** Register before any other onRequest hook: one that throws skips the hooks after it. */
export function countRequests(app: FastifyInstance, metrics: ControlPlaneMetrics): void {
  app.addHook("onRequest", async (request, reply) => {
    const started = performance.now();
    reply.raw.once("close", () => {
      metrics.request(
        request.method,
        request.routeOptions.url,
        reply.raw.statusCode,
        reply.raw.headersSent,
        (performance.now() - started) / 1000,
      );
    });
  });
}
