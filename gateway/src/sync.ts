/**
 * Keeps the registry in step with the control plane: registers, advertises health, holds the
 * change stream and applies what arrives. While the control plane is unreachable the last
 * configuration keeps being served; reconnects back off exponentially (with jitter); a refused
 * health advertisement or stream means "register again". Every applied state is written to a
 * cache file, so a restart while the control plane is down still serves.
 *
 * Sessions ended here are reported to the control plane, which streams them to every gateway
 * serving the Exposition (this one included); those ended elsewhere arrive with the stream.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CompiledExposition, changesEvent, type EndedSession, snapshotEvent } from "@atrium/control-plane/stream";
import { createParser } from "eventsource-parser";
import { request } from "undici";
import type { GatewayConfig } from "./config.ts";
import type { SessionSigner } from "./mcp/sessions.ts";
import type { ExpositionRegistry } from "./registry.ts";

interface CacheFile {
  instanceId: string;
  revision: number | undefined;
  expositions: CompiledExposition[];
  /** Absent in caches written before sessions were shared. */
  endedSessions?: EndedSession[];
}

export interface SyncLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/** Exponential, with jitter so that gateways do not come back all at once. */
function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(failures, 10)) * (0.5 + Math.random() / 2);
}

export class ControlPlaneSync {
  /** True once the control plane has answered (registration and the stream's opening event). */
  ready = false;
  readonly instanceId: string;
  private revision: number | undefined;
  private readonly config: GatewayConfig;
  private readonly registry: ExpositionRegistry;
  private readonly sessions: SessionSigner;
  private readonly log: SyncLog;
  private readonly cacheFile: string;
  private stopped = false;
  private registered = false;
  private healthTimer: NodeJS.Timeout | undefined;
  private healthIntervalMs = 120_000;
  private streamAbort: AbortController | undefined;
  private readonly version: string;
  /** Sessions ended here that the control plane has not accepted yet, by session hash. */
  private readonly unreported = new Map<string, EndedSession>();
  private reporting = false;
  private reportFailures = 0;
  private reportRetry: NodeJS.Timeout | undefined;

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
    this.cacheFile = join(config.cacheDir, "configuration.json");
    const cache = this.readCache();
    this.instanceId = cache?.instanceId ?? randomBytes(12).toString("base64url");
    if (cache) {
      this.revision = cache.revision;
      registry.replaceAll(cache.expositions);
      sessions.refuse(cache.endedSessions ?? []);
      log.info({ expositions: cache.expositions.length, revision: cache.revision }, "serving the cached configuration");
    }
  }

  /** Runs until stop(): register, then stream forever, re-registering when told to. */
  start(): void {
    void this.run();
  }

  /**
   * Reports a session ended here (the DELETE has already been answered). Until the control plane
   * accepts it, only this replica refuses it; failures are retried with backoff and on reconnect.
   */
  reportEndedSession(ended: EndedSession): void {
    this.unreported.set(ended.sessionHash, ended);
    void this.reportEndedSessions();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.healthTimer);
    clearTimeout(this.reportRetry);
    this.streamAbort?.abort();
    if (this.registered) {
      await this.controlPlane("DELETE", `/api/v1/gateways/${this.config.id}?instanceId=${this.instanceId}`).catch(
        () => undefined,
      );
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!this.registered) await this.register();
        await this.stream(() => {
          if (failures > 0 && this.unreported.size > 0) void this.reportEndedSessions();
          failures = 0;
        });
      } catch (error) {
        if (this.stopped) return;
        failures += 1;
        const delay = backoffMs(failures);
        this.log.warn(
          { err: (error as Error).message, retryInMs: Math.round(delay) },
          "control plane unreachable; serving the last configuration",
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async register(): Promise<void> {
    const { id, fqdns, labels } = this.config;
    const response = await this.controlPlane("POST", "/api/v1/gateways/register", {
      id,
      instanceId: this.instanceId,
      fqdns,
      labels,
      version: this.version,
    });
    if (response.status !== 200) throw new Error(`registration refused (${response.status}): ${response.text}`);
    const answer = JSON.parse(response.text) as { healthIntervalSeconds: number };
    this.healthIntervalMs = answer.healthIntervalSeconds * 1000;
    this.registered = true;
    this.log.info({ id, fqdns, labels }, "registered with the control plane");
    clearInterval(this.healthTimer);
    this.healthTimer = setInterval(() => void this.advertiseHealth(), this.healthIntervalMs);
    this.healthTimer.unref();
  }

  private async advertiseHealth(): Promise<void> {
    const response = await this.controlPlane("POST", `/api/v1/gateways/${this.config.id}/health`, {
      instanceId: this.instanceId,
    }).catch((error: Error) => ({ status: 0, text: error.message }));
    if (response.status === 404) {
      // The registration is gone (stale, or cleaned up while unreachable): register again.
      this.log.warn({}, "health advertisement refused; registering again");
      this.registered = false;
      this.streamAbort?.abort();
    }
  }

  /** One request per session, in order; stops at the first failure and retries later. */
  private async reportEndedSessions(): Promise<void> {
    if (this.reporting || this.stopped) return;
    this.reporting = true;
    clearTimeout(this.reportRetry);
    try {
      for (const [hash, ended] of this.unreported) {
        if (Date.parse(ended.expiresAt) > Date.now()) {
          const response = await this.controlPlane(
            "POST",
            `/api/v1/gateways/${this.config.id}/ended-sessions`,
            ended,
          ).catch((error: Error) => ({ status: 0, text: error.message }));
          if (response.status === 0 || response.status >= 500) {
            this.reportFailures += 1;
            const delay = backoffMs(this.reportFailures);
            this.log.warn(
              { err: response.text.slice(0, 300), pending: this.unreported.size, retryInMs: Math.round(delay) },
              "could not report an ended session; until then only this replica refuses it",
            );
            this.reportRetry = setTimeout(() => void this.reportEndedSessions(), delay);
            this.reportRetry.unref();
            return;
          }
          // Any other refusal (its Exposition deleted, the token revoked) would not change on retry.
          if (response.status !== 204) {
            this.log.warn(
              { status: response.status, problem: response.text.slice(0, 300) },
              "the control plane refused an ended session; only this replica refuses it",
            );
          }
        }
        this.unreported.delete(hash);
        this.reportFailures = 0;
      }
    } finally {
      this.reporting = false;
    }
  }

  private async stream(onOpen: () => void): Promise<void> {
    const query = new URLSearchParams({ instanceId: this.instanceId });
    if (this.revision !== undefined) query.set("since", String(this.revision));
    this.streamAbort = new AbortController();
    const response = await request(`${this.config.controlPlaneUrl}/api/v1/gateways/${this.config.id}/stream?${query}`, {
      headers: { authorization: `Bearer ${this.config.controlPlaneToken}`, accept: "text/event-stream" },
      signal: this.streamAbort.signal,
      headersTimeout: 30_000,
      bodyTimeout: 60_000, // heartbeats arrive every 15 s
    });
    if (response.statusCode === 404) {
      this.registered = false;
      await response.body.dump();
      throw new Error("the control plane does not know this gateway's registration");
    }
    if (response.statusCode !== 200) {
      const text = await response.body.text();
      throw new Error(`change stream refused (${response.statusCode}): ${text.slice(0, 300)}`);
    }
    let failure: Error | undefined;
    const parser = createParser({
      onEvent: (event) => {
        try {
          this.handle(event.event, event.data);
          onOpen();
        } catch (error) {
          failure = error as Error;
          this.streamAbort?.abort();
        }
      },
    });
    try {
      for await (const chunk of response.body) parser.feed(chunk.toString("utf8"));
    } catch (error) {
      if (failure) throw failure;
      if (this.stopped) return;
      throw error;
    }
    if (failure) throw failure;
    throw new Error("the change stream ended");
  }

  private handle(event: string | undefined, data: string): void {
    if (event === "snapshot") {
      const snapshot = snapshotEvent.parse(JSON.parse(data));
      this.registry.replaceAll(snapshot.expositions);
      // Added to, never replaced: sessions ended here may not have reached the control plane yet.
      this.sessions.refuse(snapshot.endedSessions);
      this.revision = snapshot.revision;
      this.log.info(
        {
          revision: snapshot.revision,
          expositions: snapshot.expositions.length,
          endedSessions: snapshot.endedSessions.length,
        },
        "applied a snapshot",
      );
    } else if (event === "changes") {
      const changes = changesEvent.parse(JSON.parse(data));
      this.registry.apply(changes.upserts, changes.deletes);
      this.sessions.refuse(changes.endedSessions);
      this.revision = changes.revision;
      this.log.info(
        {
          revision: changes.revision,
          upserts: changes.upserts.length,
          deletes: changes.deletes.length,
          endedSessions: changes.endedSessions.length,
        },
        "applied changes",
      );
    } else if (event === "resumed") {
      this.revision = (JSON.parse(data) as { revision: number }).revision;
    } else {
      return;
    }
    this.ready = true;
    this.writeCache();
  }

  private async controlPlane(method: "GET" | "POST" | "DELETE", path: string, body?: unknown) {
    const response = await request(`${this.config.controlPlaneUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.config.controlPlaneToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    return { status: response.statusCode, text: await response.body.text() };
  }

  private readCache(): CacheFile | undefined {
    try {
      return JSON.parse(readFileSync(this.cacheFile, "utf8")) as CacheFile;
    } catch {
      return undefined;
    }
  }

  /** Atomically, readable by the gateway's user only: it holds backend secrets. */
  private writeCache(): void {
    const cache: CacheFile = {
      instanceId: this.instanceId,
      revision: this.revision,
      expositions: this.registry.all(),
      endedSessions: this.sessions.endedSessions(),
    };
    mkdirSync(this.config.cacheDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(cache), { mode: 0o600 });
    renameSync(temporary, this.cacheFile);
  }
}
