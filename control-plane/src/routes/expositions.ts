/**
 * Expositions: a plan published on a gateway group. `endpoints` lists the FQDNs of the live
 * gateways the group selects; it is empty until one registers.
 */

import { expositionBody, expositionView, listOf, uuidParams } from "@atrium/contract/rest";
import { type GatewayGroupSelector, selectsGateway } from "@atrium/crds";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { AppContext } from "../context.ts";
import { configurationPlans, expositions, gatewayGroups } from "../db/schema.ts";
import { errors, type FieldError } from "../errors.ts";
import { recordChange } from "../stream/changes.ts";
import { problemsByExposition } from "./gateway-problems.ts";
import { liveGateways } from "./gateways.ts";
import { found, timestampsOf } from "./records.ts";

export const expositionRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const inOrg = (orgId: string) => eq(expositions.organizationId, orgId);

  async function views(organizationId: string, id?: string): Promise<z.output<typeof expositionView>[]> {
    const rows = await db
      .select({ exposition: expositions, group: gatewayGroups })
      .from(expositions)
      .innerJoin(gatewayGroups, eq(gatewayGroups.id, expositions.gatewayGroupId))
      .where(id ? and(inOrg(organizationId), eq(expositions.id, id)) : inOrg(organizationId))
      .orderBy(expositions.createdAt);
    const live = rows.length > 0 ? await liveGateways(db, organizationId, context.config.gatewayStaleSeconds) : [];
    const problems = await problemsByExposition(
      db,
      organizationId,
      rows.map((row) => row.exposition.id),
    );
    return rows.map(({ exposition, group }) => ({
      id: exposition.id,
      name: exposition.name,
      configurationPlanId: exposition.configurationPlanId,
      gatewayGroupId: group.id,
      gatewayGroup: { id: group.id, name: group.name },
      endpoints: live
        .filter((gateway) => selectsGateway(group as GatewayGroupSelector, gateway.labels))
        .flatMap((gateway) => gateway.fqdns)
        .sort(),
      problems: problems.get(exposition.id) ?? [],
      ...timestampsOf(exposition),
    }));
  }

  app.post(
    "/expositions",
    { schema: { body: expositionBody, response: { 201: expositionView } } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const { name, configurationPlanId, gatewayGroupId } = request.body;
      const id = await db.transaction(async (tx) => {
        const problems: FieldError[] = [];
        const [plan] = await tx
          .select({ id: configurationPlans.id })
          .from(configurationPlans)
          .where(
            and(eq(configurationPlans.organizationId, organizationId), eq(configurationPlans.id, configurationPlanId)),
          );
        if (!plan)
          problems.push({
            field: "body.configurationPlanId",
            message: `no configuration plan '${configurationPlanId}' in this organization`,
          });
        const [group] = await tx
          .select({ id: gatewayGroups.id })
          .from(gatewayGroups)
          .where(and(eq(gatewayGroups.organizationId, organizationId), eq(gatewayGroups.id, gatewayGroupId)));
        if (!group)
          problems.push({
            field: "body.gatewayGroupId",
            message: `no gateway group ${gatewayGroupId} in this organization`,
          });
        if (problems.length > 0)
          throw errors.unprocessable(
            "INVALID_REFERENCE",
            problems.map((p) => `${p.field}: ${p.message}`).join("; "),
            problems,
          );
        const [inserted] = await tx
          .insert(expositions)
          .values({ organizationId, name, configurationPlanId, gatewayGroupId })
          .onConflictDoNothing()
          .returning();
        if (!inserted) throw errors.alreadyExists("Exposition", name);
        await recordChange(tx, organizationId, "Exposition", inserted.id);
        return inserted.id;
      });
      return reply.status(201).send(found(await views(organizationId, id), "Exposition", id));
    },
  );

  app.get("/expositions", { schema: { response: { 200: listOf(expositionView) } } }, async (request) => ({
    items: await views(request.principal.organizationId),
  }));

  app.get("/expositions/:id", { schema: { params: uuidParams, response: { 200: expositionView } } }, async (request) =>
    found(await views(request.principal.organizationId, request.params.id), "Exposition", request.params.id),
  );

  app.delete("/expositions/:id", { schema: { params: uuidParams } }, async (request, reply) => {
    const organizationId = request.principal.organizationId;
    const { id } = request.params;
    await db.transaction(async (tx) => {
      found(
        await tx
          .select({ id: expositions.id })
          .from(expositions)
          .where(and(inOrg(organizationId), eq(expositions.id, id))),
        "Exposition",
        id,
      );
      await recordChange(tx, organizationId, "Exposition", id, { deleted: true });
      await tx.delete(expositions).where(and(inOrg(organizationId), eq(expositions.id, id)));
    });
    return reply.status(204).send();
  });
};
