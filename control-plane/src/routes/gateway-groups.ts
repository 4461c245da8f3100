/**
 * Gateway Groups: integer ids, a label selector over the labels gateways advertise.
 */
import {
  type GatewayGroupView,
  gatewayGroupBody as groupBody,
  gatewayGroupView as groupView,
  gatewayGroupParams as idParams,
  listOf,
} from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import { gatewayGroups } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { recordChange } from "../stream/changes.ts";
import { found, timestampsOf } from "./records.ts";

type GroupRow = typeof gatewayGroups.$inferSelect;
function view(row: GroupRow): GatewayGroupView {
  return {
    id: row.id,
    name: row.name,
    ...(row.description ? { description: row.description } : {}),
    labels: row.labels,
    matchExpressions: row.matchExpressions as GatewayGroupView["matchExpressions"],
    ...timestampsOf(row),
  };
}

export const gatewayGroupRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const owned = (orgId: string, id: number) => and(eq(gatewayGroups.organizationId, orgId), eq(gatewayGroups.id, id));

  app.post("/gateway-groups", { schema: { body: groupBody, response: { 201: groupView } } }, async (request, reply) => {
    const { name, description, labels = {}, matchExpressions = [] } = request.body;
    const organizationId = request.principal.organizationId;
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(gatewayGroups)
        .values({ organizationId, name, description, labels, matchExpressions })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw errors.alreadyExists("Gateway group", name);
      await recordChange(tx, organizationId, "GatewayGroup", String(inserted.id));
      return inserted;
    });
    return reply.status(201).send(view(row));
  });

  app.get("/gateway-groups", { schema: { response: { 200: listOf(groupView) } } }, async (request) => {
    const rows = await db
      .select()
      .from(gatewayGroups)
      .where(eq(gatewayGroups.organizationId, request.principal.organizationId))
      .orderBy(gatewayGroups.id);
    return { items: rows.map(view) };
  });

  app.get("/gateway-groups/:id", { schema: { params: idParams, response: { 200: groupView } } }, async (request) => {
    const rows = await db
      .select()
      .from(gatewayGroups)
      .where(owned(request.principal.organizationId, request.params.id));
    return view(found(rows, "Gateway group", request.params.id));
  });

  app.put(
    "/gateway-groups/:id",
    { schema: { params: idParams, body: groupBody, response: { 200: groupView } } },
    async (request) => {
      const { name, description, labels = {}, matchExpressions = [] } = request.body;
      const organizationId = request.principal.organizationId;
      const row = await db.transaction(async (tx) => {
        const rows = await tx
          .update(gatewayGroups)
          .set({ name, description: description ?? null, labels, matchExpressions, updatedAt: new Date() })
          .where(owned(organizationId, request.params.id))
          .returning();
        const updated = found(rows, "Gateway group", request.params.id);
        await recordChange(tx, organizationId, "GatewayGroup", String(updated.id));
        return updated;
      });
      return view(row);
    },
  );

  app.delete("/gateway-groups/:id", { schema: { params: idParams } }, async (request, reply) => {
    const organizationId = request.principal.organizationId;
    await db.transaction(async (tx) => {
      found(
        await tx.select().from(gatewayGroups).where(owned(organizationId, request.params.id)),
        "Gateway group",
        request.params.id,
      );
      await recordChange(tx, organizationId, "GatewayGroup", String(request.params.id), { deleted: true });
      await tx.delete(gatewayGroups).where(owned(organizationId, request.params.id));
    });
    return reply.status(204).send();
  });
};
