/**
 * Keeps the registry in step with the control plane: registers, advertises health, holds the
 * change stream and applies what arrives. While the control plane is unreachable the last
 * configuration keeps being served; reconnects back off exponentially (with jitter); a refused
 * health advertisement or stream means "register again", and a refused token stops the stream.
 *
 * The stream is watched: the control plane sends a heartbeat every few seconds (it says how often
 * when the gateway registers), so three silent heartbeats mean a dead or frozen replica and the
 * gateway reconnects, with short connect and header timeouts so a frozen replica cannot hold it.
 * How stale the configuration is stays visible (metric and readiness details).
 *
 * Each Exposition of a message is validated and compiled on its own (see registry.ts): one the
 * gateway cannot serve is skipped and reported to the control plane, the others are applied and
 * the revision advances. Every applied state is written to the cache (see cache.ts).
 *
 * Sessions ended here are reported to the control plane in batches (ended-session-reports.ts),
 * which streams them to every gateway serving the Exposition (this one included); those ended
 * elsewhere arrive with the stream. Skipped Expositions are reported by problem-reports.ts.
 */
import { randomBytes } from "node:crypto";
import {
  changesEnvelope,
  type EndedSession,
  endedSession,
  registrationAnswer,
  snapshotEnvelope,
} from "@atrium/contract";
import { createParser } from "eventsource-parser";
import { request } from "undici";
import { ConfigurationCache, credentialFingerprint } from "./cache.ts";
import type { GatewayConfig } from "./config.ts";
import { BACKOFF_MAX_MS, backoffMs, ControlPlaneClient, parseJson } from "./control-plane-client.ts";
import { EndedSessionReports } from "./ended-session-reports.ts";
import type { SessionSigner } from "./mcp/sessions.ts";
import { ProblemReports } from "./problem-reports.ts";
import type { ExpositionRegistry, Refusal } from "./registry.ts";

export interface SyncLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Until the control plane says otherwise at registration. */
const DEFAULT_HEARTBEAT_SECONDS = 15;
/** At most this long for the stream's response headers (the control plane sends them at once). */
const STREAM_HEADERS_TIMEOUT_MS = 10_000;

/** Why a sync attempt failed, so the log says what happened: unreachable is only one of them. */
export type FailureKind = "unreachable" | "refused" | "credential refused" | "unreadable message";
class SyncFailure extends Error {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

const failureLogs: Record<FailureKind, string> = {
  unreachable: "control plane unreachable; serving the last configuration",
  refused: "the control plane refused this gateway; serving the last configuration",
  "credential refused":
    "the control plane refused this gateway's token: the change stream is stopped, the last configuration is served; " +
    "give the gateway a valid token (ATRIUM_CONTROL_PLANE_TOKEN) and restart it",
  "unreadable message": "the control plane sent a change-stream message this gateway cannot read; reconnecting",
};

export class ControlPlaneSync {
  /** True once the control plane has answered (registration and the stream's opening event). */
  ready = false;
  readonly instanceId: string;
  private revision: number | undefined;
  private readonly config: GatewayConfig;
  private readonly registry: ExpositionRegistry;
  private readonly sessions: SessionSigner;
  private readonly log: SyncLog;
  private readonly cache: ConfigurationCache;
  private readonly client: ControlPlaneClient;
  private readonly endedSessions: EndedSessionReports;
  private readonly problems: ProblemReports;
  private organization: { id: string; name: string } | undefined;
  private stopped = false;
  private registered = false;
  private healthTimer: NodeJS.Timeout | undefined;
  private healthIntervalMs = 120_000;
  private heartbeatMs = DEFAULT_HEARTBEAT_SECONDS * 1000;
  private streamAbort: AbortController | undefined;
  /** When the control plane last confirmed the configuration was current (a message or heartbeat). */
  private currentAt: number | undefined;
  private readonly version: string;
  /** Why the last sync attempt failed; cleared when a stream opens. */
  lastFailure: FailureKind | undefined;
  /** Expositions skipped since start, by reason (a metric). */
  readonly refusalCounts = new Map<string, number>();

