/**
 * The cost-growth report (growth.ts): a table per dimension (Expositions on one gateway, tools in
 * one Exposition), how fast each figure grows between sizes, and the plots (plot.ts).
 */
import type { ChangeAppliedResult } from "./change-applied.ts";
import { median } from "./load.ts";
import { type GrowthPanel, type GrowthSeries, growthSvg } from "./plot.ts";
import { fixed, machine, revision, thousands } from "./report.ts";
import type { GatewayAtScale } from "./scale.ts";

/** One size of one dimension: the gateway's figures, and how long setting it up took (REST). */
export interface GrowthPoint extends GatewayAtScale {
  size: number;
  /** Expositions: creating those added since the previous size; tools: importing the document. */
  setupMs: number;
}

export interface Dimension {
  key: "expositions" | "tools";
  /** The size's name, plural ("Expositions on one gateway"). */
  sizeName: string;
  setupName: string;
  points: GrowthPoint[];
}

/** Each figure of a point: its name, unit, and value. */
function figures(point: GrowthPoint): { name: string; unit: string; value: number }[] {
  const change = (values: number[]) => median(values);
  return [
    { name: "start to ready", unit: "ms", value: point.readyMs },
    { name: "CPU to ready", unit: "ms", value: point.readyCpuMs },
    { name: "control plane CPU meanwhile", unit: "ms", value: point.controlPlaneCpuMs },
    { name: "RSS", unit: "MB", value: point.rssMb },
    { name: "live heap after GC", unit: "MB", value: point.heap.heapUsedMb },
    { name: "change served, from the write sent", unit: "ms", value: change(point.change.fromRequestMs) },
    { name: "change served, from the commit", unit: "ms", value: change(point.change.fromAnswerMs) },
    { name: "gateway CPU per change", unit: "ms", value: change(point.change.gatewayCpuMs) },
    { name: "tools/list p50", unit: "ms", value: point.toolsList.p50Ms },
    { name: "tools/list p99", unit: "ms", value: point.toolsList.p99Ms },
  ];
}

const changeCell = (change: ChangeAppliedResult, values: number[]) =>
  `${fixed(median(values), 1)} (${fixed(Math.max(...values), 1)})${values === change.fromAnswerMs ? ` ±${fixed(change.resolutionMs, 2)}` : ""}`;

