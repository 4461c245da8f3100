/**
 * POST /api/v1/gateways/:id/ended-sessions — a gateway reports 2025-era sessions clients ended
 * on it (by SHA-256 of their ids), in batches, so the change stream makes every gateway serving
 * the Exposition refuse them until they expire. Recorded as one change per batch, at most
 * ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE per Exposition. See docs/change-stream.md.
 */

import { endedSessionsReport, SESSION_TTL_SECONDS } from "@atrium/contract";
import { gatewayParams } from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import { gateways } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { recordEndedSessions } from "../stream/ended-sessions.ts";

/** Tolerated clock difference between a gateway and the control plane. */
const CLOCK_SKEW_SECONDS = 300;

export const endedSessionRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  app.post(
    "/gateways/:id/ended-sessions",
    {
      schema: { params: gatewayParams, body: endedSessionsReport },
      // Gateways that predate batches send one bare session: read it as a batch of one.
      preValidation: async (request) => {
        const body = request.body;
        if (body && typeof body === "object" && !Array.isArray(body) && !("endedSessions" in body)) {
          request.body = { endedSessions: [body] } as typeof request.body;
        }
      },
    },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const [gateway] = await db
        .select({ id: gateways.id })
        .from(gateways)
        .where(and(eq(gateways.organizationId, organizationId), eq(gateways.id, request.params.id)));
      if (!gateway) throw errors.notFound("Gateway registration", request.params.id);
      // Rows live until `expiresAt`: a session cannot outlive its TTL, so neither may they.
      const latest = Date.now() + (SESSION_TTL_SECONDS + CLOCK_SKEW_SECONDS) * 1000;
      const tooLate = request.body.endedSessions.findIndex((ended) => Date.parse(ended.expiresAt) > latest);
      if (tooLate >= 0) {
        throw errors.invalidField(
          `body.endedSessions.${tooLate}.expiresAt`,
          `must be at most ${SESSION_TTL_SECONDS / 3600} h from now: sessions expire that long after they are issued`,
        );
      }
      const { recorded, dropped } = await recordEndedSessions(db, organizationId, request.body.endedSessions);
      // 204 when everything was taken; the counts when the cap dropped some (the gateway keeps refusing those itself).
      if (dropped === 0) return reply.status(204).send();
      return reply.status(200).send({ recorded, dropped });
    },
  );
};