  constructor(
    config: GatewayConfig,
    registry: ExpositionRegistry,
    sessions: SessionSigner,
    log: SyncLog,
    version: string,
  ) {
    this.config = config;
    this.registry = registry;
    this.sessions = sessions;
    this.log = log;
    this.version = version;
    this.client = new ControlPlaneClient(config.controlPlaneUrl, config.controlPlaneToken);
    this.cache = new ConfigurationCache(config.cacheDir, config.controlPlaneToken, log);
    this.cache.lock();
    const cache = this.cache.load();
    this.instanceId = cache?.instanceId ?? this.cache.instanceIdHint() ?? randomBytes(12).toString("base64url");
    if (cache) {
      this.revision = cache.revision;
      this.organization = cache.organization;
      this.currentAt = cache.currentAt;
      this.count(registry.replaceAll(cache.expositions, cache.refusals ?? []));
      sessions.refuse(cache.endedSessions ?? []);
      log.info({ expositions: registry.size, revision: cache.revision }, "serving the cached configuration");
    }
    this.endedSessions = new EndedSessionReports(this.client, config.id, log);
    this.problems = new ProblemReports(
      this.client,
      { id: config.id, instanceId: this.instanceId },
      () => registry.refusals(),
      log,
    );
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
        revision: this.revision ?? null,
        stalenessSeconds: staleness === undefined ? null : Math.round(staleness),
        notServed: this.registry.refusals().length,
        ...(this.lastFailure ? { lastProblem: this.lastFailure } : {}),
      },
    };
  }

  /** Seconds since the control plane last confirmed the configuration; undefined before it ever did. */
  stalenessSeconds(now = Date.now()): number | undefined {
    return this.currentAt === undefined ? undefined : Math.max(0, (now - this.currentAt) / 1000);
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
    clearInterval(this.healthTimer);
    this.endedSessions.stop();
    this.problems.stop();
    this.streamAbort?.abort();
    if (this.registered) {
      await this.client.tryCall("DELETE", `/api/v1/gateways/${this.config.id}?instanceId=${this.instanceId}`);
    }
    await this.client.close();
    this.cache.unlock();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!this.registered) await this.register();
        await this.stream(() => {
          if (failures > 0 && this.endedSessions.size > 0) void this.endedSessions.send();
          failures = 0;
        });
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        const kind = error instanceof SyncFailure ? error.kind : "unreachable";
        this.lastFailure = kind;
        // A refused token does not come back by itself: retry rarely, and say so loudly.
        const delay = kind === "credential refused" ? BACKOFF_MAX_MS : backoffMs(failures);
        const fields = { err: (error as Error).message, retryInMs: Math.round(delay) };
        if (kind === "credential refused") this.log.error(fields, failureLogs[kind]);
        else this.log.warn(fields, failureLogs[kind]);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async register(): Promise<void> {
    const { id, fqdns, labels } = this.config;
    const response = await this.client.call("POST", "/api/v1/gateways/register", {
      id,
      instanceId: this.instanceId,
      fqdns,
      labels,
      version: this.version,
    });
    if (response.status === 401 || response.status === 403) {
      this.streamAbort?.abort();
      throw new SyncFailure("credential refused", `registration refused (${response.status}): ${response.text}`);
    }
    if (response.status !== 200) {
      // A 5xx is a control plane in trouble (or shutting down), not a verdict on this gateway.
      const kind = response.status >= 500 ? "unreachable" : "refused";
      throw new SyncFailure(kind, `registration refused (${response.status}): ${response.text.slice(0, 300)}`);
    }
    const answer = registrationAnswer.safeParse(parseJson(response.text));
    if (!answer.success) throw new SyncFailure("unreadable message", "unreadable registration answer");
    this.healthIntervalMs = answer.data.healthIntervalSeconds * 1000;
    this.heartbeatMs = (answer.data.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS) * 1000;
    // Control planes that predate it do not say: the credential stands for the organization.
    const organization = answer.data.organization ?? {
      id: `credential-${credentialFingerprint(this.config.controlPlaneToken)}`,
      name: "",
    };
    if (!this.cache.bindOrganization(organization)) {
      // What the cache served was not this organization's: drop it, and take a fresh snapshot.
      this.registry.replaceAll([]);
      this.revision = undefined;
      this.currentAt = undefined;
    }
    this.organization = organization;
    this.registered = true;
    this.log.info({ id, fqdns, labels, organization: organization.name }, "registered with the control plane");
    clearInterval(this.healthTimer);
    this.healthTimer = setInterval(() => void this.advertiseHealth(), this.healthIntervalMs);
    this.healthTimer.unref();
  }

  private async advertiseHealth(): Promise<void> {
    const response = await this.client.tryCall("POST", `/api/v1/gateways/${this.config.id}/health`, {
      instanceId: this.instanceId,
    });
    if (response.status === 404 || response.status === 401) {
      // The registration is gone (stale, cleaned up while unreachable) or the credential no longer
      // holds: register again, which stops the stream for good if the token is refused.
      this.log.warn({ status: response.status }, "health advertisement refused; registering again");
      this.registered = false;
      this.streamAbort?.abort();
    }
  }

  private async stream(onOpen: () => void): Promise<void> {
    const query = new URLSearchParams({ instanceId: this.instanceId });
    if (this.revision !== undefined) query.set("since", String(this.revision));
    this.streamAbort = new AbortController();
    // A stream that stays silent for three heartbeats is dead or its replica frozen.
    const silenceMs = 3 * this.heartbeatMs;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(`${this.client.url}/api/v1/gateways/${this.config.id}/stream?${query}`, {
        dispatcher: this.client.dispatcher,
        headers: { authorization: this.client.authorization, accept: "text/event-stream" },
        signal: this.streamAbort.signal,
        headersTimeout: Math.min(STREAM_HEADERS_TIMEOUT_MS, silenceMs),
        bodyTimeout: silenceMs,
      });
    } catch (error) {
      if (this.stopped) return;
      throw new SyncFailure("unreachable", (error as Error).message);
    }
    if (response.statusCode === 404 || response.statusCode === 401) {
      this.registered = false;
      await response.body.dump();
      throw new SyncFailure(
        "refused",
        response.statusCode === 404
          ? "the control plane does not know this gateway's registration"
          : "the control plane refused this gateway's token on the change stream",
      );
    }
    if (response.statusCode !== 200) {
      const text = await response.body.text();
      const kind = response.statusCode >= 500 ? "unreachable" : "refused";
      throw new SyncFailure(kind, `change stream refused (${response.statusCode}): ${text.slice(0, 300)}`);
    }
    // Problems are sent again on each new stream: the control plane may have forgotten them.
    this.problems.forget();
    let failure: Error | undefined;
    const parser = createParser({
      onEvent: (event) => {
        try {
          this.handle(event.event, event.data);
          onOpen();
          this.lastFailure = undefined;
        } catch (error) {
          failure = new SyncFailure("unreadable message", (error as Error).message);
          this.streamAbort?.abort();
        }
      },
    });
    try {
      for await (const chunk of response.body) {
        if (this.ready) this.currentAt = Date.now(); // an event or a heartbeat: the replica is alive
        parser.feed(chunk.toString("utf8"));
      }
    } catch (error) {
      if (failure) throw failure;
      if (this.stopped) return;
      throw new SyncFailure("unreachable", `the change stream broke: ${(error as Error).message}`);
    }
    if (failure) throw failure;
    throw new SyncFailure("unreachable", "the change stream ended");
  }

  private handle(event: string | undefined, data: string): void {
    if (event === "snapshot") {
      const snapshot = snapshotEnvelope.parse(JSON.parse(data));
      const refusals = this.registry.replaceAll(snapshot.expositions);
      // Added to, never replaced: sessions ended here may not have reached the control plane yet.
      this.sessions.refuse(validEndedSessions(snapshot.endedSessions));
      this.revision = snapshot.revision;
      this.log.info(
        {
          revision: snapshot.revision,
          expositions: this.registry.size,
          skipped: refusals.length,
          endedSessions: snapshot.endedSessions.length,
        },
        "applied a snapshot",
      );
      this.count(refusals);
    } else if (event === "changes") {
      const changes = changesEnvelope.parse(JSON.parse(data));
      const refusals = this.registry.apply(changes.upserts, changes.deletes);
      this.sessions.refuse(validEndedSessions(changes.endedSessions));
      this.revision = changes.revision;
      this.log.info(
        {
          revision: changes.revision,
          upserts: changes.upserts.length,
          skipped: refusals.length,
          deletes: changes.deletes.length,
          endedSessions: changes.endedSessions.length,
        },
        "applied changes",
      );
      this.count(refusals);
    } else if (event === "resumed") {
      const resumed = (JSON.parse(data) as { revision?: unknown }).revision;
      if (typeof resumed !== "number") throw new Error("a resumed event without a revision");
      this.revision = resumed;
    } else {
      return;
    }
    this.ready = true;
    this.currentAt = Date.now();
    this.writeCache();
    void this.problems.send();
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

  private writeCache(): void {
    this.cache.write({
      instanceId: this.instanceId,
      organization: this.organization,
      revision: this.revision,
      currentAt: this.currentAt,
      expositions: this.registry.all(),
      refusals: this.registry.refusals(),
      endedSessions: this.sessions.endedSessions(),
    });
  }
}

/** Ended sessions are checked one by one too: a malformed entry is dropped, not the message. */
function validEndedSessions(raw: unknown[]): EndedSession[] {
  return raw.flatMap((entry) => {
    const parsed = endedSession.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
