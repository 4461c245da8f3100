/**
 * API tokens: organization-scoped bearer tokens for gateways and the operator. The value is
 * returned once, at creation; only its hash is stored. Deleting one revokes it at once.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { newSecretValue, sha256, TOKEN_PREFIX } from "../auth/tokens.ts";
import type { AppContext } from "../context.ts";
import { apiTokens } from "../db/schema.ts";
import { errors } from "../errors.ts";

const tokenView = z.object({ id: z.string(), name: z.string(), expiresAt: z.string(), createdAt: z.string() });
type TokenRow = typeof apiTokens.$inferSelect;
const view = (row: TokenRow) => ({
  id: row.id,
  name: row.name,
  expiresAt: row.expiresAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

export const apiTokenRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  // Tokens manage no tokens: a leaked gateway token cannot mint itself successors.
  app.addHook("onRequest", async (request) => {
    if (request.principal?.kind !== "user" || request.principal.role !== "admin") {
      throw errors.forbidden("Managing API tokens (log in as an organization admin)");
    }
  });

  app.post(
    "/api-tokens",
    {
      schema: {
        body: z.object({
          name: z.string().min(1).max(128),
          validityDays: z.number().int().min(1).max(3650).describe("Days until the token expires."),
        }),
        response: { 201: tokenView.extend({ token: z.string().describe("The value, shown only now.") }) },
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
          expiresAt,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw errors.alreadyExists("API token", request.body.name);
      return reply.status(201).send({ ...view(row), token });
    },
  );

  app.get(
    "/api-tokens",
    { schema: { response: { 200: z.object({ items: z.array(tokenView) }) } } },
    async (request) => {
      const rows = await db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.organizationId, request.principal.organizationId));
      return { items: rows.map(view) };
    },
  );

  app.delete("/api-tokens/:id", { schema: { params: z.object({ id: z.uuid() }) } }, async (request, reply) => {
    const deleted = await db
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, request.params.id), eq(apiTokens.organizationId, request.principal.organizationId)))
      .returning({ id: apiTokens.id });
    if (deleted.length === 0) throw errors.notFound("API token", request.params.id);
    return reply.status(204).send();
  });
};
