/**
 * The preview's data: a real local stack under synthetic load, scraped by a real Prometheus, and
 * every query of the generated dashboard evaluated over the load's time range. Everything started
 * here is stopped before it returns.
 */
import { driveLoad, type LoadSummary, startPreviewStack } from "./load.ts";
import { type Dashboard, type EvaluatedPanel, evaluateDashboard, readDashboard, type TimeRange } from "./panels.ts";
import { startPrometheus } from "./prometheus.ts";

/** What stands for Grafana's `$__rate_interval`: 15 scrapes of 1 s, smooth enough to read. */
export const RATE_INTERVAL = "15s";

export interface Collected {
  dashboard: Dashboard;
  panels: EvaluatedPanel[];
  range: TimeRange;
  load: LoadSummary;
}

export async function collectPreview(options: {
  loadSeconds: number;
  dashboard?: Dashboard;
  log?: (line: string) => void;
}): Promise<Collected> {
  const log = options.log ?? (() => {});
  const dashboard = options.dashboard ?? readDashboard();
  log("stack: starting a control plane (PGlite), the fixture backend and a gateway on 127.0.0.1");
  const running = await startPreviewStack();
  try {
    const prometheus = await startPrometheus({ jobs: running.jobs, scrapeIntervalSeconds: 1, log });
    try {
      await prometheus.waitForTargetsUp();
      log(`prometheus: scraping ${running.jobs.map((job) => job.job).join(" and ")}`);
      const start = Math.floor(Date.now() / 1000);
      log(`load: ${options.loadSeconds} s of tool calls`);
      const load = await driveLoad(running, options.loadSeconds, log);
      log(`load: done, ${JSON.stringify(load)}`);
      // Two more scrapes, so the last second of load is in the TSDB.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const range = { start, end: Math.floor(Date.now() / 1000), step: prometheus.scrapeIntervalSeconds };
      const panels = await evaluateDashboard(dashboard, prometheus, range, RATE_INTERVAL);
      const queries = panels.reduce((sum, panel) => sum + panel.targets.length, 0);
      log(`prometheus: ${queries} queries of ${panels.length} panels evaluated over ${range.end - range.start} s`);
      return { dashboard, panels, range, load };
    } finally {
      await prometheus.stop();
    }
  } finally {
    await running.close();
    log("stack: stopped");
  }
}
