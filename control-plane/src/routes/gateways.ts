/**
 * The gateway registry. A gateway registers (id, FQDNs, labels) with a gateway API token (within
 * the FQDNs and labels the token allows: auth/registration-bounds.ts), advertises
 * health every two minutes, and is stale after five without one; cleanup forgets gateways
 * stale for as long again. A second live gateway may not take an id already in use.
 */

import { gatewayRegistration, registrationAnswer } from "@atrium/contract";
import { gatewayDeregisterQuery, gatewayHealthBody, gatewayParams, gatewayView, listOf } from "@atrium/contract/rest";
import { and, count, eq, gt, lt } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { checkRegistrationBounds } from "../auth/registration-bounds.ts";
import type { AppContext } from "../context.ts";
import type { Db } from "../db/database.ts";
import { gateways, organizations } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { found } from "./records.ts";

type GatewayRow = typeof gateways.$inferSelect;

export function isLive(row: Pick<GatewayRow, "lastSeenAt">, staleSeconds: number, now = Date.now()): boolean {
  return now - row.lastSeenAt.getTime() < staleSeconds * 1000;
}

/** Live gateways of an organization (for endpoints and streams). */
export async function liveGateways(db: Db, organizationId: string, staleSeconds: number): Promise<GatewayRow[]> {
  const rows = await db.select().from(gateways).where(eq(gateways.organizationId, organizationId));
  return rows.filter((row) => isLive(row, staleSeconds));
}

/** Live gateways of every organization (the metrics' gauge). */
export async function countLiveGateways(db: Db, staleSeconds: number, now = Date.now()): Promise<number> {
  const [row] = await db
    .select({ live: count() })
    .from(gateways)
    .where(gt(gateways.lastSeenAt, new Date(now - staleSeconds * 1000)));
  return row?.live ?? 0;
}

export const gatewayRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const { gatewayStaleSeconds, gatewayHealthIntervalSeconds, streamHeartbeatSeconds } = context.config;
  const owned = (orgId: string, id: string) => and(eq(gateways.organizationId, orgId), eq(gateways.id, id));

  const cleanup = setInterval(
    () => {
      const cutoff = new Date(Date.now() - 2 * gatewayStaleSeconds * 1000);
      db.delete(gateways)
        .where(lt(gateways.lastSeenAt, cutoff))
        .catch((error: Error) => app.log.warn({ err: error }, "gateway cleanup failed"));
    },
    Math.max(1000, Math.min(60_000, (gatewayStaleSeconds * 1000) / 2)),
  );
  cleanup.unref();
  app.addHook("onClose", async () => clearInterval(cleanup));

  app.post(
    "/gateways/register",
    {
      schema: {
        body: gatewayRegistration,
        response: {
          200: registrationAnswer,
        },
      },
    },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const { id, instanceId, fqdns, labels, version } = request.body;
      // A gateway token advertises only the FQDNs and labels it was created for.
      checkRegistrationBounds(request.principal, { fqdns, labels });
      await db.transaction(async (tx) => {
        const [current] = await tx.select().from(gateways).where(owned(organizationId, id)).for("update");
        if (current && current.instanceId !== instanceId && isLive(current, gatewayStaleSeconds)) {
          throw errors.conflict(
            `Gateway id '${id}' is registered by another live gateway: give each gateway its own id, ` +
              `or wait until the other is stale (${gatewayStaleSeconds} s without a health advertisement)`,
          );
        }
        const now = new Date();
        const values = { fqdns, labels, version: version ?? null, instanceId, registeredAt: now, lastSeenAt: now };
        await tx
          .insert(gateways)
          .values({ organizationId, id, ...values })
          .onConflictDoUpdate({ target: [gateways.organizationId, gateways.id], set: values });
      });
      const [organization] = await db
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return {
        id,
        healthIntervalSeconds: gatewayHealthIntervalSeconds,
        staleAfterSeconds: gatewayStaleSeconds,
        heartbeatSeconds: streamHeartbeatSeconds,
        organization,
      };
    },
  );

  app.post(
    "/gateways/:id/health",
    { schema: { params: gatewayParams, body: gatewayHealthBody } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const rows = await db
        .update(gateways)
        .set({ lastSeenAt: new Date() })
        .where(and(owned(organizationId, request.params.id), eq(gateways.instanceId, request.body.instanceId)))
        .returning();
      const [row] = rows;
      // Unknown, taken over, or cleaned up: the gateway must register again.
      if (!row) throw errors.notFound("Gateway registration", request.params.id);
      return reply.status(204).send();
    },
  );

  app.delete(
    "/gateways/:id",
    { schema: { params: gatewayParams, querystring: gatewayDeregisterQuery } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      // A gateway deregisters itself only: its token may be shared by the whole group.
      if (request.principal.kind === "apiToken" && request.principal.role === "gateway" && !request.query.instanceId) {
        throw errors.invalidField(
          "querystring.instanceId",
          "a gateway token deregisters its own instance only: pass ?instanceId=<its instance id>",
        );
      }
      const condition = request.query.instanceId
        ? and(owned(organizationId, request.params.id), eq(gateways.instanceId, request.query.instanceId))
        : owned(organizationId, request.params.id);
      found(await db.delete(gateways).where(condition).returning(), "Gateway", request.params.id);
      return reply.status(204).send();
    },
  );

  app.get("/gateways", { schema: { response: { 200: listOf(gatewayView) } } }, async (request) => {
    const rows = await db.select().from(gateways).where(eq(gateways.organizationId, request.principal.organizationId));
    return {
      items: rows.map((row) => ({
        id: row.id,
        fqdns: row.fqdns,
        labels: row.labels,
        version: row.version,
        health: isLive(row, gatewayStaleSeconds) ? ("UP" as const) : ("STALE" as const),
        registeredAt: row.registeredAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
      })),
    };
  });
};
