/**
 * Cost growth of one gateway: how its start to ready, memory, a change applied after the control
 * plane commits it and tools/list latency grow with the Expositions it serves (100, 1,000,
 * 10,000) and with the tools of one Exposition (100, 1,000, 5,000). Each size gets a fresh
 * gateway on core 0 (scale.ts `measureGatewayAtScale`); the control plane (PGlite), backend and
 * clients run on core 1, as in run.ts. Prints a table per dimension with the growth between
 * sizes, and draws one SVG plot per dimension (plot.ts, Apache ECharts' server-side renderer).
 *
 *   node bench/gateway/growth.ts [--expositions 100,1000,10000] [--tools 100,1000,5000]
 *                                [--changes 10] [--requests 200] [--quick] [--out <dir>] [--no-write]
 *
 * --changes: changes of one Exposition timed per size; --requests: tools/list timed per size.
 * --quick (CI smoke, seconds): 5 and 10 Expositions and tools, 2 changes, 20 requests; writes
 *   its report and plots to --out only.
 * --out: write the report and plots there instead of bench/results (a run with --out, other
 *   sizes or --quick leaves the docs alone).
 * A plain run writes bench/results/growth-<date>.md with growth-<date>-<dimension>.svg beside it,
 * copies the plots to docs/images/performance/, and replaces its block of docs/performance.md.
 * Exits 1 when a size could not be measured.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ApiClient } from "@atrium/control-plane/testing";
import { type BenchContext, startBenchContext } from "./contestants.ts";
import { type Dimension, type GrowthPoint, growthReport } from "./growth-report.ts";
import { REPO_ROOT, runMain } from "./processes.ts";
import { updateDoc } from "./report.ts";
import { createProbe, ExpositionFleet, measureGatewayAtScale } from "./scale.ts";
import { createExposition, createGroup } from "./setup.ts";

const DEFAULTS = { expositions: "100,1000,10000", tools: "100,1000,5000", changes: "10", requests: "200" };
const { values } = parseArgs({
  options: {
    expositions: { type: "string" },
    tools: { type: "string" },
    changes: { type: "string" },
    requests: { type: "string" },
    quick: { type: "boolean", default: false },
    out: { type: "string" },
    "no-write": { type: "boolean", default: false },
  },
});
const quick = values.quick;
const sizes = (flag: string, fallback: string) => {
  const list = flag.split(",").map((size) => Number(size.trim()));
  if (list.some((size) => !Number.isInteger(size) || size < 2)) {
    throw new Error(`sizes are whole numbers of at least 2, comma-separated: "${flag}" (default ${fallback})`);
  }
  return list.sort((a, b) => a - b);
};
function count(flag: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${flag} is a whole number of at least 1: "${value}"`);
  return parsed;
}
const settings = {
  date: new Date().toISOString().slice(0, 10),
  quick,
  expositions: sizes(values.expositions ?? (quick ? "5,10" : DEFAULTS.expositions), DEFAULTS.expositions),
  tools: sizes(values.tools ?? (quick ? "5,10" : DEFAULTS.tools), DEFAULTS.tools),
  changes: count("--changes", values.changes ?? (quick ? "2" : DEFAULTS.changes)),
  requests: count("--requests", values.requests ?? (quick ? "20" : DEFAULTS.requests)),
  waitForQuiet: !quick,
};
// Only the default sizes, measured in full, replace the documented figures.
const plain =
  !quick &&
  values.out === undefined &&
  values.expositions === undefined &&
  values.tools === undefined &&
  values.changes === undefined &&
  values.requests === undefined;
const write = !values["no-write"] && (plain || values.out !== undefined);

const progress = (message: string) => process.stderr.write(`[growth bench] ${message}\n`);

const measureOptions = {
  changes: settings.changes,
  toolsListRequests: settings.requests,
  waitForQuiet: settings.waitForQuiet,
};

/** One gateway group growing to each size; a fresh gateway measured at each. */
async function expositionsDimension(context: BenchContext, admin: ApiClient): Promise<GrowthPoint[]> {
  const fleet = await ExpositionFleet.create(context, admin, "growth-expositions");
  const points: GrowthPoint[] = [];
  for (const size of settings.expositions) {
    progress(`${size} Expositions: creating them`);
    const setupMs = await fleet.growTo(size);
    progress(`${size} Expositions: measuring a fresh gateway`);
    const { also: _, ...measured } = await measureGatewayAtScale(context, admin, {
      ...measureOptions,
      id: `gw-growth-e${size}`,
      role: fleet.role,
      expositions: size,
      probe: { ...fleet.probe, expositionId: fleet.probeId },
    });
    points.push({ size, setupMs, ...measured });
  }
  return points;
}

/** An Exposition of a `size`-operation service per size, each in a group of its own. */
async function toolsDimension(context: BenchContext, admin: ApiClient): Promise<GrowthPoint[]> {
  const points: GrowthPoint[] = [];
  for (const size of settings.tools) {
    progress(`${size} tools: importing the document`);
    const role = `growth-tools-${size}`;
    const { importMs, ...probe } = await createProbe(context, admin, role, size);
    const expositionId = await createExposition(admin, role, probe.planId, await createGroup(admin, role));
    progress(`${size} tools: measuring a fresh gateway`);
    const { also: _, ...measured } = await measureGatewayAtScale(context, admin, {
      ...measureOptions,
      id: `gw-growth-t${size}`,
      role,
      expositions: 1,
      probe: { ...probe, expositionId },
    });
    points.push({ size, setupMs: importMs, ...measured });
  }
  return points;
}

await runMain("growth-bench", async (scratchDir) => {
  const startLoad = loadavg()[0] ?? Number.NaN;
  const { context, admin } = await startBenchContext({ scratchDir, gatewayNodeArgs: [] });
  const dimensions: Dimension[] = [
    {
      key: "expositions",
      sizeName: "Expositions on one gateway",
      setupName: "creating those added (REST)",
      points: await expositionsDimension(context, admin),
    },
    {
      key: "tools",
      sizeName: "tools in one Exposition",
      setupName: "importing the document (REST)",
      points: await toolsDimension(context, admin),
    },
  ];
  const plotName = (key: string) => `growth-${settings.date}-${key}.svg`;
  const docsPlot = (key: string) => `images/performance/growth-${key}.svg`;
  const report = growthReport(dimensions, { ...settings, loadAverages: [startLoad, loadavg()[0] ?? Number.NaN] });
  console.log(report.markdown(plotName));
  if (write) {
    const outDir = values.out ?? join(REPO_ROOT, "bench", "results");
    mkdirSync(outDir, { recursive: true });
    const reportFile = join(outDir, `growth-${settings.date}.md`);
    writeFileSync(reportFile, `# Gateway cost growth, ${settings.date}\n\n${report.markdown(plotName)}\n`);
    for (const [key, svg] of report.svgs) writeFileSync(join(outDir, plotName(key)), svg);
    progress(`wrote ${reportFile} and its plots beside it`);
    if (plain) {
      mkdirSync(join(REPO_ROOT, "docs", "images", "performance"), { recursive: true });
      for (const [key, svg] of report.svgs) writeFileSync(join(REPO_ROOT, "docs", docsPlot(key)), svg);
      updateDoc(join(REPO_ROOT, "docs", "performance.md"), report.markdown(docsPlot), {
        begin: "<!-- bench/gateway/growth.ts: begin (generated, do not edit by hand) -->",
        end: "<!-- bench/gateway/growth.ts: end -->",
        heading: "Cost growth: latest results",
      });
      progress("copied the plots to docs/images/performance and updated docs/performance.md");
    }
  }
  return true;
});
