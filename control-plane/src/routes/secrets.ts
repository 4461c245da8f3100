/**
 * Backend secrets: values encrypted at rest, bound to their record, never returned or logged
 * after they are written. `POST /admin/reencrypt` moves every value to the active key.
 */
import { randomUUID } from "node:crypto";
import { listOf, reencryptReport, secretBody, secretValueBody, secretView, uuidParams } from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requirePlatformAdmin } from "../auth/access-rules.ts";
import type { AppContext } from "../context.ts";
import { secrets } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { reencryptAll } from "../secrets/reencrypt.ts";
import { secretContext, storedSecrets } from "../secrets/stored.ts";
import { recordChange } from "../stream/changes.ts";
import { found, timestampsOf } from "./records.ts";

type SecretRow = typeof secrets.$inferSelect;
const view = (row: SecretRow) => ({ id: row.id, name: row.name, ...timestampsOf(row) });

export const secretRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const { cipher } = context;
  const owned = (orgId: string, id: string) => and(eq(secrets.organizationId, orgId), eq(secrets.id, id));

  app.post("/secrets", { schema: { body: secretBody, response: { 201: secretView } } }, async (request, reply) => {
    const id = randomUUID();
    const organizationId = request.principal.organizationId;
    const encryptedValue = cipher.encrypt(request.body.value, secretContext(id));
    const [row] = await db
      .insert(secrets)
      .values({ id, organizationId, name: request.body.name, encryptedValue })
      .onConflictDoNothing()
      .returning();
    if (!row) throw errors.alreadyExists("Secret", request.body.name);
    return reply.status(201).send(view(row));
  });

  app.get("/secrets", { schema: { response: { 200: listOf(secretView) } } }, async (request) => {
    const rows = await db.select().from(secrets).where(eq(secrets.organizationId, request.principal.organizationId));
    return { items: rows.map(view) };
  });

  app.get("/secrets/:id", { schema: { params: uuidParams, response: { 200: secretView } } }, async (request) => {
    return view(
      found(
        await db.select().from(secrets).where(owned(request.principal.organizationId, request.params.id)),
        "Secret",
        request.params.id,
      ),
    );
  });

  app.put(
    "/secrets/:id",
    { schema: { params: uuidParams, body: secretValueBody, response: { 200: secretView } } },
    async (request) => {
      const { id } = request.params;
      const organizationId = request.principal.organizationId;
      const row = await db.transaction(async (tx) => {
        const rows = await tx
          .update(secrets)
          .set({ encryptedValue: cipher.encrypt(request.body.value, secretContext(id)), updatedAt: new Date() })
          .where(owned(organizationId, id))
          .returning();
        const updated = found(rows, "Secret", id);
        await recordChange(tx, organizationId, "Secret", id);
        return updated;
      });
      return view(row);
    },
  );

  app.delete("/secrets/:id", { schema: { params: uuidParams } }, async (request, reply) => {
    const { id } = request.params;
    const organizationId = request.principal.organizationId;
    await db.transaction(async (tx) => {
      found(await tx.select({ id: secrets.id }).from(secrets).where(owned(organizationId, id)), "Secret", id);
      await recordChange(tx, organizationId, "Secret", id, { deleted: true });
      await tx.delete(secrets).where(owned(organizationId, id));
    });
    return reply.status(204).send();
  });

  app.post(
    "/admin/reencrypt",
    {
      schema: {
        response: {
          200: reencryptReport,
        },
      },
    },
    async (request) => {
      requirePlatformAdmin(request.principal, "Re-encrypting secrets");
      const report = await reencryptAll(cipher, {
        list: () => storedSecrets(db),
        update: async (id, expectedOld, newValue) => {
          const rows = await db
            .update(secrets)
            .set({ encryptedValue: newValue })
            .where(and(eq(secrets.id, id), eq(secrets.encryptedValue, expectedOld)))
            .returning({ id: secrets.id });
          return rows.length === 1;
        },
      });
      request.log.info({ report }, "secrets re-encrypted");
      return { activeKeyId: cipher.activeKeyId, ...report };
    },
  );
};
