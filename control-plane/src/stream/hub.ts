/**
 * One per control-plane replica: reads new outbox rows when PostgreSQL NOTIFYs (from any
 * replica) or at the latest every `pollMs`, and hands each organization's streams the
 * revision, the Expositions it touched and the sessions ended. Reads are shared by the
 * streams of a batch. With tracing on, handing a batch to the streams is a `publish changes`
 * span continuing the writes' traces (stream/publish-span.ts).
 */
import { and, asc, eq, gt, lt, max, min } from "drizzle-orm";
import { coalesced } from "../coalesced.ts";
import type { Database } from "../db/database.ts";
import { changes } from "../db/schema.ts";
import type { SecretCipher } from "../secrets/cipher.ts";
import { CHANGES_CHANNEL } from "./changes.ts";
import { type CompiledEntry, compileExpositions } from "./compile.ts";
import { deleteExpiredEndedSessions, type EndedSessionEntry, readEndedSessions } from "./ended-sessions.ts";
import { publishing } from "./publish-span.ts";

export interface ChangeBatch {
  revision: number;
  expositionIds: string[];
  /** The W3C context the stream's message carries (tracing on): the publish span's, or the last write's. */
  traceparent?: string;
  /** When the batch's oldest change was written (ms since the epoch); set on live batches only, for the gateways' change lag. */
  committedAt?: number;
  /** The compiled forms of `expositionIds` that still exist; computed once for all streams. */
  compiled(): Promise<Map<string, CompiledEntry>>;
  /** The unexpired sessions ended by the batch's changes; computed once for all streams. */
  endedSessions(): Promise<EndedSessionEntry[]>;
}

type ChangeRow = Pick<typeof changes.$inferSelect, "revision" | "kind" | "expositionIds" | "traceparent">;
type LiveRow = ChangeRow & Pick<typeof changes.$inferSelect, "organizationId" | "createdAt">;

type Subscriber = (batch: ChangeBatch) => void;

export class ChangeHub {
  private readonly database: Database;
  private readonly cipher: SecretCipher;
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** Snapshot compilations in progress, by organization and revision. */
  private readonly snapshots = new Map<string, Promise<Map<string, CompiledEntry>>>();
  private lastRevision = 0;
  private timer: NodeJS.Timeout | undefined;
  private onError: (error: unknown) => void;

  constructor(database: Database, cipher: SecretCipher, onError: (error: unknown) => void) {
    this.database = database;
    this.cipher = cipher;
    this.onError = onError;
  }

  async start(pollMs = 2000): Promise<void> {
    this.lastRevision = await this.currentRevision();
    await this.database.listen(CHANGES_CHANNEL, () => this.wake());
    this.timer = setInterval(() => this.wake(), pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.subscribers.clear();
  }

  subscribe(organizationId: string, subscriber: Subscriber): () => void {
    const set = this.subscribers.get(organizationId) ?? new Set<Subscriber>();
    this.subscribers.set(organizationId, set);
    set.add(subscriber);
    return () => set.delete(subscriber);
  }

  async currentRevision(): Promise<number> {
    const [row] = await this.database.db.select({ revision: max(changes.revision) }).from(changes);
    return Number(row?.revision ?? 0);
  }

  /** The oldest revision a gateway may resume after; older cursors get a snapshot. */
  async oldestResumableRevision(): Promise<number> {
    const [row] = await this.database.db.select({ revision: min(changes.revision) }).from(changes);
    return row?.revision ? Number(row.revision) - 1 : 0;
  }

  /**
   * Every Exposition of an organization compiled, for a stream opening at `revision` (read before
   * asking). Streams opening at the same revision while one compiles share its compilation, which
   * began after that revision was read: a fleet connecting at once costs one compilation, not one
   * per gateway, and its streams hold one copy of each Exposition's JSON.
   */
  snapshot(organizationId: string, revision: number): Promise<Map<string, CompiledEntry>> {
    const key = `${organizationId}@${revision}`;
    let compiling = this.snapshots.get(key);
    if (!compiling) {
      compiling = compileExpositions(this.database.db, this.cipher, organizationId).finally(() =>
        this.snapshots.delete(key),
      );
      this.snapshots.set(key, compiling);
    }
    return compiling;
  }

  /** Everything an organization's changes after `revision` touched, as one batch. */
  async touchedSince(organizationId: string, revision: number): Promise<ChangeBatch> {
    const rows = await this.database.db
      .select({
        revision: changes.revision,
        kind: changes.kind,
        expositionIds: changes.expositionIds,
        traceparent: changes.traceparent,
      })
      .from(changes)
      .where(and(eq(changes.organizationId, organizationId), gt(changes.revision, revision)))
      .orderBy(asc(changes.revision));
    return rows.length ? this.batchOf(organizationId, rows) : this.batchOf(organizationId, [], revision);
  }

  /** Forgets revisions older than `retentionSeconds` (always keeping the newest one), and expired ended sessions. */
  async prune(retentionSeconds: number): Promise<void> {
    const newest = await this.currentRevision();
    await this.database.db
      .delete(changes)
      .where(and(lt(changes.createdAt, new Date(Date.now() - retentionSeconds * 1000)), lt(changes.revision, newest)));
    await deleteExpiredEndedSessions(this.database.db);
  }

  /** One organization's rows (in revision order) as a batch at the last one's revision. */
  private batchOf(organizationId: string, rows: ChangeRow[], revision = Number(rows.at(-1)?.revision)): ChangeBatch {
    const { db } = this.database;
    const expositionIds = [...new Set(rows.flatMap((row) => row.expositionIds))];
    const revisions = rows.filter((row) => row.kind === "EndedSession").map((row) => Number(row.revision));
    let compiled: Promise<Map<string, CompiledEntry>> | undefined;
    let ended: Promise<EndedSessionEntry[]> | undefined;
    return {
      revision,
      expositionIds,
      traceparent: rows.findLast((row) => row.traceparent)?.traceparent ?? undefined,
      compiled: () =>
        (compiled ??= compileExpositions(db, this.cipher, organizationId, expositionIds, (id, reason) =>
          this.onError(new Error(`Exposition ${id} is not sent to gateways: ${reason}`)),
        )),
      endedSessions: () => (ended ??= readEndedSessions(db, organizationId, { revisions })),
    };
  }

  private readonly wake = coalesced(
    () => this.read(),
    (error) => this.onError(error),
  );

  private async read(): Promise<void> {
    const rows = await this.database.db
      .select()
      .from(changes)
      .where(gt(changes.revision, this.lastRevision))
      .orderBy(changes.revision)
      .limit(10_000);
    if (rows.length === 0) return;
    this.lastRevision = Number(rows.at(-1)?.revision);
    const byOrganization = new Map<string, LiveRow[]>();
    for (const row of rows) {
      const ofOrganization = byOrganization.get(row.organizationId) ?? [];
      ofOrganization.push(row);
      byOrganization.set(row.organizationId, ofOrganization);
    }
    for (const [organizationId, ofOrganization] of byOrganization) {
      const subscribers = this.subscribers.get(organizationId);
      if (!subscribers?.size) continue;
      const batch = this.batchOf(organizationId, ofOrganization);
      batch.committedAt = ofOrganization[0]?.createdAt.getTime();
      publishing(organizationId, ofOrganization, subscribers.size, (traceparent) => {
        if (traceparent) batch.traceparent = traceparent;
        for (const subscriber of subscribers) subscriber(batch);
      });
    }
  }
}
