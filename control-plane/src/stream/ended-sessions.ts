/**
 * Ended 2025-era sessions: recorded when a gateway reports one (with a change, so the streams of
 * every replica hear of it), read by the change stream for the Expositions a gateway serves, and
 * forgotten once the session would have expired anyway.
 */
import type { GatewayGroupSelector } from "@atrium/crds";
import { and, eq, gt, inArray, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { endedSessions, expositions, gatewayGroups } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { recordChange } from "./changes.ts";
import type { EndedSession } from "./contract.ts";

export interface EndedSessionEntry {
  endedSession: EndedSession;
  /** Of the Exposition's gateway group: streams send the entry only to gateways it selects. */
  selector: GatewayGroupSelector;
}

/** Idempotent; 404 when the Exposition is not the organization's. An already expired session is not kept. */
export async function recordEndedSession(db: Db, organizationId: string, ended: EndedSession): Promise<void> {
  const expiresAt = new Date(ended.expiresAt);
  await db.transaction(async (tx) => {
    const [exposition] = await tx
      .select({ id: expositions.id })
      .from(expositions)
      .where(and(eq(expositions.organizationId, organizationId), eq(expositions.id, ended.expositionId)));
    if (!exposition) throw errors.notFound("Exposition", ended.expositionId);
    if (expiresAt.getTime() <= Date.now()) return;
    const [known] = await tx
      .select({ sessionHash: endedSessions.sessionHash })
      .from(endedSessions)
      .where(and(eq(endedSessions.expositionId, ended.expositionId), eq(endedSessions.sessionHash, ended.sessionHash)));
    if (known) return; // a retried report: gateways already heard of it
    const revision = await recordChange(tx, organizationId, "EndedSession", ended.sessionHash);
    await tx
      .insert(endedSessions)
      .values({ organizationId, expositionId: ended.expositionId, sessionHash: ended.sessionHash, revision, expiresAt })
      .onConflictDoNothing();
  });
}

/**
 * The organization's unexpired ended sessions: all of them, those announced by the changes at
 * `revisions`, or those of `expositionIds`.
 */
export async function readEndedSessions(
  db: Db,
  organizationId: string,
  which: { revisions: number[] } | { expositionIds: string[] } | "all",
): Promise<EndedSessionEntry[]> {
  let filter: SQL | undefined;
  if (which !== "all") {
    const [column, values] =
      "revisions" in which
        ? [endedSessions.revision, which.revisions]
        : [endedSessions.expositionId, which.expositionIds];
    if (values.length === 0) return [];
    filter = inArray(column, values);
  }
  const rows = await db
    .select({
      expositionId: endedSessions.expositionId,
      sessionHash: endedSessions.sessionHash,
      expiresAt: endedSessions.expiresAt,
      labels: gatewayGroups.labels,
      matchExpressions: gatewayGroups.matchExpressions,
    })
    .from(endedSessions)
    .innerJoin(expositions, eq(expositions.id, endedSessions.expositionId))
    .innerJoin(gatewayGroups, eq(gatewayGroups.id, expositions.gatewayGroupId))
    .where(and(eq(endedSessions.organizationId, organizationId), gt(endedSessions.expiresAt, new Date()), filter));
  return rows.map((row) => ({
    endedSession: {
      expositionId: row.expositionId,
      sessionHash: row.sessionHash,
      expiresAt: row.expiresAt.toISOString(),
    },
    selector: {
      labels: row.labels,
      matchExpressions: row.matchExpressions as GatewayGroupSelector["matchExpressions"],
    },
  }));
}

export async function deleteExpiredEndedSessions(db: Db): Promise<void> {
  await db.delete(endedSessions).where(lt(endedSessions.expiresAt, new Date()));
}
