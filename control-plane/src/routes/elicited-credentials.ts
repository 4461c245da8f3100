/**
 * /api/v1/expositions/:id/elicited-credentials/:principal — where the gateways of an organization
 * keep the credentials users gave through elicitation (issue 15). Gateway tokens only. The control plane stores what it is given: ciphertext sealed with
 * the gateways' cluster key, under the gateway's digest of the user; it can open neither. Scoped
 * to the token's organization: another organization's Exposition is a 404, for reading and
 * writing alike. Writes are bounded per Exposition: rows held, and rows written per minute
 * (counted from `updated_at`, so a user rewriting their own row is not counted against others).
 */
import {
  ELICITED_CREDENTIAL_WRITES_PER_MINUTE,
  ELICITED_CREDENTIALS_PER_EXPOSITION,
  elicitedCredentialBody,
  elicitedCredentialParams,
  elicitedCredentialView,
} from "@atrium/contract/rest";
import { and, count, eq, gt, ne, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import { elicitedCredentials, expositions } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { found, timestampsOf } from "./records.ts";

const route = "/expositions/:id/elicited-credentials/:principal";

type Row = typeof elicitedCredentials.$inferSelect;
const viewOf = (row: Row) => ({
  expositionId: row.expositionId,
  principal: row.principal,
  ciphertext: row.ciphertext,
  ...timestampsOf(row),
});

export const elicitedCredentialRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const row = (organizationId: string, expositionId: string, principal: string) =>
    and(
      eq(elicitedCredentials.organizationId, organizationId),
      eq(elicitedCredentials.expositionId, expositionId),
      eq(elicitedCredentials.principal, principal),
    );

  app.get(
    route,
    { schema: { params: elicitedCredentialParams, response: { 200: elicitedCredentialView } } },
    async (request) => {
      const { id, principal } = request.params;
      const credential = found(
        await db
          .select()
          .from(elicitedCredentials)
          .where(row(request.principal.organizationId, id, principal)),
        "Elicited credential",
        principal,
      );
      return viewOf(credential);
    },
  );

  app.put(
    route,
    {
      schema: {
        params: elicitedCredentialParams,
        body: elicitedCredentialBody,
        response: { 200: elicitedCredentialView },
      },
    },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const { id, principal } = request.params;
      const stored = await db.transaction(async (tx) => {
        // Locks the Exposition: concurrent first writes count one after the other, and a
        // concurrent delete of the Exposition either wins (404) or waits.
        const [exposition] = await tx
          .select({ id: expositions.id })
          .from(expositions)
          .where(and(eq(expositions.organizationId, organizationId), eq(expositions.id, id)))
          .for("update");
        if (!exposition) throw errors.notFound("Exposition", id);
        const [existing] = await tx
          .select({ principal: elicitedCredentials.principal })
          .from(elicitedCredentials)
          .where(row(organizationId, id, principal));
        const [recent] = await tx
          .select({ n: count() })
          .from(elicitedCredentials)
          .where(
            and(
              eq(elicitedCredentials.expositionId, id),
              gt(elicitedCredentials.updatedAt, sql`now() - interval '1 minute'`),
              ne(elicitedCredentials.principal, principal),
            ),
          );
        if ((recent?.n ?? 0) >= ELICITED_CREDENTIAL_WRITES_PER_MINUTE)
          throw errors.tooManyElicitedCredentialWrites(id, ELICITED_CREDENTIAL_WRITES_PER_MINUTE);
        if (!existing) {
          const [held] = await tx
            .select({ n: count() })
            .from(elicitedCredentials)
            .where(eq(elicitedCredentials.expositionId, id));
          if ((held?.n ?? 0) >= ELICITED_CREDENTIALS_PER_EXPOSITION)
            throw errors.tooManyElicitedCredentials(id, ELICITED_CREDENTIALS_PER_EXPOSITION);
        }
        const [written] = await tx
          .insert(elicitedCredentials)
          .values({ expositionId: id, principal, organizationId, ciphertext: request.body.ciphertext })
          .onConflictDoUpdate({
            target: [elicitedCredentials.expositionId, elicitedCredentials.principal],
            set: { ciphertext: request.body.ciphertext, updatedAt: sql`now()` },
          })
          .returning();
        return written as Row;
      });
      return viewOf(stored);
    },
  );

  // The user revoking their credential, or a gateway evicting one its backend refused (401).
  app.delete(route, { schema: { params: elicitedCredentialParams } }, async (request, reply) => {
    const { id, principal } = request.params;
    const deleted = await db
      .delete(elicitedCredentials)
      .where(row(request.principal.organizationId, id, principal))
      .returning({ principal: elicitedCredentials.principal });
    found(deleted, "Elicited credential", principal);
    return reply.status(204).send();
  });
};
