/**
 * GET /api/v1/info: the control plane's runtime version (shown by `atrium info`).
 */
import type { FastifyPluginAsync } from "fastify";
import type { AppContext } from "../context.ts";

export const infoRoutes: FastifyPluginAsync<{ context: AppContext }> = async (app, { context }) => {
  app.get("/info", async (request) => ({
    version: context.version,
    node: process.versions.node,
    database: context.database.kind,
    organizationId: request.principal.organizationId,
  }));
};
