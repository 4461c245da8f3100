/**
 * Reports the 2025-era sessions clients ended on this gateway to the control plane, which streams
 * them to every gateway serving the Exposition. Sessions ended within a short delay go in one
 * request (at most ENDED_SESSIONS_REPORT_MAX); failures are retried with backoff and after a
 * reconnect. Until a report is accepted, only this gateway refuses the session; past the control
 * plane's per-Exposition cap it stays that way (see docs/change-stream.md).
 */
import { ENDED_SESSIONS_REPORT_MAX, type EndedSession } from "@atrium/contract";
import { backoffDelay } from "@atrium/contract/backoff";
import { type ControlPlaneClient, parseJson, SYNC_BACKOFF } from "./control-plane-client.ts";

/** Ended sessions reported within this long go in one request. */
const BATCH_DELAY_MS = 200;

export interface ReportLog {
  warn(object: object, message: string): void;
}

export class EndedSessionReports {
  private readonly client: ControlPlaneClient;
  private readonly path: string;
  private readonly log: ReportLog;
  /** Not accepted yet, by session hash. */
  private readonly pending = new Map<string, EndedSession>();
  private sending = false;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(client: ControlPlaneClient, gatewayId: string, log: ReportLog) {
    this.client = client;
    this.path = `/gateways/${gatewayId}/ended-sessions`;
    this.log = log;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Queues a session; it goes out with the others ended within the batch delay. */
  add(ended: EndedSession): void {
    this.pending.set(ended.sessionHash, ended);
    if (this.timer || this.sending) return;
    this.schedule(BATCH_DELAY_MS);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** In batches, in order; stops at the first failure and retries later. */
  async send(): Promise<void> {
    if (this.sending || this.stopped) return;
    this.sending = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      while (this.pending.size > 0) {
        const now = Date.now();
        for (const [hash, ended] of this.pending) if (Date.parse(ended.expiresAt) <= now) this.pending.delete(hash);
        const batch = [...this.pending.values()].slice(0, ENDED_SESSIONS_REPORT_MAX);
        if (batch.length === 0) return;
        const response = await this.client.tryCall("POST", this.path, { endedSessions: batch });
        if (response.status === 0 || response.status >= 500) {
          this.failures += 1;
          const delay = backoffDelay(this.failures, SYNC_BACKOFF);
          this.log.warn(
            { err: response.text.slice(0, 300), pending: this.pending.size, retryInMs: Math.round(delay) },
            "could not report ended sessions; until then only this replica refuses them",
          );
          this.schedule(delay);
          return;
        }
        if (response.status === 200) {
          const dropped = (parseJson(response.text) as { dropped?: number } | undefined)?.dropped ?? 0;
          if (dropped > 0) {
            this.log.warn(
              { dropped },
              "the control plane's cap on ended sessions was reached; only this replica refuses the rest",
            );
          }
        } else if (response.status !== 204) {
          // Any other refusal (its Exposition deleted, the token revoked) would not change on retry.
          this.log.warn(
            { status: response.status, problem: response.text.slice(0, 300) },
            "the control plane refused ended sessions; only this replica refuses them",
          );
        }
        for (const ended of batch) this.pending.delete(ended.sessionHash);
        this.failures = 0;
      }
    } finally {
      this.sending = false;
    }
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => void this.send(), delayMs);
    this.timer.unref();
  }
}
