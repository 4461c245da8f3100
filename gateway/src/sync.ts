/**
 * Keeps the registry in step with the control plane, composing one part per job:
 *
 * - sync-registration.ts registers and advertises health;
 * - sync-stream.ts holds the change stream (watched by heartbeats);
 * - sync-configuration.ts applies what arrives and keeps the cache (cache.ts);
 * - ended-session-reports.ts and problem-reports.ts report to the control plane.
 *
 * This coordinator runs the loop: register when not registered, follow the stream, and after a
 * failure wait (exponential backoff with jitter, `@atrium/contract/backoff`) and start again.
 * While the control plane is unreachable the last configuration keeps being served; a refused
 * health advertisement or stream means "register again"; a refused token is retried rarely and
 * logged as an error. How stale the configuration is stays visible (metric and readiness details).
 *
 * Sessions ended here are reported to the control plane in batches, which streams them to every
 * gateway serving the Exposition (this one included); those ended elsewhere arrive with the stream.
 */
import type { EndedSession } from "@atrium/contract";
import { backoffDelay } from "@atrium/contract/backoff";
import type { GatewayConfig } from "./config.ts";
import { ControlPlaneClient, SYNC_BACKOFF } from "./control-plane-client.ts";
import { EndedSessionReports } from "./ended-session-reports.ts";
import type { SessionSigner } from "./mcp/sessions.ts";
import { ProblemReports } from "./problem-reports.ts";
import type { ExpositionRegistry } from "./registry.ts";
import { SyncedConfiguration } from "./sync-configuration.ts";
import { type FailureKind, failureLogs, SyncFailure, type SyncLog } from "./sync-failure.ts";
import { GatewayRegistration } from "./sync-registration.ts";
import { ChangeStream } from "./sync-stream.ts";

export type { FailureKind, SyncLog } from "./sync-failure.ts";

export class ControlPlaneSync {
  readonly instanceId: string;
  /** Why the last sync attempt failed; cleared when a stream delivers a message. */
  lastFailure: FailureKind | undefined;
  private readonly log: SyncLog;
  private readonly client: ControlPlaneClient;
  private readonly configuration: SyncedConfiguration;
  private readonly registration: GatewayRegistration;
  private readonly stream: ChangeStream;
  private readonly endedSessions: EndedSessionReports;
  private readonly problems: ProblemReports;
  private readonly registry: ExpositionRegistry;
  private stopped = false;

  constructor(
    config: GatewayConfig,
    registry: ExpositionRegistry,
    sessions: SessionSigner,
    log: SyncLog,
    version: string,
    onChangeApplied?: (committedAtMs: number) => void,
  ) {
    this.log = log;
    this.registry = registry;
    this.configuration = new SyncedConfiguration(config, registry, sessions, log, onChangeApplied);
    this.instanceId = this.configuration.instanceId;
    const gateway = { id: config.id, instanceId: this.instanceId };
    this.client = new ControlPlaneClient(config.controlPlaneUrl, config.controlPlaneToken);
    this.stream = new ChangeStream(this.client, gateway);
    this.registration = new GatewayRegistration(
      this.client,
      { config, instanceId: this.instanceId, version },
      log,
      () => this.stream.abort(),
    );
    this.endedSessions = new EndedSessionReports(this.client, config.id, log);
    this.problems = new ProblemReports(this.client, gateway, () => registry.refusals(), log);
  }

  /** True once the control plane has answered (registration and the stream's opening event). */
  get ready(): boolean {
    return this.configuration.ready;
  }

  /** Expositions skipped since start, by reason (a metric). */
  get refusalCounts(): ReadonlyMap<string, number> {
    return this.configuration.refusalCounts;
  }

  /** Runs until stop(): register, then stream forever, re-registering when told to. */
  start(): void {
    void this.run();
  }

  /** For readiness: how current the configuration is, what is not served, and why the sync last failed. */
  details(): Record<string, unknown> {
    const staleness = this.stalenessSeconds();
    return {
      configuration: {
        revision: this.configuration.revision ?? null,
        stalenessSeconds: staleness === undefined ? null : Math.round(staleness),
        notServed: this.registry.refusals().length,
        ...(this.lastFailure ? { lastProblem: this.lastFailure } : {}),
      },
    };
  }

  /** Seconds since the control plane last confirmed the configuration; undefined before it ever did. */
  stalenessSeconds(now = Date.now()): number | undefined {
    return this.configuration.stalenessSeconds(now);
  }

  /**
   * Reports a session ended here (the DELETE has already been answered). Until the control plane
   * accepts it, only this replica refuses it; reports are sent in batches, failures retried with
   * backoff and on reconnect.
   */
  reportEndedSession(ended: EndedSession): void {
    this.endedSessions.add(ended);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.endedSessions.stop();
    this.problems.stop();
    this.stream.stop();
    await this.registration.stop();
    await this.client.close();
    this.configuration.close();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!this.registration.registered) {
          this.configuration.bindOrganization(await this.registration.register());
        }
        await this.follow(() => {
          if (failures > 0 && this.endedSessions.size > 0) void this.endedSessions.send();
          failures = 0;
        });
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        const kind = error instanceof SyncFailure ? error.kind : "unreachable";
        this.lastFailure = kind;
        // A refused token does not come back by itself: retry rarely, and say so loudly.
        const delay = kind === "credential refused" ? SYNC_BACKOFF.maxMs : backoffDelay(failures, SYNC_BACKOFF);
        const fields = { err: (error as Error).message, retryInMs: Math.round(delay) };
        if (kind === "credential refused") this.log.error(fields, failureLogs[kind]);
        else this.log.warn(fields, failureLogs[kind]);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** Follows the stream from the applied revision; `delivered` runs after each message applied. */
  private follow(delivered: () => void): Promise<void> {
    return this.stream.follow(this.configuration.revision, this.registration.heartbeatMs, {
      // Problems are sent again on each new stream: the control plane may have forgotten them.
      opened: () => this.problems.forget(),
      alive: () => this.configuration.alive(),
      unregistered: () => this.registration.lost(),
      event: (name, data) => {
        // Any event shows the stream works: the failure count starts over.
        const applied = this.configuration.apply(name, data);
        delivered();
        this.lastFailure = undefined;
        if (applied) void this.problems.send();
      },
    });
  }
}
