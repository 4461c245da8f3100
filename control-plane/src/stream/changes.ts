/**
 * Records a change in the outbox, in the writer's transaction: the row's revision orders it,
 * its exposition ids say which compiled Expositions to rebuild, and a NOTIFY wakes the change
 * hubs of every replica once the transaction commits. With tracing on, the row keeps the
 * traceparent of its `record change` span, so the stream carries the writer's trace on.
 */
import { activeTraceparent, inSpan } from "@atrium/contract/telemetry";
import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { changes, configurationPlans, expositions, serviceArtifacts } from "../db/schema.ts";

export const CHANGES_CHANNEL = "atrium_changes";
const CHANGES_LOCK_KEY = 0x61747263; // "atrc"

export type ChangeKind =
  | "Service"
  | "ConfigurationPlan"
  | "GatewayGroup"
  | "Exposition"
  | "Secret"
  | "CustomTools"
  | "Resources"
  | "Prompts"
  /** A client ended a 2025-era session; its row in ended_sessions carries the revision. */
  | "EndedSession";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Reader = Db | Tx;

/** Call before deleting a record: what it affects is found through it. Returns the change's revision. */
export async function recordChange(
  tx: Tx,
  organizationId: string,
  kind: ChangeKind,
  recordId: string,
  options: { deleted?: boolean } = {},
): Promise<number> {
  const attributes = { "atrium.change.kind": kind, "atrium.organization.id": organizationId };
  return inSpan(`record change ${kind}`, { attributes }, async (span) => {
    // Writers of changes take turns until commit, so revisions become visible in order and a
    // hub reading "revision > last seen" can never skip one that commits late.
    await tx.execute(sql`select pg_advisory_xact_lock(${CHANGES_LOCK_KEY})`);
    const expositionIds = await affectedExpositions(tx, organizationId, kind, recordId);
    // The stream's messages continue this span's trace, on whichever replica publishes them.
    const traceparent = activeTraceparent();
    const [change] = await tx
      .insert(changes)
      .values({ organizationId, kind, recordId, deleted: options.deleted ?? false, expositionIds, traceparent })
      .returning({ revision: changes.revision });
    await tx.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${organizationId})`);
    span?.setAttributes({
      "atrium.change.revision": Number(change?.revision),
      "atrium.expositions": expositionIds.length,
    });
    return Number(change?.revision);
  });
}

async function affectedExpositions(
  db: Reader,
  organizationId: string,
  kind: ChangeKind,
  id: string,
): Promise<string[]> {
  const inOrg = eq(expositions.organizationId, organizationId);
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
  switch (kind) {
    case "Exposition":
      return [id];
    case "EndedSession":
      return []; // no compiled form changes: streams read it from ended_sessions
    case "ConfigurationPlan":
      return ids(
        await db
          .select({ id: expositions.id })
          .from(expositions)
          .where(and(inOrg, eq(expositions.configurationPlanId, id))),
      );
    case "GatewayGroup":
      return ids(
        await db
          .select({ id: expositions.id })
          .from(expositions)
          .where(and(inOrg, eq(expositions.gatewayGroupId, Number(id)))),
      );
    case "Service":
      return expositionsOfService(db, organizationId, id);
    case "Secret":
      return ids(
        await db
          .select({ id: expositions.id })
          .from(expositions)
          .innerJoin(configurationPlans, eq(configurationPlans.id, expositions.configurationPlanId))
          .where(
            and(
              inOrg,
              or(
                sql`${configurationPlans.settings} -> 'backendSecret' ->> 'secretId' = ${id}`,
                sql`${configurationPlans.settings} #>> '{backendSecret,oauth2ClientCredentials,clientSecret,secretId}' = ${id}`,
                sql`${configurationPlans.settings} #>> '{backendSecret,tokenExchange,clientSecret,secretId}' = ${id}`,
                sql`${configurationPlans.settings} #>> '{backendSecret,oauth2AuthorizationCode,clientSecret,secretId}' = ${id}`,
                sql`${configurationPlans.settings} #>> '{backendTls,clientCertificate,secretId}' = ${id}`,
                sql`${configurationPlans.settings} #>> '{backendTls,clientKey,secretId}' = ${id}`,
              ),
            ),
          ),
      );
    case "CustomTools":
    case "Resources":
    case "Prompts": {
      const [artifact] = await db
        .select({ serviceId: serviceArtifacts.serviceId })
        .from(serviceArtifacts)
        .where(eq(serviceArtifacts.id, id));
      return artifact ? expositionsOfService(db, organizationId, artifact.serviceId) : [];
    }
  }
}

async function expositionsOfService(db: Reader, organizationId: string, serviceId: string): Promise<string[]> {
  const rows = await db
    .select({ id: expositions.id })
    .from(expositions)
    .innerJoin(configurationPlans, eq(configurationPlans.id, expositions.configurationPlanId))
    .where(and(eq(expositions.organizationId, organizationId), eq(configurationPlans.serviceId, serviceId)));
  return rows.map((row) => row.id);
}

export type { Tx };
