/**
 * /api/v1/elicitations — pending elicitations, the records behind elicitation page URLs (issue
 * 15; the gateways' elicitation flow and page). Gateway tokens only, scoped to the token's
 * organization. A gateway records one when it asks a user for a credential, under the SHA-256 of
 * the elicitation id; any replica reads it to show the page and consumes it when the form is
 * accepted: one conditional update, so a second submit fails on every replica. Expired rows of
 * an Exposition are removed as new ones are written; at most PENDING_ELICITATIONS_PER_EXPOSITION
 * are pending at once, and at most PENDING_ELICITATIONS_PER_USER of one user (so that one user's
 * calls cannot keep the others from being asked).
 */
import {
  ELICITATION_MAX_TTL_SECONDS,
  elicitationParams,
  elicitationView,
  newElicitation,
  PENDING_ELICITATIONS_PER_EXPOSITION,
  PENDING_ELICITATIONS_PER_USER,
} from "@atrium/contract/rest";
import { and, count, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import { elicitations, expositions } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { found } from "./records.ts";

/** Tolerated clock difference between a gateway and the control plane. */
const CLOCK_SKEW_SECONDS = 60;

type Row = typeof elicitations.$inferSelect;
const viewOf = (row: Row) => ({
  idHash: row.idHash,
  expositionId: row.expositionId,
  principal: row.principal,
  tool: row.tool,
  expiresAt: row.expiresAt.toISOString(),
  usedAt: row.usedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

export const elicitationRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const byHash = (organizationId: string, idHash: string) =>
    and(eq(elicitations.organizationId, organizationId), eq(elicitations.idHash, idHash));

  app.post(
    "/elicitations",
    { schema: { body: newElicitation, response: { 201: elicitationView } } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const { idHash, expositionId, principal, tool, expiresAt } = request.body;
      const expires = new Date(expiresAt);
      const now = Date.now();
      if (
        expires.getTime() <= now ||
        expires.getTime() > now + (ELICITATION_MAX_TTL_SECONDS + CLOCK_SKEW_SECONDS) * 1000
      )
        throw errors.invalidField(
          "body.expiresAt",
          `must be in the future and at most ${ELICITATION_MAX_TTL_SECONDS / 60} minutes from now`,
        );
      const created = await db.transaction(async (tx) => {
        // Locks the Exposition: concurrent writes count pending ones one after the other.
        const [exposition] = await tx
          .select({ id: expositions.id })
          .from(expositions)
          .where(and(eq(expositions.organizationId, organizationId), eq(expositions.id, expositionId)))
          .for("update");
        if (!exposition) throw errors.notFound("Exposition", expositionId);
        await tx
          .delete(elicitations)
          .where(and(eq(elicitations.expositionId, expositionId), lte(elicitations.expiresAt, sql`now()`)));
        const [pending] = await tx
          .select({ n: count() })
          .from(elicitations)
          .where(and(eq(elicitations.expositionId, expositionId), isNull(elicitations.usedAt)));
        if ((pending?.n ?? 0) >= PENDING_ELICITATIONS_PER_EXPOSITION)
          throw errors.tooManyPendingElicitations(expositionId, PENDING_ELICITATIONS_PER_EXPOSITION);
        const [ofUser] = await tx
          .select({ n: count() })
          .from(elicitations)
          .where(
            and(
              eq(elicitations.expositionId, expositionId),
              eq(elicitations.principal, principal),
              isNull(elicitations.usedAt),
            ),
          );
        if ((ofUser?.n ?? 0) >= PENDING_ELICITATIONS_PER_USER)
          throw errors.tooManyPendingElicitationsOfUser(expositionId, PENDING_ELICITATIONS_PER_USER);
        const [row] = await tx
          .insert(elicitations)
          .values({ idHash, organizationId, expositionId, principal, tool, expiresAt: expires })
          .onConflictDoNothing()
          .returning();
        if (!row) throw errors.alreadyExists("Elicitation", idHash);
        return row;
      });
      return reply.status(201).send(viewOf(created));
    },
  );

  app.get(
    "/elicitations/:idHash",
    { schema: { params: elicitationParams, response: { 200: elicitationView } } },
    async (request) => {
      const { idHash } = request.params;
      const rows = await db.select().from(elicitations).where(byHash(request.principal.organizationId, idHash));
      return viewOf(found(rows, "Elicitation", idHash));
    },
  );

  // The page's form was accepted: used once, on whichever replica, before it expires.
  app.post(
    "/elicitations/:idHash/consume",
    { schema: { params: elicitationParams, response: { 200: elicitationView } } },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const { idHash } = request.params;
      const [consumed] = await db
        .update(elicitations)
        .set({ usedAt: sql`now()` })
        .where(and(byHash(organizationId, idHash), isNull(elicitations.usedAt), gt(elicitations.expiresAt, sql`now()`)))
        .returning();
      if (consumed) return viewOf(consumed);
      const row = found(
        await db.select().from(elicitations).where(byHash(organizationId, idHash)),
        "Elicitation",
        idHash,
      );
      throw errors.elicitationSpent(idHash, row.usedAt ? "used" : "expired");
    },
  );
};
