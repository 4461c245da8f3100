/**
 * The generated Grafana dashboard's panels (charts/observability/atrium-dashboard.json), each
 * target's query evaluated over a time range by a real Prometheus, as Grafana would ask for it:
 * `$__rate_interval` and `$exposition` (All) replaced by concrete values.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { RangeSeries, RunningPrometheus } from "./prometheus.ts";

export const DASHBOARD_FILE = resolve(import.meta.dirname, "../../../charts/observability/atrium-dashboard.json");

export interface GridPos {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface DashboardTarget {
  expr: string;
  legendFormat?: string;
  refId?: string;
}

export interface DashboardPanel {
  type: string;
  title: string;
  description?: string;
  gridPos: GridPos;
  fieldConfig?: { defaults?: { unit?: string } };
  targets?: DashboardTarget[];
}

export interface Dashboard {
  uid: string;
  title: string;
  panels: DashboardPanel[];
}

/** A target's evaluation: the query as sent, and its series or the error Prometheus gave. */
export interface EvaluatedTarget {
  expr: string;
  legend: string;
  series: RangeSeries[];
  error?: string;
}

export interface EvaluatedPanel {
  panel: DashboardPanel;
  targets: EvaluatedTarget[];
}

export interface TimeRange {
  start: number;
  end: number;
  step: number;
}

export function readDashboard(file = DASHBOARD_FILE): Dashboard {
  return JSON.parse(readFileSync(file, "utf8")) as Dashboard;
}

/** Grafana's variables made concrete: the rate window, and every Exposition (the variable's All). */
export function concreteQuery(expr: string, rateInterval: string): string {
  return expr.replaceAll("$__rate_interval", rateInterval).replaceAll("$exposition", ".*");
}

/** `{{label}}` of a legend format filled from the series' labels, as Grafana does; the query itself when none. */
export function legendOf(format: string | undefined, metric: Record<string, string>, expr: string): string {
  if (!format) return Object.keys(metric).length > 0 ? JSON.stringify(metric) : expr;
  return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => metric[name] ?? "");
}

/** Every target of every panel (rows have none) through query_range; a refused query is kept as its error. */
export async function evaluateDashboard(
  dashboard: Dashboard,
  prometheus: Pick<RunningPrometheus, "queryRange">,
  range: TimeRange,
  rateInterval: string,
): Promise<EvaluatedPanel[]> {
  const evaluated: EvaluatedPanel[] = [];
  for (const panel of dashboard.panels) {
    const targets: EvaluatedTarget[] = [];
    for (const target of panel.targets ?? []) {
      const expr = concreteQuery(target.expr, rateInterval);
      const legend = target.legendFormat ?? "";
      try {
        targets.push({ expr, legend, series: await prometheus.queryRange(expr, range) });
      } catch (error) {
        targets.push({ expr, legend, series: [], error: error instanceof Error ? error.message : String(error) });
      }
    }
    evaluated.push({ panel, targets });
  }
  return evaluated;
}

/**
 * What is wrong with evaluated panels: each refused query, and each panel of `mustHaveData` (by
 * title) none of whose queries returned a number (a series of NaN only, e.g. a quantile of no
 * observations, is no data). Empty when all is well.
 */
export function panelProblems(panels: EvaluatedPanel[], mustHaveData: string[]): string[] {
  const problems: string[] = [];
  for (const { panel, targets } of panels) {
    for (const target of targets) if (target.error) problems.push(`${panel.title}: ${target.error}`);
  }
  for (const title of mustHaveData) {
    const found = panels.find(({ panel }) => panel.title === title);
    if (!found) problems.push(`${title}: no such panel`);
    else if (
      !found.targets.some((target) => target.series.some((series) => series.points.some(([, v]) => Number.isFinite(v))))
    )
      problems.push(`${title}: no data`);
  }
  return problems;
}
