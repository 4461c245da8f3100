/**
 * API tokens: organization-scoped bearer tokens for gateways, the operator and automation, each
 * with a role (auth/access-rules.ts). A gateway token may be bounded to FQDN patterns and a
 * required label set. The value is returned once, at creation; only its hash is stored.
 * Deleting one revokes it at once, open change streams included.
 */
import { createdToken, listOf, newToken, tokenView } from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { announceRevocation } from "../auth/credential-watch.ts";
import { newSecretValue, sha256, TOKEN_PREFIX } from "../auth/tokens.ts";
import type { AppContext } from "../context.ts";
import { apiTokens } from "../db/schema.ts";
import { errors } from "../errors.ts";

type TokenRow = typeof apiTokens.$inferSelect;
const view = (row: TokenRow): z.output<typeof tokenView> => ({
  id: row.id,
  name: row.name,
  role: row.role,
  allowedFqdns: row.allowedFqdns ?? null,
  requiredLabels: row.requiredLabels ?? null,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

export const apiTokenRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  app.post(
    "/api-tokens",
    {
      schema: {
        body: newToken,
        response: { 201: createdToken },
      },
    },
    async (request, reply) => {
      const token = newSecretValue(TOKEN_PREFIX.apiToken);
      const expiresAt = new Date(Date.now() + request.body.validityDays * 86_400_000);
      const [row] = await db
        .insert(apiTokens)
        .values({
          organizationId: request.principal.organizationId,
          name: request.body.name,
          tokenHash: sha256(token),
          role: request.body.role,
          allowedFqdns: request.body.allowedFqdns ?? null,
          requiredLabels: request.body.requiredLabels ?? null,
          expiresAt,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw errors.alreadyExists("API token", request.body.name);
      return reply.status(201).send({ ...view(row), token });
    },
  );

  app.get("/api-tokens", { schema: { response: { 200: listOf(tokenView) } } }, async (request) => {
    const rows = await db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.organizationId, request.principal.organizationId))
      .orderBy(apiTokens.createdAt);
    return { items: rows.map(view) };
  });

  app.get(
    "/api-tokens/:id",
    { schema: { params: z.object({ id: z.uuid() }), response: { 200: tokenView } } },
    async (request) => {
      const [row] = await db
        .select()
        .from(apiTokens)
        .where(
          and(eq(apiTokens.id, request.params.id), eq(apiTokens.organizationId, request.principal.organizationId)),
        );
      if (!row) throw errors.notFound("API token", request.params.id);
      return view(row);
    },
  );

  app.delete("/api-tokens/:id", { schema: { params: z.object({ id: z.uuid() }) } }, async (request, reply) => {
    const organizationId = request.principal.organizationId;
    await db.transaction(async (tx) => {
      const deleted = await tx
        .delete(apiTokens)
        .where(and(eq(apiTokens.id, request.params.id), eq(apiTokens.organizationId, organizationId)))
        .returning({ id: apiTokens.id });
      if (deleted.length === 0) throw errors.notFound("API token", request.params.id);
      await announceRevocation(tx, organizationId);
    });
    return reply.status(204).send();
  });
};
