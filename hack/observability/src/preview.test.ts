/**
 * The dashboard preview's real path on a short load: a control plane, the fixture backend and a
 * gateway on 127.0.0.1, scraped every second by a real Prometheus 3.16 (built by
 * hack/prometheus/build.sh when the cache has none), tool calls through the gateway, then every
 * query of the generated dashboard through query_range. Two panels are added to the dashboard
 * with a misspelt metric and a query that does not parse, to show that the checks catch them.
 */
import { prometheusToolBinary } from "@atrium/charts/promtool";
import { beforeAll, describe, expect, it } from "vitest";
import { type Collected, collectPreview } from "./collect.ts";
import { type DashboardPanel, panelProblems, readDashboard } from "./panels.ts";
import { formatValue, renderPage, ticks } from "./render.ts";

/** Panels certain to have data after the load: everything the stack's gateway and control plane do. */
const MUST_HAVE_DATA = [
  "Ready gateways",
  "Live gateways (control plane's view)",
  "Configuration staleness",
  "Change lag (commit → applied)",
  "MCP requests by method",
  "MCP request latency p99",
  "Tool calls by outcome",
  "Failed tool calls by Exposition",
  "Tool call duration p99",
  "Backend duration p99",
  "Backend error answers by status",
  "Result bytes",
  "Auth decisions",
  "API requests by status",
  "API latency p99 by route",
  "Change streams",
  "Failed logins",
];

const broken = (title: string, expr: string): DashboardPanel => ({
  type: "timeseries",
  title,
  gridPos: { x: 0, y: 200, w: 12, h: 8 },
  targets: [{ expr, legendFormat: "{{outcome}}" }],
});

const dashboard = readDashboard();
const misspelt = broken(
  "Misspelt",
  'sum by (outcome) (rate(atrium_tool_call_total{exposition=~"$exposition"}[$__rate_interval]))',
);
const unparsable = broken("Unparsable", "sum by (outcome) (rate(atrium_tool_calls_total[$__rate_interval])");

describe("the dashboard's queries against a real Prometheus scraping a real stack", () => {
  let collected: Collected;
  const panel = (title: string) => collected.panels.find((evaluated) => evaluated.panel.title === title);
  const labels = (title: string, label: string) =>
    new Set(panel(title)?.targets.flatMap((target) => target.series.map((series) => series.metric[label])));

  beforeAll(async () => {
    prometheusToolBinary("prometheus"); // a cold build takes minutes; a warm cache, nothing
    collected = await collectPreview({
      loadSeconds: 20,
      dashboard: { ...dashboard, panels: [...dashboard.panels, misspelt, unparsable] },
      log: (line) => console.log(line),
    });
  }, 900_000);

  it("evaluates every query of every panel, and the panels fed by tool calls have data", () => {
    const real = collected.panels.filter(({ panel }) => panel !== misspelt && panel !== unparsable);
    expect(real).toHaveLength(dashboard.panels.length);
    expect(panelProblems(real, MUST_HAVE_DATA)).toEqual([]);
    expect(collected.load.calls).toBeGreaterThan(150);
  });

  it("sees the load's outcomes, refusals and both Expositions through the dashboard's own queries", () => {
    expect(labels("Tool calls by outcome", "outcome")).toEqual(new Set(["ok", "tool_error", "invalid", "timeout"]));
    expect(labels("Backend error answers by status", "outcome")).toEqual(new Set(["404"]));
    expect(labels("Auth decisions", "reason")).toEqual(new Set(["none", "invalid_api_key"]));
    expect(labels("Failed tool calls by Exposition", "exposition").size).toBeGreaterThan(0);
    expect(labels("Failed logins", "reason").size).toBeGreaterThan(0);
    // A stat's last value: the one gateway is ready.
    const ready = panel("Ready gateways")?.targets[0]?.series[0]?.points.at(-1)?.[1];
    expect(ready).toBe(1);
  });

  it("reports a misspelt metric as a panel without data, and a query that does not parse as refused", () => {
    const problems = panelProblems(collected.panels, ["Misspelt"]);
    expect(problems).toContain("Misspelt: no data");
    expect(problems.find((problem) => problem.startsWith("Unparsable: "))).toMatch(/bad_data/);
  });

  it("draws every panel: titles, lines for series, No data for the rest, values in the panel's unit", () => {
    const html = renderPage(collected.panels, { title: "t", caption: [], width: 1600, range: collected.range });
    for (const { panel } of collected.panels) expect(html).toContain(panel.title);
    expect(html.match(/<path d="M/g)?.length).toBeGreaterThan(20);
    expect(html).toContain("No data"); // the Controllers row: no operator in this stack
    expect(formatValue(0.0042, "s")).toBe("4.2 ms");
    expect(formatValue(0.25, "percentunit")).toBe("25%");
    expect(formatValue(1500, "Bps")).toBe("1.5 kB/s");
    expect(ticks(0, 9)).toEqual([0, 5, 10]);
  });
});
