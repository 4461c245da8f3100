/**
 * POST /api/v1/gateways/:id/ended-sessions — a gateway reports a 2025-era session a client
 * ended on it (by SHA-256 of its id), so the change stream makes every gateway serving the
 * Exposition refuse it until it expires. See docs/change-stream.md.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { gateways } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { endedSession, gatewayId, SESSION_TTL_SECONDS } from "../stream/contract.ts";
import { recordEndedSession } from "../stream/ended-sessions.ts";

/** Tolerated clock difference between a gateway and the control plane. */
const CLOCK_SKEW_SECONDS = 300;

export const endedSessionRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  app.post(
    "/gateways/:id/ended-sessions",
    { schema: { params: z.object({ id: gatewayId }), body: endedSession } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const [gateway] = await db
        .select({ id: gateways.id })
        .from(gateways)
        .where(and(eq(gateways.organizationId, organizationId), eq(gateways.id, request.params.id)));
      if (!gateway) throw errors.notFound("Gateway registration", request.params.id);
      // Rows live until `expiresAt`: a session cannot outlive its TTL, so neither may they.
      if (Date.parse(request.body.expiresAt) > Date.now() + (SESSION_TTL_SECONDS + CLOCK_SKEW_SECONDS) * 1000) {
        throw errors.invalidField(
          "body.expiresAt",
          `must be at most ${SESSION_TTL_SECONDS / 3600} h from now: sessions expire that long after they are issued`,
        );
      }
      await recordEndedSession(db, organizationId, request.body);
      return reply.status(204).send();
    },
  );
};
