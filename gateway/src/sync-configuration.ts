/**
 * The configuration the sync has applied, and its cache: loaded from the cache file at start (so a
 * restart while the control plane is down still serves), advanced by each change-stream message,
 * and written back to the cache after each one (see cache.ts). Each Exposition of a message is
 * validated and compiled on its own (see registry.ts): one the gateway cannot serve is skipped,
 * logged and counted, the others are applied and the revision advances.
 */
import { randomBytes } from "node:crypto";
import { changesEnvelope, type EndedSession, endedSession, snapshotEnvelope } from "@atrium/contract";
import { inApplySpan } from "./apply-span.ts";
import { ConfigurationCache } from "./cache.ts";
import type { GatewayConfig } from "./config.ts";
import type { SessionSigner } from "./mcp/sessions.ts";
import type { ExpositionRegistry, Refusal } from "./registry.ts";
import type { SyncLog } from "./sync-failure.ts";
import type { Organization } from "./sync-registration.ts";

export class SyncedConfiguration {
  /** True once the control plane has sent a message (registration done, the stream opened). */
  ready = false;
  readonly instanceId: string;
  /** Expositions skipped since start, by reason (a metric). */
  readonly refusalCounts = new Map<string, number>();
  /** The last revision applied; undefined: the next stream starts with a snapshot. */
  revision: number | undefined;
  /** When the control plane last confirmed the configuration was current (a message or heartbeat). */
  private currentAt: number | undefined;
  private organization: Organization | undefined;
  private readonly cache: ConfigurationCache;
  private readonly registry: ExpositionRegistry;
  private readonly sessions: SessionSigner;
  private readonly log: SyncLog;
  /** Told when a changes message naming its commit time was applied (the change-lag metric). */
  private readonly onChangeApplied: ((committedAtMs: number) => void) | undefined;

  /** Takes the cache folder (throws when another gateway process holds it) and serves what it holds. */
  constructor(
    config: GatewayConfig,
    registry: ExpositionRegistry,
    sessions: SessionSigner,
    log: SyncLog,
    onChangeApplied?: (committedAtMs: number) => void,
  ) {
    this.registry = registry;
    this.sessions = sessions;
    this.log = log;
    this.onChangeApplied = onChangeApplied;
    this.cache = new ConfigurationCache(config.cacheDir, config.controlPlaneToken, log);
    this.cache.lock();
    const cache = this.cache.load();
    this.instanceId = cache?.instanceId ?? this.cache.instanceIdHint() ?? randomBytes(12).toString("base64url");
    if (cache) {
      this.revision = cache.revision;
      this.organization = cache.organization;
      this.currentAt = cache.currentAt;
      this.count(registry.replaceAll(cache.expositions, cache.refusals ?? []));
      sessions.refuse(validEndedSessions(cache.endedSessions));
      log.info({ expositions: registry.size, revision: cache.revision }, "serving the cached configuration");
    }
  }

  /** Seconds since the control plane last confirmed the configuration; undefined before it ever did. */
  stalenessSeconds(now = Date.now()): number | undefined {
    return this.currentAt === undefined ? undefined : Math.max(0, (now - this.currentAt) / 1000);
  }

  /** The control plane said which organization the token belongs to; another's configuration is dropped. */
  bindOrganization(organization: Organization): void {
    if (!this.cache.bindOrganization(organization)) {
      // What the cache served was not this organization's: drop it, and take a fresh snapshot.
      this.registry.replaceAll([]);
      this.revision = undefined;
      this.currentAt = undefined;
    }
    this.organization = organization;
  }

  /** Something arrived on the stream: once it has delivered a message, the configuration is current. */
  alive(): void {
    if (this.ready) this.currentAt = Date.now();
  }

  /**
   * Applies one change-stream event and writes the cache; false for events that change nothing
   * (heartbeats, unknown ones). Throws when the message cannot be read.
   */
  apply(event: string | undefined, data: string): boolean {
    if (event === "snapshot" || event === "changes") {
      const message: unknown = JSON.parse(data);
      inApplySpan(message, () => this.applyMessage(event, message));
    } else if (event === "resumed") {
      const resumed = (JSON.parse(data) as { revision?: unknown }).revision;
      if (typeof resumed !== "number") throw new Error("a resumed event without a revision");
      this.revision = resumed;
    } else {
      return false;
    }
    this.ready = true;
    this.currentAt = Date.now();
    this.cache.write({
      instanceId: this.instanceId,
      organization: this.organization,
      revision: this.revision,
      currentAt: this.currentAt,
      expositions: this.registry.all(),
      refusals: this.registry.refusals(),
      endedSessions: this.sessions.endedSessions(),
    });
    return true;
  }

  /** A snapshot replaces the served set, changes update it; what the gateway cannot serve is skipped. */
  private applyMessage(event: "snapshot" | "changes", json: unknown): void {
    let message: { revision: number; endedSessions: unknown[] };
    let refusals: Refusal[];
    let summary: Record<string, number>;
    if (event === "snapshot") {
      const snapshot = snapshotEnvelope.parse(json);
      refusals = this.registry.replaceAll(snapshot.expositions);
      [message, summary] = [snapshot, { expositions: this.registry.size }];
    } else {
      const changes = changesEnvelope.parse(json);
      refusals = this.registry.apply(changes.upserts, changes.deletes);
      [message, summary] = [changes, { upserts: changes.upserts.length, deletes: changes.deletes.length }];
    }
    // Added to, never replaced: sessions ended here may not have reached the control plane yet.
    this.sessions.refuse(validEndedSessions(message.endedSessions));
    this.revision = message.revision;
    this.log.info(
      { revision: message.revision, ...summary, skipped: refusals.length, endedSessions: message.endedSessions.length },
      event === "snapshot" ? "applied a snapshot" : "applied changes",
    );
    this.count(refusals);
    if (event === "changes") {
      const { committedAt } = message as { committedAt?: number };
      if (committedAt !== undefined) this.onChangeApplied?.(committedAt);
    }
  }

  /** Releases the cache folder. */
  close(): void {
    this.cache.unlock();
  }

  /** Logs and counts what was skipped (the message says why; it never carries a secret). */
  private count(refusals: Refusal[]): void {
    for (const refusal of refusals) {
      this.refusalCounts.set(refusal.reason, (this.refusalCounts.get(refusal.reason) ?? 0) + 1);
      this.log.warn(
        { exposition: refusal.expositionId, reason: refusal.reason, problem: refusal.message },
        "skipped an Exposition this gateway cannot serve; the others are served",
      );
    }
  }
}

/** Ended sessions are checked one by one: a malformed entry is dropped, not the message. */
function validEndedSessions(raw: unknown[]): EndedSession[] {
  return raw.flatMap((entry) => {
    const parsed = endedSession.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
