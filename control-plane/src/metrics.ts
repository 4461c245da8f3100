/**
 * The control plane's Prometheus metrics, served at /q/metrics on the management listener
 * (management.ts), never on the API port: HTTP requests by method, route pattern and status
 * class and their duration, open change streams and the events sent on them, live gateways,
 * failed logins, and OpenAPI imports by outcome. Process and Node.js metrics are added once per
 * process (main.ts).
 *
 * Every label value comes from a closed set, never from raw request input: routes are the
 * patterns the server declares (`/api/v1/services/:id`, `unmatched` for the rest), methods the
 * standard ones, statuses their class. So no client can grow the number of series. Each control
 * plane has its own registry, so several run side by side in one process (tests).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { OpenApiImportError, type OpenApiImportErrorCode } from "./openapi/errors.ts";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The route label of a request no route matched (404s, whatever their path). */
export const UNMATCHED_ROUTE = "unmatched";

export type StreamEvent = "snapshot" | "changes" | "resumed" | "heartbeat";
export type LoginFailure = "bad_credentials" | "rate_limited";
/** `ok`, the importer's error code when it refused the document, or `error` for anything else. */
export type ImportOutcome = "ok" | OpenApiImportErrorCode | "error";

export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : "other";
}

/** `2xx` … `5xx`; `aborted` when the client left before an answer was sent. */
export function statusLabel(status: number, answered: boolean): string {
  if (!answered) return "aborted";
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}

export class ControlPlaneMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: "atrium_control_plane_http_requests_total",
    help: "HTTP requests by method, route pattern and status class (2xx…5xx, aborted)",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: "atrium_control_plane_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer (a change stream's whole life)",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly openStreams = new Gauge({
    name: "atrium_control_plane_change_streams_open",
    help: "Change streams open on this replica (one per connected gateway)",
    registers: [this.registry],
  });
  readonly streamEvents = new Counter({
    name: "atrium_control_plane_change_stream_events_total",
    help: "Events sent on change streams, by event (snapshot, changes, resumed, heartbeat)",
    labelNames: ["event"] as const,
    registers: [this.registry],
  });
  readonly liveGateways: Gauge;
  readonly loginFailures = new Counter({
    name: "atrium_control_plane_login_failures_total",
    help: "Failed logins by reason (bad_credentials, rate_limited)",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });
  readonly imports = new Histogram({
    name: "atrium_control_plane_openapi_import_duration_seconds",
    help: "OpenAPI imports (download included) by outcome: ok, the importer's error code, or error",
    labelNames: ["outcome"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });

  /** `countLiveGateways`: gateways of every organization that advertised health recently (read at scrape time). */
  constructor(countLiveGateways: () => Promise<number>) {
    this.liveGateways = new Gauge({
      name: "atrium_control_plane_gateways_live",
      help: "Registered gateways, all organizations together, that advertised health within ATRIUM_GATEWAY_STALE_SECONDS (NaN when the database could not be read)",
      registers: [this.registry],
      async collect() {
        this.set(await countLiveGateways().catch(() => Number.NaN));
      },
    });
  }

  /** `route`: the matched route's pattern, undefined when none matched. */
  request(method: string, route: string | undefined, status: number, answered: boolean, seconds: number): void {
    const labels = { method: methodLabel(method), route: route ?? UNMATCHED_ROUTE };
    this.httpRequests.inc({ ...labels, status: statusLabel(status, answered) });
    this.httpDuration.observe(labels, seconds);
  }

  /** Runs an import, observing its duration under its outcome. */
  async timeImport<T>(run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let outcome: ImportOutcome = "error";
    try {
      const result = await run();
      outcome = "ok";
      return result;
    } catch (error) {
      if (error instanceof OpenApiImportError) outcome = error.code;
      throw error;
    } finally {
      this.imports.observe({ outcome }, (performance.now() - started) / 1000);
    }
  }

  /** Adds the process and Node.js metrics (memory, CPU, event loop, GC); once per process, in main. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  /** The text exposition format, and its content type. */
  async render(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
