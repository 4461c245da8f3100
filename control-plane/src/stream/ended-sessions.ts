/**
 * Ended 2025-era sessions: recorded when a gateway reports a batch of them (with one change, so
 * the streams of every replica hear of it; capped per Exposition and minute), read by the change
 * stream for the Expositions a gateway serves, and forgotten once the session would have expired.
 */

import { ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE, type EndedSession } from "@atrium/contract";
import type { GatewayGroupSelector } from "@atrium/crds";
import { and, count, eq, gt, inArray, lt, type SQL } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { endedSessions, expositions, gatewayGroups } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { recordChange } from "./changes.ts";

export interface EndedSessionEntry {
  endedSession: EndedSession;
  /** Of the Exposition's gateway group: streams send the entry only to gateways it selects. */
  selector: GatewayGroupSelector;
}

/**
 * Records a gateway's batch as one change (one revision for all of it). Idempotent; 404 when an
 * Exposition is not the organization's. Expired and already known sessions are not kept.
 * Returns how many were recorded and how many the per-Exposition cap dropped.
 */
export async function recordEndedSessions(
  db: Db,
  organizationId: string,
  batch: EndedSession[],
): Promise<{ recorded: number; dropped: number }> {
  return db.transaction(async (tx) => {
    const expositionIds = [...new Set(batch.map((ended) => ended.expositionId))];
    const known = await tx
      .select({ id: expositions.id })
      .from(expositions)
      .where(and(eq(expositions.organizationId, organizationId), inArray(expositions.id, expositionIds)));
    const unknown = expositionIds.find((id) => !known.some((row) => row.id === id));
    if (unknown) throw errors.notFound("Exposition", unknown);
    const now = Date.now();
    const fresh = [
      ...new Map(batch.map((ended) => [`${ended.expositionId}/${ended.sessionHash}`, ended])).values(),
    ].filter((ended) => Date.parse(ended.expiresAt) > now);
    if (fresh.length === 0) return { recorded: 0, dropped: 0 };
    const already = await tx
      .select({ expositionId: endedSessions.expositionId, sessionHash: endedSessions.sessionHash })
      .from(endedSessions)
      .where(
        and(
          inArray(endedSessions.expositionId, expositionIds),
          inArray(
            endedSessions.sessionHash,
            fresh.map((ended) => ended.sessionHash),
          ),
        ),
      );
    const seen = new Set(already.map((row) => `${row.expositionId}/${row.sessionHash}`));
    const recent = await tx
      .select({ expositionId: endedSessions.expositionId, count: count() })
      .from(endedSessions)
      .where(
        and(inArray(endedSessions.expositionId, expositionIds), gt(endedSessions.createdAt, new Date(now - 60_000))),
      )
      .groupBy(endedSessions.expositionId);
    const room = new Map(expositionIds.map((id) => [id, ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE]));
    for (const row of recent) room.set(row.expositionId, ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE - row.count);
    const kept: EndedSession[] = [];
    let dropped = 0;
    for (const ended of fresh) {
      if (seen.has(`${ended.expositionId}/${ended.sessionHash}`)) continue; // a retried report
      const left = room.get(ended.expositionId) ?? 0;
      if (left <= 0) {
        dropped += 1;
        continue;
      }
      room.set(ended.expositionId, left - 1);
      kept.push(ended);
    }
    if (kept.length === 0) return { recorded: 0, dropped };
    const revision = await recordChange(tx, organizationId, "EndedSession", kept[0]?.sessionHash ?? "");
    await tx
      .insert(endedSessions)
      .values(
        kept.map((ended) => ({
          organizationId,
          expositionId: ended.expositionId,
          sessionHash: ended.sessionHash,
          revision,
          expiresAt: new Date(ended.expiresAt),
        })),
      )
      .onConflictDoNothing();
    return { recorded: kept.length, dropped };
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
