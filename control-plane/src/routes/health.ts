/**
 * /q/health/live (the process answers) and /q/health/ready (UP only when the database is
 * reachable and fully migrated).
 */
import type { FastifyPluginAsync } from "fastify";
import type { AppContext } from "../context.ts";
import { isMigrated } from "../db/database.ts";

export const healthRoutes: FastifyPluginAsync<{ context: AppContext }> = async (app, { context }) => {
  app.get("/q/health/live", async () => ({ status: "UP", version: context.version }));
  app.get("/q/health/ready", async (_request, reply) => {
    const ready = await isMigrated(context.database);
    return reply
      .status(ready ? 200 : 503)
      .send({ status: ready ? "UP" : "DOWN", checks: [{ name: "database", status: ready ? "UP" : "DOWN" }] });
  });
};
