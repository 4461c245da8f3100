/**
 * The metric catalogue, read from the code: the gateway's, control plane's, operator's and
 * webhook's metrics objects are built and described (name, type, labels, help, and the series
 * names a query may select). `node hack/metrics/src/generate.ts` writes it to docs/metrics.md and
 * docs/metrics.json; catalogue.test.ts fails when those files are out of date.
 *
 * Process and Node.js metrics (`process_*`, `nodejs_*`), which the control plane and operator add
 * in their main only, are left out.
 */
import { ControlPlaneMetrics } from "@atrium/control-plane";
import { GatewayMetrics } from "@atrium/gateway";
import { OperatorMetrics } from "@atrium/operator";
import { WebhookMetrics } from "@atrium/webhook";
import type { Registry } from "prom-client";

export type Component = "gateway" | "control-plane" | "operator" | "webhook";

export interface CatalogueEntry {
  component: Component;
  name: string;
  type: string;
  labels: string[];
  help: string;
  /** The series names it exports: a histogram's `_bucket`, `_sum` and `_count`, else the name. */
  series: string[];
}

function seriesOf(name: string, type: string): string[] {
  if (type === "histogram") return [`${name}_bucket`, `${name}_sum`, `${name}_count`];
  if (type === "summary") return [name, `${name}_sum`, `${name}_count`];
  return [name];
}

function gatewayEntries(): CatalogueEntry[] {
  const metrics = new GatewayMetrics();
  // The families read at scrape time, from sources holding nothing: their descriptions are all we read.
  metrics.collect(
    { stalenessSeconds: () => undefined, refusalCounts: new Map() },
    { refusals: () => [], served: () => [] },
    { stateOf: () => "closed", keepOnly: () => {} },
  );
  return metrics.families().map((family) => ({
    component: "gateway",
    name: family.name,
    type: family.type,
    labels: [...family.labelNames],
    help: family.help,
    series: seriesOf(family.name, family.type),
  }));
}

async function registryEntries(component: Component, registry: Registry): Promise<CatalogueEntry[]> {
  const described = await registry.getMetricsAsJSON();
  return registry.getMetricsAsArray().map((metric, index) => {
    const { name, help, type } = described[index] as unknown as { name: string; help: string; type: string };
    const labels = (metric as unknown as { labelNames?: readonly string[] }).labelNames ?? [];
    return { component, name, type: String(type), labels: [...labels], help, series: seriesOf(name, String(type)) };
  });
}

/** Every metric family Atrium's components export, by component, in their declaration order. */
export async function metricCatalogue(): Promise<CatalogueEntry[]> {
  return [
    ...gatewayEntries(),
    ...(await registryEntries("control-plane", new ControlPlaneMetrics(async () => 0).registry)),
    ...(await registryEntries(
      "operator",
      new OperatorMetrics({ queueDepth: () => 0, queueDelayed: () => 0 }).registry,
    )),
    ...(await registryEntries("webhook", new WebhookMetrics().registry)),
  ];
}

/** Every series name a query may select (Prometheus's own `up` not included). */
export function seriesNames(catalogue: CatalogueEntry[]): Set<string> {
  return new Set(catalogue.flatMap((entry) => entry.series));
}

const escapeCell = (text: string) => text.replace(/\|/g, "\\|");

/** docs/metrics.md. */
export function catalogueMarkdown(catalogue: CatalogueEntry[]): string {
  const lines = [
    "# Metric catalogue",
    "",
    "<!-- Generated from the code by `node hack/metrics/src/generate.ts` (part of `npm run generate`); do not edit. -->",
    "",
    "Every metric family Atrium's components export on `/q/metrics` of their management listener,",
    "read from the metrics objects in the code. The same list, machine-readable, is",
    "[metrics.json](metrics.json). What the metrics mean, their label sets and exemplars:",
    "[observability.md](observability.md#metrics). The control plane and the operator also export",
    "the Node.js process metrics of prom-client (`process_*`, `nodejs_*`), not listed here.",
  ];
  for (const component of ["gateway", "control-plane", "operator", "webhook"] as const) {
    lines.push("", `## ${component}`, "", "| name | type | labels | help |", "|---|---|---|---|");
    for (const entry of catalogue.filter((e) => e.component === component)) {
      const labels = entry.labels.map((label) => `\`${label}\``).join(", ") || "—";
      lines.push(`| \`${entry.name}\` | ${entry.type} | ${labels} | ${escapeCell(entry.help)} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** docs/metrics.json. */
export function catalogueJson(catalogue: CatalogueEntry[]): string {
  return `${JSON.stringify({ metrics: catalogue }, null, 2)}\n`;
}
