/**
 * GET /api/v1/info: the control plane's runtime version (shown by `atrium info`).
 */
import { infoView } from "@atrium/contract/rest";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";

export const infoRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get("/info", { schema: { response: { 200: infoView } } }, async (request) => ({
    version: context.version,
    node: process.versions.node,
    database: context.database.kind,
    organizationId: request.principal.organizationId,
  }));
};
