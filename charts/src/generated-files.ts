/**
 * Every file the charts workspace generates, by path under charts/: each chart's values.yaml,
 * values.schema.json, README values table and shared template helpers, the controllers
 * chart's copy of the eight CRDs, and the Grafana dashboard and alerting rules
 * (charts/observability, and each chart's copy). `npm run generate` writes them; generated.test.ts checks them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { kinds } from "@atrium/crds";
import { z } from "zod";
import { ruleCharts, rulesFile } from "./observability/alerts.ts";
import { dashboard } from "./observability/dashboard.ts";
import { type ChartDefinition, charts } from "./values/charts.ts";
import { type JsonSchemaNode, valuesTable, valuesYaml } from "./values-docs.ts";

export const chartsDir = resolve(import.meta.dirname, "..");
const crdsDir = resolve(chartsDir, "../crds/generated");
const sharedTemplate = join(chartsDir, "src/templates/_atrium.tpl");

const TABLE_BEGIN = "<!-- values table: generated from charts/src/values, do not edit -->";
const TABLE_END = "<!-- end of values table -->";

export function valuesJsonSchema(chart: ChartDefinition): JsonSchemaNode {
  // draft-07: what every Helm 3 and 4 validates; io "input": defaulted values are optional.
  return z.toJSONSchema(chart.values, { target: "draft-7", io: "input", unrepresentable: "throw" }) as JsonSchemaNode;
}

function readme(chart: ChartDefinition, schema: JsonSchemaNode): string {
  const path = join(chartsDir, chart.name, "README.md");
  const current = readFileSync(path, "utf8");
  const begin = current.indexOf(TABLE_BEGIN);
  const end = current.indexOf(TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`${path} needs the lines ${TABLE_BEGIN} and ${TABLE_END}`);
  return `${current.slice(0, begin + TABLE_BEGIN.length)}\n${valuesTable(schema)}\n${current.slice(end)}`;
}

/** Path under charts/ → content. */
export function generatedFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const helpers = readFileSync(sharedTemplate, "utf8");
  for (const chart of charts) {
    const schema = valuesJsonSchema(chart);
    files.set(`${chart.name}/values.schema.json`, `${JSON.stringify(schema, null, 2)}\n`);
    files.set(`${chart.name}/values.yaml`, valuesYaml(chart.name, schema));
    files.set(`${chart.name}/README.md`, readme(chart, schema));
    files.set(`${chart.name}/templates/_atrium.tpl`, helpers);
  }
  files.set(
    "controllers/templates/_kinds.tpl",
    [
      "{{- /* Generated from @atrium/crds by `npm run generate -w @atrium/charts`: the plurals of the eight kinds. */ -}}",
      `{{- define "atrium.kindPlurals" -}}${JSON.stringify(kinds.map((kind) => kind.plural).sort())}{{- end -}}`,
      "",
    ].join("\n"),
  );
  // Dashboard and alerts: plain files for Prometheus and Grafana, and each chart's copy for its templates.
  const dashboardJson = `${JSON.stringify(dashboard(), null, 2)}\n`;
  files.set("observability/atrium-dashboard.json", dashboardJson);
  files.set("control-plane/dashboards/atrium.json", dashboardJson);
  for (const chart of ruleCharts) {
    files.set(`observability/rules/atrium-${chart}.rules.yaml`, rulesFile(chart));
    files.set(`${chart}/rules/atrium.rules.yaml`, rulesFile(chart));
  }
  for (const file of readdirSync(crdsDir).filter((name) => name.endsWith(".yaml"))) {
    files.set(`controllers/crds/${file}`, readFileSync(join(crdsDir, file), "utf8"));
  }
  return files;
}

/** Folders whose every file is generated: a file there that is not generated any more is stale. */
export const whollyGeneratedDirs = ["controllers/crds"];
