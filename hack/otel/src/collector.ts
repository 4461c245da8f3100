/**
 * A real OpenTelemetry Collector for tests: the binary hack/otel/build.sh builds, started on free
 * 127.0.0.1 ports with a generated config (OTLP receiver over gRPC and HTTP; one file exporter per
 * signal, writing OTLP/JSON lines into the collector's temp dir), stopped with its temp dir removed.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePorts, seconds, startInTempDir, waitUntilReady } from "@atrium/kube-testenv";
import { type CollectedSpan, readSpans } from "./spans.ts";

export interface TestCollector {
  /** OTLP/HTTP base URL, http://127.0.0.1:<port>: the exporters' OTEL_EXPORTER_OTLP_ENDPOINT. */
  otlpHttpEndpoint: string;
  /** The traces URL of OTLP/HTTP, `${otlpHttpEndpoint}/v1/traces`. */
  otlpHttpTracesUrl: string;
  /** OTLP/gRPC endpoint, http://127.0.0.1:<port> (plaintext). */
  otlpGrpcEndpoint: string;
  /** The file exporters' output, one OTLP/JSON export request a line, per signal. */
  files: { traces: string; metrics: string; logs: string };
  /** Every span written to the traces file so far. */
  spans(): Promise<CollectedSpan[]>;
  /**
   * Polls the traces file until `until` holds for the spans so far (default: at least one span)
   * and returns them; fails after `timeoutMs` with what was there.
   */
  waitForSpans(until?: (spans: CollectedSpan[]) => boolean, timeoutMs?: number): Promise<CollectedSpan[]>;
  /** Stops the collector (it flushes its files first) and removes its temp dir. Idempotent. */
  stop(): Promise<void>;
}

export interface TestCollectorOptions {
  /** Receives progress lines and every line the collector prints. */
  log?: (line: string) => void;
}

// A start takes well under a second when idle; the margin is for loaded CI machines.
const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 10_000;
// The file exporter buffers; a short flush interval keeps waitForSpans quick.
const FLUSH_INTERVAL = "100ms";
const WAIT_FOR_SPANS_TIMEOUT_MS = 10_000;

let binary: string | undefined;

/**
 * Runs hack/otel/build.sh (instant when its cache is warm) once per process; returns the binary, a
 * static one (CGO_ENABLED=0), so it also runs alone in an image FROM scratch.
 */
export function collectorBinary(): string {
  if (binary) return binary;
  const repoRoot = resolve(import.meta.dirname, "../../..");
  // build.sh prints the binary's path as its last stdout line; progress goes to stderr as is.
  const stdout = execFileSync("bash", [join(repoRoot, "hack/otel/build.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const path = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  if (!existsSync(path)) throw new Error(`hack/otel/build.sh did not produce the collector (printed: ${path})`);
  binary = path;
  return path;
}

/** The collector's config: JSON, which its YAML reader takes as is. */
function collectorConfig(ports: { grpc: number; http: number }, files: TestCollector["files"]): object {
  const file = (path: string) => ({ path, flush_interval: FLUSH_INTERVAL });
  return {
    receivers: {
      otlp: {
        protocols: {
          grpc: { endpoint: `127.0.0.1:${ports.grpc}` },
          http: { endpoint: `127.0.0.1:${ports.http}` },
        },
      },
    },
    exporters: {
      "file/traces": file(files.traces),
      "file/metrics": file(files.metrics),
      "file/logs": file(files.logs),
    },
    service: {
      // Its own metrics would listen on :8888 by default: two collectors at once would collide.
      telemetry: { metrics: { level: "none" } },
      pipelines: {
        traces: { receivers: ["otlp"], exporters: ["file/traces"] },
        metrics: { receivers: ["otlp"], exporters: ["file/metrics"] },
        logs: { receivers: ["otlp"], exporters: ["file/logs"] },
      },
    },
  };
}

/**
 * During a test run (the root vitest config's global setup sets ATRIUM_TEST_RUN_DIR, see
 * @atrium/reliability), what the collector received joins the components' logs, so the run's
 * secrets scan reads every span, metric and log record too.
 */
async function keepForSecretsScan(dir: string): Promise<void> {
  const runDir = process.env.ATRIUM_TEST_RUN_DIR;
  if (!runDir || !existsSync(runDir)) return;
  const kept = join(runDir, "logs", `otelcol-${process.pid}-${basename(dir)}`);
  await cp(dir, kept, { recursive: true, filter: (source) => !source.endsWith("config.json") });
}

/** Starts the collector and waits until its OTLP/HTTP port answers. Call `stop()` when done. */
export async function startCollector(options: TestCollectorOptions = {}): Promise<TestCollector> {
  const log = options.log ?? (() => {});
  const startedAt = Date.now();
  const command = collectorBinary();
  // Stopping sends SIGTERM: the collector shuts its pipelines down, and the file exporters flush and close.
  const processes = await startInTempDir({
    name: "otelcol",
    graceMs: STOP_GRACE_MS,
    log,
    beforeRemove: keepForSecretsScan,
  });
  const { dir, stop } = processes;

  try {
    const [grpc, http] = (await freePorts(2)) as [number, number];
    const files = {
      traces: join(dir, "traces.jsonl"),
      metrics: join(dir, "metrics.jsonl"),
      logs: join(dir, "logs.jsonl"),
    };
    const configPath = join(dir, "config.json");
    await writeFile(configPath, JSON.stringify(collectorConfig({ grpc, http }, files), null, 2));
    const child = processes.launch("otelcol", command, [`--config=${configPath}`]);

    const otlpHttpEndpoint = `http://127.0.0.1:${http}`;
    const otlpHttpTracesUrl = `${otlpHttpEndpoint}/v1/traces`;
    // Exporters start before receivers, and the receiver's gRPC server before its HTTP one: an
    // answer on HTTP (405 to a GET) means the whole pipeline is up.
    await waitUntilReady(child, READY_TIMEOUT_MS, async () => {
      const response = await fetch(otlpHttpTracesUrl, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return { ready: response.status === 405, detail: `GET /v1/traces: ${response.status}` };
    });
    log(
      `otelcol: ready (OTLP/HTTP ${otlpHttpEndpoint}, OTLP/gRPC 127.0.0.1:${grpc}) in ${seconds(Date.now() - startedAt)}`,
    );

    const spans = () => readSpans(files.traces);
    const waitForSpans = async (
      until: (spans: CollectedSpan[]) => boolean = (found) => found.length > 0,
      timeoutMs = WAIT_FOR_SPANS_TIMEOUT_MS,
    ) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = await spans();
        if (until(found)) return found;
        if (Date.now() > deadline) {
          const names = found.map((span) => `${span.name} (${span.traceId})`).join(", ") || "none";
          throw new Error(
            `the collector's file did not have the expected spans after ${seconds(timeoutMs)}; spans: ${names}`,
          );
        }
        await sleep(100);
      }
    };
    return {
      otlpHttpEndpoint,
      otlpHttpTracesUrl,
      otlpGrpcEndpoint: `http://127.0.0.1:${grpc}`,
      files,
      spans,
      waitForSpans,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
