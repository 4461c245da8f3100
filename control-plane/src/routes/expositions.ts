/**
 * Expositions: a plan published on a gateway group. `endpoints` lists the FQDNs of the live
 * gateways the group selects; it is empty until one registers. PUT changes its name, plan or group
 * in place (same id).
 */

import { expositionBody, expositionToolsView, expositionView, listOf, uuidParams } from "@atrium/contract/rest";
import { type GatewayGroupSelector, selectsGateway } from "@atrium/crds";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { AppContext } from "../context.ts";
import { configurationPlans, expositions, gatewayGroups } from "../db/schema.ts";
import { errors, type FieldError } from "../errors.ts";
import { recordChange, type Tx } from "../stream/changes.ts";
import { expositionTools } from "./exposition-tools.ts";
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
    // Once per gateway group, not per Exposition: many Expositions share a group, and with a
    // large fleet each matching is a pass over every live gateway.
    const endpointsByGroup = new Map<number, string[]>();
    const endpointsOf = (group: typeof gatewayGroups.$inferSelect): string[] => {
      let endpoints = endpointsByGroup.get(group.id);
      if (!endpoints) {
        endpoints = live
          .filter((gateway) => selectsGateway(group as GatewayGroupSelector, gateway.labels))
          .flatMap((gateway) => gateway.fqdns)
          .sort();
        endpointsByGroup.set(group.id, endpoints);
      }
      return endpoints;
    };
    return rows.map(({ exposition, group }) => ({
      id: exposition.id,
      name: exposition.name,
      configurationPlanId: exposition.configurationPlanId,
      gatewayGroupId: group.id,
      gatewayGroup: { id: group.id, name: group.name },
      endpoints: endpointsOf(group),
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
        await checkReferences(tx, organizationId, request.body);
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

  // Its id stays: the gateways replace it in place (a new name moves its path, a new group moves it
  // to that group's gateways), and the credentials users gave it are kept.
  app.put(
    "/expositions/:id",
    { schema: { params: uuidParams, body: expositionBody, response: { 200: expositionView } } },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const { id } = request.params;
      const { name, configurationPlanId, gatewayGroupId } = request.body;
      await db.transaction(async (tx) => {
        await checkReferences(tx, organizationId, request.body);
        const updated = await tx
          .update(expositions)
          .set({ name, configurationPlanId, gatewayGroupId, updatedAt: new Date() })
          .where(and(inOrg(organizationId), eq(expositions.id, id)))
          .returning({ id: expositions.id });
        found(updated, "Exposition", id);
        await recordChange(tx, organizationId, "Exposition", id);
      });
      return found(await views(organizationId, id), "Exposition", id);
    },
  );

  app.get("/expositions", { schema: { response: { 200: listOf(expositionView) } } }, async (request) => ({
    items: await views(request.principal.organizationId),
  }));

  app.get("/expositions/:id", { schema: { params: uuidParams, response: { 200: expositionView } } }, async (request) =>
    found(await views(request.principal.organizationId, request.params.id), "Exposition", request.params.id),
  );

  app.get(
    "/expositions/:id/tools",
    { schema: { params: uuidParams, response: { 200: expositionToolsView } } },
    async (request) => {
      // One snapshot: the plan, its Service and its custom tools as of one moment.
      const items = await db.transaction((tx) =>
        expositionTools(tx, request.principal.organizationId, request.params.id),
      );
      if (!items) throw errors.notFound("Exposition", request.params.id);
      return { items };
    },
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

/** Refuses a plan or gateway group that is not the organization's, naming each field. */
async function checkReferences(tx: Tx, organizationId: string, body: z.output<typeof expositionBody>) {
  const problems: FieldError[] = [];
  const [plan] = await tx
    .select({ id: configurationPlans.id })
    .from(configurationPlans)
    .where(
      and(eq(configurationPlans.organizationId, organizationId), eq(configurationPlans.id, body.configurationPlanId)),
    );
  if (!plan)
    problems.push({
      field: "body.configurationPlanId",
      message: `no configuration plan '${body.configurationPlanId}' in this organization`,
    });
  const [group] = await tx
    .select({ id: gatewayGroups.id })
    .from(gatewayGroups)
    .where(and(eq(gatewayGroups.organizationId, organizationId), eq(gatewayGroups.id, body.gatewayGroupId)));
  if (!group)
    problems.push({
      field: "body.gatewayGroupId",
      message: `no gateway group ${body.gatewayGroupId} in this organization`,
    });
  if (problems.length > 0)
    throw errors.unprocessable(
      "INVALID_REFERENCE",
      problems.map((p) => `${p.field}: ${p.message}`).join("; "),
      problems,
    );
}
