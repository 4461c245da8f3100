/**
 * One gateway of the simulated fleet: it registers and follows its change stream with the
 * gateway's own code (GatewayRegistration, ChangeStream on a ControlPlaneClient of its own, its
 * own API token), but serves nothing: it only notes when each event arrives. A thousand of them
 * fit in one process.
 */
import { randomUUID } from "node:crypto";
import { ChangeStream, ControlPlaneClient, GatewayRegistration, VERSION } from "@atrium/gateway";

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

export class SimulatedGateway {
  readonly id: string;
  readonly controlPlaneUrl: string;
  /** Why its stream ended, if it did. */
  failure: Error | undefined;
  private readonly client: ControlPlaneClient;
  private readonly registration: GatewayRegistration;
  private readonly stream: ChangeStream;
  private snapshot: (() => void) | undefined;
  private waiter: { expositionId: string; arrived: (at: number | undefined) => void } | undefined;

  constructor(controlPlaneUrl: string, token: string, id: string, labels: Record<string, string>) {
    this.id = id;
    this.controlPlaneUrl = controlPlaneUrl;
    const instanceId = randomUUID();
    this.client = new ControlPlaneClient(controlPlaneUrl, token);
    const config = { id, fqdns: [`${id}.fleet.example.com`], labels, controlPlaneToken: token };
    this.registration = new GatewayRegistration(this.client, { config, instanceId, version: VERSION }, silentLog, () =>
      this.stream.abort(),
    );
    this.stream = new ChangeStream(this.client, { id, instanceId });
  }

  /** Registers, opens the stream and resolves once its snapshot arrived. */
  async start(): Promise<void> {
    await this.registration.register();
    const snapshot = new Promise<void>((resolve) => {
      this.snapshot = resolve;
    });
    const following = this.stream.follow(undefined, this.registration.heartbeatMs, {
      opened: () => {},
      alive: () => {},
      unregistered: () => {},
      event: (name, data) => this.event(name, data),
    });
    const ended = following.catch((error: Error) => {
      this.failure = error;
      this.waiter?.arrived(undefined);
    });
    await Promise.race([snapshot, ended]);
    if (this.failure) throw this.failure;
  }

  /**
   * When (performance.now()) the next `changes` event upserting `expositionId` arrives;
   * undefined if none did within `timeoutMs` or the stream ended.
   */
  nextChange(expositionId: string, timeoutMs: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => arrived(undefined), timeoutMs);
      const arrived = (at: number | undefined) => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve(at);
      };
      this.waiter = { expositionId, arrived };
      if (this.failure) arrived(undefined);
    });
  }

  /** Ends the stream and deregisters, as a gateway does when it shuts down. */
  async stop(): Promise<void> {
    this.stream.stop();
    await this.registration.stop();
    await this.client.close();
  }

  private event(name: string | undefined, data: string): void {
    const at = performance.now();
    if (name === "snapshot") this.snapshot?.();
    if (name !== "changes" || !this.waiter) return;
    const upserts = (JSON.parse(data) as { upserts: { id: string }[] }).upserts;
    if (upserts.some((exposition) => exposition.id === this.waiter?.expositionId)) this.waiter.arrived(at);
  }
}
