/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go does it (the client library
 * has none): the leader renews every retry period; the others take the Lease over once its
 * holder has not renewed it for leaseDurationSeconds, measured on their own clock from when
 * they last saw it change (so clock skew between nodes does not matter); every write carries
 * the resourceVersion read, so two candidates never both win. A leader that cannot renew
 * within the renew deadline steps down before anyone else may take over.
 */
import { ApiException, CoordinationV1Api, type KubeConfig, type V1Lease, V1MicroTime } from "@kubernetes/client-node";
import type { LeaderElectionSettings } from "./config.ts";
import { describeError } from "./errors.ts";
import type { Log } from "./log.ts";

export interface LeaderElectorOptions extends Omit<LeaderElectionSettings, "enabled"> {
  kubeConfig: KubeConfig;
  identity: string;
  log: Log;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
}

type Attempt = "leading" | "held-by-other" | "failed";

export class LeaderElector {
  readonly #api: CoordinationV1Api;
  readonly #options: LeaderElectorOptions;
  #leader = false;
  #lastRenewAt = 0;
  /** The Lease record last seen, and when (local clock) it was first seen like that. */
  #observedRecord = "";
  #observedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  constructor(options: LeaderElectorOptions) {
    this.#options = options;
    this.#api = options.kubeConfig.makeApiClient(CoordinationV1Api);
  }

  get isLeader(): boolean {
    return this.#leader;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#tick();
  }

  /**
   * Stops competing. With `release` (a graceful shutdown) a leader hands the Lease back so another
   * replica takes over at its next attempt instead of after the lease duration.
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
    if (!this.#leader) return;
    if (options.release ?? true) await this.#release();
    this.#setLeader(false);
  }

  #tick(): void {
    this.#running = (async () => {
      let attempt: Attempt;
      try {
        attempt = await this.#tryAcquireOrRenew();
      } catch (error) {
        this.#options.log.warn(
          { error: describeError(error), lease: this.#leaseName() },
          "leader election attempt failed",
        );
        attempt = "failed";
      }
      if (this.#stopped) return;
      const now = Date.now();
      if (attempt === "leading") {
        this.#lastRenewAt = now;
        this.#setLeader(true);
      } else if (attempt === "held-by-other") {
        this.#setLeader(false);
      } else if (this.#leader && now - this.#lastRenewAt > this.#options.renewDeadlineSeconds * 1000) {
        this.#options.log.warn({ lease: this.#leaseName() }, "could not renew the lease in time; stepping down");
        this.#setLeader(false);
      }
    })();
    this.#running.finally(() => {
      if (this.#stopped) return;
      this.#timer = setTimeout(() => this.#tick(), this.#options.retryPeriodSeconds * 1000);
      this.#timer.unref();
    });
  }

  #setLeader(leader: boolean): void {
    if (leader === this.#leader) return;
    this.#leader = leader;
    this.#options.log.info(
      { identity: this.#options.identity, lease: this.#leaseName() },
      leader ? "became leader" : "stopped leading",
    );
    try {
      if (leader) this.#options.onStartedLeading();
      else this.#options.onStoppedLeading();
    } catch (error) {
      this.#options.log.error({ error: describeError(error) }, "leadership callback failed");
    }
  }

  async #tryAcquireOrRenew(): Promise<Attempt> {
    const { namespace, leaseName: name, identity } = this.#options;
    const now = Date.now();
    const leaseDurationSeconds = Math.max(1, Math.ceil(this.#options.leaseDurationSeconds));
    let lease: V1Lease;
    try {
      lease = await this.#api.readNamespacedLease({ namespace, name });
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 404)) throw error;
      return this.#write(() =>
        this.#api.createNamespacedLease({
          namespace,
          body: {
            metadata: { name, namespace },
            spec: {
              holderIdentity: identity,
              leaseDurationSeconds,
              acquireTime: new V1MicroTime(now),
              renewTime: new V1MicroTime(now),
              leaseTransitions: 0,
            },
          },
        }),
      );
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? "";
    const record = `${holder}|${String(spec.renewTime ?? "")}|${spec.leaseTransitions ?? 0}`;
    if (record !== this.#observedRecord) {
      this.#observedRecord = record;
      this.#observedAt = now;
    }
    const durationMs = (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
    if (holder && holder !== identity && now < this.#observedAt + durationMs) return "held-by-other";
    const takingOver = holder !== identity;
    return this.#write(() =>
      this.#api.replaceNamespacedLease({
        namespace,
        name,
        body: {
          ...lease,
          spec: {
            ...spec,
            holderIdentity: identity,
            leaseDurationSeconds,
            renewTime: new V1MicroTime(now),
            ...(takingOver
              ? { acquireTime: new V1MicroTime(now), leaseTransitions: (spec.leaseTransitions ?? 0) + 1 }
              : {}),
          },
        },
      }),
    );
  }

  /** Runs a create/replace of the Lease; losing the race (409) means someone else holds it now. */
  async #write(write: () => Promise<V1Lease>): Promise<Attempt> {
    try {
      const written = await write();
      this.#observedRecord = `${written.spec?.holderIdentity ?? ""}|${String(written.spec?.renewTime ?? "")}|${
        written.spec?.leaseTransitions ?? 0
      }`;
      this.#observedAt = Date.now();
      return "leading";
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return "held-by-other";
      throw error;
    }
  }

  /** Empties the holder and shortens the lease so the next candidate acquires it at once. */
  async #release(): Promise<void> {
    const { namespace, leaseName: name, identity } = this.#options;
    try {
      const lease = await this.#api.readNamespacedLease({ namespace, name });
      if (lease.spec?.holderIdentity !== identity) return;
      const now = new V1MicroTime();
      await this.#api.replaceNamespacedLease({
        namespace,
        name,
        body: {
          ...lease,
          spec: { ...lease.spec, holderIdentity: undefined, leaseDurationSeconds: 1, renewTime: now, acquireTime: now },
        },
      });
    } catch (error) {
      this.#options.log.warn({ error: describeError(error), lease: this.#leaseName() }, "could not release the lease");
    }
  }

  #leaseName(): string {
    return `${this.#options.namespace}/${this.#options.leaseName}`;
  }
}
