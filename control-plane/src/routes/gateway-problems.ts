/**
 * PUT /api/v1/gateways/:id/problems — a gateway reports the Expositions it received but does not
 * serve (refused by the contract, failed to compile, a backend secret outside its environment
 * allow-list), as its whole current set: what it no longer lists is cleared. The Exposition's
 * REST view shows them; they go with the gateway's registration or the Exposition. See
 * docs/change-stream.md.
 */

import { gatewayProblemsReport } from "@atrium/contract";
import { type ExpositionProblemView, gatewayParams } from "@atrium/contract/rest";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import type { Db } from "../db/database.ts";
import { expositions, gatewayProblems, gateways } from "../db/schema.ts";
import { errors } from "../errors.ts";

/** The problems gateways reported for an organization's Expositions, by Exposition id. */
export async function problemsByExposition(
  db: Db,
  organizationId: string,
  expositionIds: string[],
): Promise<Map<string, ExpositionProblemView[]>> {
  const byExposition = new Map<string, ExpositionProblemView[]>();
  if (expositionIds.length === 0) return byExposition;
  const rows = await db
    .select()
    .from(gatewayProblems)
    .where(
      and(eq(gatewayProblems.organizationId, organizationId), inArray(gatewayProblems.expositionId, expositionIds)),
    )
    .orderBy(gatewayProblems.gatewayId);
  for (const row of rows) {
    const list = byExposition.get(row.expositionId) ?? [];
    list.push({ gatewayId: row.gatewayId, message: row.message, at: row.reportedAt.toISOString() });
    byExposition.set(row.expositionId, list);
  }
  return byExposition;
}

export const gatewayProblemRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  app.put(
    "/gateways/:id/problems",
    { schema: { params: gatewayParams, body: gatewayProblemsReport } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const { id } = request.params;
      const { instanceId, problems } = request.body;
      await db.transaction(async (tx) => {
        const [gateway] = await tx
          .select({ id: gateways.id })
          .from(gateways)
          .where(
            and(eq(gateways.organizationId, organizationId), eq(gateways.id, id), eq(gateways.instanceId, instanceId)),
          );
        // Unknown or taken over: like a refused health advertisement, the gateway registers again.
        if (!gateway) throw errors.notFound("Gateway registration", id);
        const listed = [...new Map(problems.map((problem) => [problem.expositionId, problem])).values()];
        // Only the organization's own Expositions: one deleted meanwhile is simply not kept.
        const existing = listed.length
          ? await tx
              .select({ id: expositions.id })
              .from(expositions)
              .where(
                and(
                  eq(expositions.organizationId, organizationId),
                  inArray(
                    expositions.id,
                    listed.map((problem) => problem.expositionId),
                  ),
                ),
              )
          : [];
        const known = new Set(existing.map((row) => row.id));
        const kept = listed.filter((problem) => known.has(problem.expositionId));
        const ofGateway = and(eq(gatewayProblems.organizationId, organizationId), eq(gatewayProblems.gatewayId, id));
        await tx.delete(gatewayProblems).where(
          kept.length
            ? and(
                ofGateway,
                notInArray(
                  gatewayProblems.expositionId,
                  kept.map((problem) => problem.expositionId),
                ),
              )
            : ofGateway,
        );
        if (kept.length === 0) return;
        await tx
          .insert(gatewayProblems)
          .values(kept.map((problem) => ({ organizationId, gatewayId: id, ...problem })))
          .onConflictDoUpdate({
            target: [gatewayProblems.organizationId, gatewayProblems.gatewayId, gatewayProblems.expositionId],
            set: {
              message: sql`excluded.message`,
              // A problem reported again keeps the time it was first seen.
              reportedAt: sql`case when ${gatewayProblems.message} = excluded.message then ${gatewayProblems.reportedAt} else now() end`,
            },
          });
      });
      return reply.status(204).send();
    },
  );
};
