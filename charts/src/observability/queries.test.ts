/**
 * Every PromQL query of the dashboard and of the alerts parses with Prometheus's own grammar, and
 * selects only series the components really export, matching only labels those series have. What
 * they export is the metric catalogue generated from their metrics objects (docs/metrics.json,
 * hack/metrics: its own test fails when the file is out of date).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chartsDir } from "../generated-files.ts";
import { ruleCharts, ruleGroups } from "./alerts.ts";
import { DASHBOARD_UID, dashboard, dashboardQueries } from "./dashboard.ts";
import { parseQuery, type Selector, withoutGrafanaVariables } from "./promql.ts";

interface CatalogueEntry {
  name: string;
  type: string;
  labels: string[];
  series: string[];
}

const catalogue: CatalogueEntry[] = JSON.parse(readFileSync(join(chartsDir, "../docs/metrics.json"), "utf8")).metrics;

/** Series name → the labels it may carry: its own, those Prometheus adds to every target, and a histogram bucket's `le`. */
const exported = new Map<string, Set<string>>();
for (const entry of catalogue) {
  for (const series of entry.series) {
    const labels = [...entry.labels, "job", "instance", ...(series.endsWith("_bucket") ? ["le"] : [])];
    exported.set(series, new Set(labels));
  }
}
/** Prometheus's own series for every scrape target. */
exported.set("up", new Set(["job", "instance"]));

const queries = [
  ...dashboardQueries().map((query, index) => ({ where: `dashboard query ${index + 1}`, query })),
  ...ruleCharts.flatMap((chart) =>
    ruleGroups(chart).flatMap((group) =>
      group.rules.map((rule) => ({ where: `${rule.alert} (${rule.labels.severity})`, query: rule.expr })),
    ),
  ),
];

/** What is wrong with a selector: an unknown series, or a label that series does not carry. */
function problems(selector: Selector): string[] {
  const labels = exported.get(selector.metric);
  if (!selector.metric) return ["a selector without a metric name"];
  if (!labels) return [`${selector.metric} is not exported`];
  return selector.labels
    .filter((label) => !labels.has(label))
    .map((label) => `${selector.metric} has no label ${label}`);
}

const problemsOf = (query: string) => parseQuery(query).selectors.flatMap(problems);

describe("the dashboard's and the alerts' PromQL", () => {
  it.each(queries)("$where parses", ({ query }) => {
    expect(parseQuery(withoutGrafanaVariables(query)).errors, query).toEqual([]);
  });

  it.each(queries)("$where selects only exported series, by their labels", ({ query }) => {
    const plain = withoutGrafanaVariables(query);
    expect(parseQuery(plain).selectors.length, `${query} selects nothing`).toBeGreaterThan(0);
    expect(problemsOf(plain), query).toEqual([]);
  });

  it("the checks refuse a query that does not parse, an unknown series, a wrong label", () => {
    for (const name of ["atrium_tool_calls_total", "atrium_control_plane_http_requests_total"]) {
      expect(exported.has(name), name).toBe(true);
    }
    expect(parseQuery("sum(rate(atrium_tool_calls_total[5m])").errors).not.toEqual([]);
    expect(parseQuery("atrium_tool_calls_total{outcome=}").errors).not.toEqual([]);
    expect(problemsOf("sum(rate(atrium_tool_calls_totl[5m]))")).toEqual(["atrium_tool_calls_totl is not exported"]);
    expect(problemsOf("atrium_tool_calls_total_bucket")).toEqual(["atrium_tool_calls_total_bucket is not exported"]);
    expect(problemsOf('atrium_tool_calls_total{outcom="ok"}')).toEqual(["atrium_tool_calls_total has no label outcom"]);
    expect(problemsOf('atrium_tool_calls_total{le="1"}')).toEqual(["atrium_tool_calls_total has no label le"]);
    expect(problemsOf('{__name__="atrium_tool_calls_total"}')).toEqual(["a selector without a metric name"]);
    expect(problemsOf('up{job="x"} unless on (job) atrium_gateway_change_lag_seconds_bucket{le="1"}')).toEqual([]);
    expect(() => withoutGrafanaVariables("rate(x[$window])")).toThrow(/\$window/);
  });
});

describe("the dashboard", () => {
  const model = dashboard();
  // biome-ignore lint/suspicious/noExplicitAny: the dashboard's JSON model, read by path.
  const panels = model.panels as any[];

  it("has unique panel ids, fits Grafana's 24-column grid, and reads the chosen data source", () => {
    expect(model.uid).toBe(DASHBOARD_UID);
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    for (const panel of panels) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      if (panel.type === "row") continue;
      expect(panel.datasource, panel.title).toEqual({ type: "prometheus", uid: "${datasource}" });
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
    }
    expect(panels.filter((panel) => panel.type === "row").map((row) => row.title)).toEqual([
      "Fleet",
      "Tools",
      "Control plane",
      "Controllers",
    ]);
  });

  it("no two panels overlap", () => {
    const cells = new Set<string>();
    for (const { gridPos, title } of panels) {
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `${title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
      }
    }
  });
});
