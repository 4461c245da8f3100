/**
 * The gateway's registration with the control plane and its health advertisements. The answer
 * says how often to advertise health, how often the stream sends heartbeats, and which
 * organization the token belongs to. A refused advertisement (registration gone, token no longer
 * valid) marks the gateway unregistered and tells the coordinator, which registers again — and
 * that registration stops the stream for good if the token is refused.
 */
import { registrationAnswer } from "@atrium/contract";
import { RestProblemError, RestUnreachableError } from "@atrium/contract/rest-client";
import type { z } from "zod";
import { credentialFingerprint } from "./cache.ts";
import type { GatewayConfig } from "./config.ts";
import type { ControlPlaneClient } from "./control-plane-client.ts";
import { SyncFailure, type SyncLog } from "./sync-failure.ts";

/** Until the control plane says otherwise at registration. */
const DEFAULT_HEARTBEAT_SECONDS = 15;

/** The organization the gateway's token belongs to, as the registration answer names it. */
export type Organization = NonNullable<z.output<typeof registrationAnswer>["organization"]>;

/** What a registration advertises, and the token it is made with. */
type RegistrationConfig = Pick<GatewayConfig, "id" | "fqdns" | "labels" | "controlPlaneToken">;

export class GatewayRegistration {
  /** How often the stream sends a heartbeat (the control plane says at registration). */
  heartbeatMs = DEFAULT_HEARTBEAT_SECONDS * 1000;
  private isRegistered = false;
  private healthTimer: NodeJS.Timeout | undefined;
  private readonly client: ControlPlaneClient;
  private readonly config: RegistrationConfig;
  private readonly instanceId: string;
  private readonly version: string;
  private readonly log: SyncLog;
  private readonly onLost: () => void;

  constructor(
    client: ControlPlaneClient,
    gateway: { config: RegistrationConfig; instanceId: string; version: string },
    log: SyncLog,
    /** Called when a health advertisement is refused (the stream should stop and registration start over). */
    onLost: () => void,
  ) {
    this.client = client;
    this.config = gateway.config;
    this.instanceId = gateway.instanceId;
    this.version = gateway.version;
    this.log = log;
    this.onLost = onLost;
  }

  get registered(): boolean {
    return this.isRegistered;
  }

  /** The control plane no longer knows this registration (the stream said so): register again. */
  lost(): void {
    this.isRegistered = false;
  }

  /** Registers and starts advertising health; returns the organization the token belongs to. */
  async register(): Promise<Organization> {
    const { id, fqdns, labels, controlPlaneToken } = this.config;
    const registration = { id, instanceId: this.instanceId, fqdns, labels, version: this.version };
    const answer = await this.client.rest
      .post("/gateways/register", registration, registrationAnswer)
      .catch((error: unknown) => {
        throw registrationFailure(error);
      });
    this.heartbeatMs = (answer.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000;
    // Control planes that predate it do not say: the credential stands for the organization.
    const organization = answer.organization ?? {
      id: `credential-${credentialFingerprint(controlPlaneToken)}`,
      name: "",
    };
    this.isRegistered = true;
    this.log.info({ id, fqdns, labels, organization: organization.name }, "registered with the control plane");
    clearInterval(this.healthTimer);
    this.healthTimer = setInterval(() => void this.advertiseHealth(), answer.healthIntervalSeconds * 1000);
    this.healthTimer.unref();
    return organization;
  }

  /** Stops advertising health and removes the registration (if there is one). */
  async stop(): Promise<void> {
    clearInterval(this.healthTimer);
    if (this.isRegistered) {
      await this.client.tryCall("DELETE", `/gateways/${this.config.id}?instanceId=${this.instanceId}`);
    }
  }

  private async advertiseHealth(): Promise<void> {
    const response = await this.client.tryCall("POST", `/gateways/${this.config.id}/health`, {
      instanceId: this.instanceId,
    });
    if (response.status === 404 || response.status === 401) {
      // The registration is gone (stale, cleaned up while unreachable) or the credential no longer
      // holds: register again, which stops the stream for good if the token is refused.
      this.log.warn({ status: response.status }, "health advertisement refused; registering again");
      this.isRegistered = false;
      this.onLost();
    }
  }
}

/** Why a registration failed; a control plane that cannot be reached stays as it was thrown (unreachable). */
function registrationFailure(error: unknown): unknown {
  if (error instanceof RestUnreachableError && error.status !== undefined) {
    return new SyncFailure("unreadable message", "unreadable registration answer");
  }
  if (!(error instanceof RestProblemError)) return error;
  const { status, text } = error;
  if (status === 401 || status === 403) {
    return new SyncFailure("credential refused", `registration refused (${status}): ${text}`);
  }
  // A 5xx is a control plane in trouble (or shutting down), not a verdict on this gateway.
  const kind = status >= 500 ? "unreachable" : "refused";
  return new SyncFailure(kind, `registration refused (${status}): ${text.slice(0, 300)}`);
}
