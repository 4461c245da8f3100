/**
 * One per control-plane replica: reads new outbox rows when PostgreSQL NOTIFYs (from any
 * replica) or at the latest every `pollMs`, and hands each organization's streams the
 * revision and the Expositions it touched. Compilations are shared by the streams of a batch.
 */
import { and, desc, gt, inArray, lt, max, min } from "drizzle-orm";
import type { Database } from "../db/database.ts";
import { changes } from "../db/schema.ts";
import type { SecretCipher } from "../secrets/cipher.ts";
import { CHANGES_CHANNEL } from "./changes.ts";
import { type CompiledEntry, compileExpositions } from "./compile.ts";

export interface ChangeBatch {
  revision: number;
  expositionIds: string[];
  /** The compiled forms of `expositionIds` that still exist; computed once for all streams. */
  compiled(): Promise<Map<string, CompiledEntry>>;
}

type Subscriber = (batch: ChangeBatch) => void;

export class ChangeHub {
  private readonly database: Database;
  private readonly cipher: SecretCipher;
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private lastRevision = 0;
  private reading: Promise<void> | undefined;
  private again = false;
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

  /** Exposition ids touched in an organization after `revision`. */
  async touchedSince(organizationId: string, revision: number): Promise<{ revision: number; expositionIds: string[] }> {
    const rows = await this.database.db
      .select({ revision: changes.revision, expositionIds: changes.expositionIds })
      .from(changes)
      .where(and(inArray(changes.organizationId, [organizationId]), gt(changes.revision, revision)))
      .orderBy(desc(changes.revision));
    return {
      revision: Number(rows[0]?.revision ?? revision),
      expositionIds: [...new Set(rows.flatMap((r) => r.expositionIds))],
    };
  }

  /** Forgets revisions older than `retentionSeconds`, always keeping the newest one. */
  async prune(retentionSeconds: number): Promise<void> {
    const newest = await this.currentRevision();
    await this.database.db
      .delete(changes)
      .where(and(lt(changes.createdAt, new Date(Date.now() - retentionSeconds * 1000)), lt(changes.revision, newest)));
  }

  private wake(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.read()
      .catch(this.onError)
      .finally(() => {
        this.reading = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async read(): Promise<void> {
    const rows = await this.database.db
      .select()
      .from(changes)
      .where(gt(changes.revision, this.lastRevision))
      .orderBy(changes.revision)
      .limit(10_000);
    if (rows.length === 0) return;
    this.lastRevision = Number(rows.at(-1)?.revision);
    const byOrganization = new Map<string, { revision: number; ids: Set<string> }>();
    for (const row of rows) {
      const entry = byOrganization.get(row.organizationId) ?? { revision: 0, ids: new Set<string>() };
      entry.revision = Number(row.revision);
      for (const id of row.expositionIds) entry.ids.add(id);
      byOrganization.set(row.organizationId, entry);
    }
    for (const [organizationId, { revision, ids }] of byOrganization) {
      const subscribers = this.subscribers.get(organizationId);
      if (!subscribers?.size) continue;
      const expositionIds = [...ids];
      let compiled: Promise<Map<string, CompiledEntry>> | undefined;
      const batch: ChangeBatch = {
        revision,
        expositionIds,
        compiled: () => (compiled ??= compileExpositions(this.database.db, this.cipher, organizationId, expositionIds)),
      };
      for (const subscriber of subscribers) subscriber(batch);
    }
  }
}
