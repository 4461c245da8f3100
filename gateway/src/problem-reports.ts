/**
 * Reports the Expositions this gateway received but does not serve (see registry.ts) to the
 * control plane: the whole current set, whenever it differs from what the control plane last
 * accepted, and again after each reconnection. Shown in the Exposition's REST view.
 */
import type { ExpositionProblem } from "@atrium/contract";
import { backoffDelay } from "@atrium/contract/backoff";
import { type ControlPlaneClient, SYNC_BACKOFF } from "./control-plane-client.ts";
import type { ReportLog } from "./ended-session-reports.ts";
import type { Refusal } from "./registry.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ProblemReports {
  private readonly client: ControlPlaneClient;
  private readonly path: string;
  private readonly instanceId: string;
  private readonly current: () => Refusal[];
  private readonly log: ReportLog;
  /** The set last accepted (JSON); undefined: send it again. */
  private accepted: string | undefined;
  private sending = false;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    client: ControlPlaneClient,
    gateway: { id: string; instanceId: string },
    current: () => Refusal[],
    log: ReportLog,
  ) {
    this.client = client;
    this.path = `/gateways/${gateway.id}/problems`;
    this.instanceId = gateway.instanceId;
    this.current = current;
    this.log = log;
  }

  /** The control plane may have forgotten them (a new stream, a new registration): send again. */
  forget(): void {
    this.accepted = undefined;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  /** Sends the set when it differs from what the control plane last accepted. */
  async send(): Promise<void> {
    if (this.sending || this.stopped) return;
    const json = this.json();
    if (json === this.accepted) return;
    this.sending = true;
    clearTimeout(this.retry);
    try {
      const response = await this.client.tryCall("PUT", this.path, {
        instanceId: this.instanceId,
        problems: JSON.parse(json),
      });
      if (response.status === 0 || response.status >= 500) {
        this.retry = setTimeout(() => void this.send(), backoffDelay(3, SYNC_BACKOFF));
        this.retry.unref();
        return;
      }
      // Not retried until the set changes (or the stream reconnects): it would be refused again.
      this.accepted = json;
      if (response.status !== 204) {
        this.log.warn(
          { status: response.status, problem: response.text.slice(0, 300) },
          "the control plane refused this gateway's report of Expositions it cannot serve",
        );
      }
    } finally {
      this.sending = false;
    }
    // The set may have changed while the report was on its way.
    if (this.json() !== this.accepted) void this.send();
  }

  /** Those with an Exposition id the control plane can know. */
  private json(): string {
    const problems: ExpositionProblem[] = this.current().flatMap((refusal) =>
      refusal.expositionId && UUID.test(refusal.expositionId)
        ? [{ expositionId: refusal.expositionId, message: refusal.message }]
        : [],
    );
    return JSON.stringify(problems);
  }
}
