/**
 * A real Prometheus server (3.16, built by hack/prometheus/build.sh from its Go module) scraping
 * given /q/metrics endpoints on 127.0.0.1, with its TSDB in a temp dir; queried over its HTTP API.
 * Only the API is used: the web UI's assets are not built in.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { prometheusToolBinary } from "@atrium/charts/promtool";
import { freePorts, seconds, startInTempDir, waitUntilReady } from "@atrium/kube-testenv";

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;

/** A scrape job: its name (the `job` label) and the base URLs whose /q/metrics it scrapes. */
export interface ScrapeJob {
  job: string;
  urls: string[];
}

/** One series of a range query: its labels and [unix seconds, value] points (NaN kept as NaN). */
export interface RangeSeries {
  metric: Record<string, string>;
  points: [number, number][];
}

export interface RunningPrometheus {
  /** http://127.0.0.1:<port> */
  url: string;
  scrapeIntervalSeconds: number;
  /** `/api/v1/query_range`; throws with Prometheus's error when the query is refused. */
  queryRange(expr: string, range: { start: number; end: number; step: number }): Promise<RangeSeries[]>;
  /** The scrape targets' health as Prometheus last saw it: `job instance` → `up`/`down`/`unknown`. */
  targets(): Promise<Map<string, string>>;
  /** Waits until every target has been scraped successfully at least once. */
  waitForTargetsUp(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then removes the TSDB; idempotent. */
  stop(): Promise<void>;
}

/** Prometheus's configuration: each job scraped over plain HTTP at /q/metrics every `interval` seconds. */
export function prometheusConfig(jobs: ScrapeJob[], intervalSeconds: number): string {
  const config = {
    global: { scrape_interval: `${intervalSeconds}s`, scrape_timeout: `${intervalSeconds}s` },
    scrape_configs: jobs.map(({ job, urls }) => ({
      job_name: job,
      metrics_path: "/q/metrics",
      static_configs: [{ targets: urls.map((url) => new URL(url).host) }],
    })),
  };
  return JSON.stringify(config, null, 2); // JSON is YAML
}

/** Starts Prometheus scraping `jobs` and waits until its API answers. Call `stop()` when done. */
export async function startPrometheus(options: {
  jobs: ScrapeJob[];
  scrapeIntervalSeconds?: number;
  log?: (line: string) => void;
}): Promise<RunningPrometheus> {
  const log = options.log ?? (() => {});
  const interval = options.scrapeIntervalSeconds ?? 1;
  const startedAt = Date.now();
  const command = prometheusToolBinary("prometheus");
  const processes = await startInTempDir({ name: "prometheus", graceMs: STOP_GRACE_MS, log });
  const { dir, stop } = processes;

  try {
    const [port] = (await freePorts(1)) as [number];
    const url = `http://127.0.0.1:${port}`;
    const configFile = join(dir, "prometheus.yml");
    await writeFile(configFile, prometheusConfig(options.jobs, interval));
    const child = processes.launch("prometheus", command, [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ]);
    await waitUntilReady(child, READY_TIMEOUT_MS, async () => {
      const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return { ready: response.status === 200, detail: `GET /-/ready: ${response.status}` };
    });
    log(`prometheus: ready at ${url} in ${seconds(Date.now() - startedAt)}, scraping every ${interval} s`);

    // GET: every API endpoint takes it (some only it), with the parameters in the query string.
    const api = async (path: string, params: Record<string, string>) => {
      const response = await fetch(`${url}${path}?${new URLSearchParams(params)}`, {
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await response.json()) as { status: string; data?: unknown; error?: string; errorType?: string };
      if (body.status !== "success") throw new Error(`${path}: ${body.errorType ?? response.status}: ${body.error}`);
      return body.data;
    };
    const targets = async () => {
      const data = (await api("/api/v1/targets", { state: "active" })) as {
        activeTargets: { labels: Record<string, string>; health: string }[];
      };
      return new Map(data.activeTargets.map((t) => [`${t.labels.job} ${t.labels.instance}`, t.health]));
    };
    return {
      url,
      scrapeIntervalSeconds: interval,
      async queryRange(expr, { start, end, step }) {
        const data = (await api("/api/v1/query_range", {
          query: expr,
          start: String(start),
          end: String(end),
          step: String(step),
        })) as { resultType: string; result: { metric: Record<string, string>; values: [number, string][] }[] };
        return data.result.map(({ metric, values }) => ({
          metric,
          points: values.map(([time, value]) => [time, Number(value)] as [number, number]),
        }));
      },
      targets,
      async waitForTargetsUp(timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const health = await targets();
          if (health.size > 0 && [...health.values()].every((state) => state === "up")) return;
          if (Date.now() > deadline) {
            throw new Error(`scrape targets not up after ${seconds(timeoutMs)}: ${JSON.stringify([...health])}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