function table(dimension: Dimension): string {
  const rows = dimension.points.map((p) =>
    [
      thousands(p.size),
      `${thousands(p.readyMs)} (${thousands(p.readyCpuMs)}, ${thousands(p.controlPlaneCpuMs)})`,
      `${fixed(p.rssMb, 0)} (${fixed(p.peakRssMb, 0)})`,
      fixed(p.heap.heapUsedMb, 1),
      changeCell(p.change, p.change.fromAnswerMs),
      changeCell(p.change, p.change.fromRequestMs),
      fixed(median(p.change.gatewayCpuMs), 1),
      `${fixed(p.toolsList.p50Ms, 2)} / ${fixed(p.toolsList.p99Ms, 2)}`,
      thousands(p.setupMs),
    ].join(" | "),
  );
  return [
    `| ${dimension.sizeName} | start to ready ms (gateway CPU, control plane CPU) | RSS MB (peak) | live heap MB | change served from the commit, ms: median (slowest) ± resolution | … from the write sent | gateway CPU per change, median ms | tools/list p50 / p99 ms | ${dimension.setupName} ms |`,
    "|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/**
 * How each figure grows from one size to the next: the exponent k of size^k between them (1 is
 * linear, 2 quadratic; a fixed base cost makes it smaller than the per-unit cost's own), and the
 * cost each added unit brought.
 */
function growthLines(dimension: Dimension): string[] {
  const unit = dimension.key === "expositions" ? "Exposition" : "tool";
  const lines: string[] = [];
  for (let i = 1; i < dimension.points.length; i++) {
    const [from, to] = [dimension.points[i - 1], dimension.points[i]];
    if (!from || !to) continue;
    const before = figures(from);
    const parts = figures(to).flatMap((figure, f) => {
      const previous = before[f]?.value ?? Number.NaN;
      if (!(previous > 0 && figure.value > 0)) return [];
      const exponent = Math.log(figure.value / previous) / Math.log(to.size / from.size);
      const perUnit = (figure.value - previous) / (to.size - from.size);
      const added = figure.unit === "MB" ? `${fixed(perUnit * 1024, 1)} KB` : `${fixed(perUnit * 1000, 1)} µs`;
      return [`${figure.name} ×${fixed(figure.value / previous, 2)} (k = ${fixed(exponent, 2)}, ${added} per ${unit})`];
    });
    lines.push(`- ${thousands(from.size)} → ${thousands(to.size)}: ${parts.join("; ")}`);
  }
  return lines;
}

/** The panels of a dimension's plot. */
function panels(dimension: Dimension): GrowthPanel[] {
  const series = (name: string, value: (p: GrowthPoint) => number): GrowthSeries => ({
    name,
    points: dimension.points.map((p) => [p.size, value(p)]),
  });
  return [
    {
      title: "Gateway start to ready",
      unit: "ms",
      series: [
        series("wall clock", (p) => p.readyMs),
        series("gateway CPU", (p) => p.readyCpuMs),
        series("control plane CPU", (p) => p.controlPlaneCpuMs),
      ],
    },
    {
      title: "Gateway memory",
      unit: "MB",
      series: [series("RSS", (p) => p.rssMb), series("live heap after GC", (p) => p.heap.heapUsedMb)],
    },
    {
      title: "One Exposition's change served (median)",
      unit: "ms",
      series: [
        series("from the write sent", (p) => median(p.change.fromRequestMs)),
        series("from the commit", (p) => median(p.change.fromAnswerMs)),
        series("gateway CPU", (p) => median(p.change.gatewayCpuMs)),
      ],
    },
    {
      title: "tools/list of one Exposition",
      unit: "ms",
      series: [series("p50", (p) => p.toolsList.p50Ms), series("p99", (p) => p.toolsList.p99Ms)],
    },
  ];
}

export interface GrowthReport {
  /** The report, its plots linked as `plotLink(dimension key)` names them. */
  markdown(plotLink: (key: Dimension["key"]) => string): string;
  /** SVG text per dimension key. */
  svgs: Map<Dimension["key"], string>;
}

export function growthReport(
  dimensions: Dimension[],
  options: {
    date: string;
    quick: boolean;
    changes: number;
    requests: number;
    /** The machine's 1-minute load average when the run started and when it ended. */
    loadAverages: [number, number];
  },
): GrowthReport {
  const heading = `Run ${options.date} of ${revision()}, on ${machine()}${options.quick ? " — QUICK (smoke) run, numbers not meaningful" : ""}; load average ${options.loadAverages.map((load) => fixed(load, 1)).join(" at the start, ")} at the end (above ≈ 1, other work shared the machine and inflated every wall-clock figure).`;
  const method = `Each size: a fresh gateway on core 0 (control plane, backend and clients on core 1); start to ready from its process starting to its readiness listing every Exposition; RSS one second after; live heap after a full GC (heap-probe.ts); ${options.requests} sequential tools/list of one Exposition; ${options.changes} changes of one Exposition's plan (a tool comes or goes), each timed to the first tools/list answer showing it (change-applied.ts). k is the exponent of size^k from one size to the next: ≤ 1 grows at most linearly, > 1 worse.`;
  const measured = dimensions.filter((dimension) => dimension.points.length > 0);
  const svgs = new Map<Dimension["key"], string>();
  for (const dimension of measured) {
    svgs.set(
      dimension.key,
      growthSvg({
        title: `Gateway cost by ${dimension.sizeName}`,
        subtitle: `${options.date}, ${revision()}; dashed: linear growth from the smallest size`,
        sizeName: dimension.sizeName,
        panels: panels(dimension),
      }),
    );
  }
  const markdown = (plotLink: (key: Dimension["key"]) => string) =>
    [
      heading,
      method,
      ...measured.flatMap((dimension) => [
        `#### ${dimension.sizeName}`,
        table(dimension),
        growthLines(dimension).join("\n"),
        `![Gateway cost by ${dimension.sizeName}](${plotLink(dimension.key)})`,
      ]),
    ].join("\n\n");
  return { markdown, svgs };
}
