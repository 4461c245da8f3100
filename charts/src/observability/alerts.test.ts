/**
 * The alerts through the real promtool: the plain rule files pass `promtool check rules` (lint
 * fatal) and their unit tests (alerts.promtool.yaml: series in, alerts firing or not out); each
 * chart's PrometheusRule, rendered by the real helm, holds the same rules with its Service's job
 * name and passes the check too. The dashboard's ConfigMap carries the dashboard as generated.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { chartsDir } from "../generated-files.ts";
import { chartPath, find, helmRunner, type Manifest, manifests } from "../testing.ts";
import { defaultJobs, type RuleChart, ruleCharts, ruleGroups } from "./alerts.ts";
import { dashboard } from "./dashboard.ts";
import { promtool } from "./promtool.ts";

const plainFile = (chart: RuleChart) => join(chartsDir, "observability/rules", `atrium-${chart}.rules.yaml`);
const runner = helmRunner();
const work = mkdtempSync(join(tmpdir(), "atrium-rules-"));
afterAll(() => {
  runner.dispose();
  rmSync(work, { recursive: true, force: true });
});

function template(chart: string, ...args: string[]): Manifest[] {
  const result = runner.helm(["template", "atrium", chartPath(chart), "-n", "atrium-system", ...args]);
  expect(result.status, result.stderr).toBe(0);
  return manifests(result.stdout);
}

describe("the alerting rules", () => {
  it.each(ruleCharts)("the %s rules pass promtool check rules, lint fatal", (chart) => {
    const result = promtool("check", "rules", "--lint-fatal", plainFile(chart));
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain(`SUCCESS: ${ruleGroups(chart)[0]?.rules.length} rules found`);
  });

  it("pass their promtool unit tests", () => {
    const result = promtool("test", "rules", join(chartsDir, "src/observability/alerts.promtool.yaml"));
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain("SUCCESS");
  });

  it("fail the unit tests when a rule changes: the tests see the rules", () => {
    // Count a caller's invalid arguments against the budget: the burn alert then fires where it must not.
    const gateway = parse(readFileSync(plainFile("gateway"), "utf8"));
    for (const rule of gateway.groups[0].rules) rule.expr = rule.expr.replaceAll("unavailable", "unavailable|invalid");
    // The same layout as charts/, so that the unit tests' rule_files find the mutated rules.
    const dir = join(work, "mutated");
    mkdirSync(join(dir, "src/observability"), { recursive: true });
    mkdirSync(join(dir, "observability/rules"), { recursive: true });
    for (const chart of ruleCharts) {
      const text = chart === "gateway" ? stringify(gateway) : readFileSync(plainFile(chart), "utf8");
      writeFileSync(join(dir, "observability/rules", `atrium-${chart}.rules.yaml`), text);
    }
    const tests = readFileSync(join(chartsDir, "src/observability/alerts.promtool.yaml"), "utf8");
    writeFileSync(join(dir, "src/observability/alerts.promtool.yaml"), tests);
    const result = promtool("test", "rules", join(dir, "src/observability/alerts.promtool.yaml"));
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("name: tool-call error budget burn");
  });

  it.each(ruleCharts)("the %s chart renders no PrometheusRule unless asked", (chart) => {
    expect(template(chart).filter((object) => object.kind === "PrometheusRule")).toEqual([]);
  });

  it.each(ruleCharts)(
    "the %s chart's PrometheusRule holds the rules, with its own Service's job, and passes promtool",
    (chart) => {
      const objects = template(
        chart,
        "--set",
        "prometheusRule.enabled=true",
        "--set",
        "prometheusRule.labels.release=prometheus",
        "--set",
        "fullnameOverride=edge",
      );
      const rule = find(objects, "PrometheusRule", "edge");
      expect(rule.apiVersion).toBe("monitoring.coreos.com/v1");
      expect(rule.metadata.labels.release).toBe("prometheus");
      const expected = ruleGroups(chart).map((group) => ({
        ...group,
        rules: group.rules.map((r) => ({
          ...r,
          expr: Object.values(defaultJobs).reduce(
            (expr, job) => (chart === "controllers" ? expr : expr.replaceAll(`job="${job}"`, 'job="edge"')),
            r.expr,
          ),
        })),
      }));
      expect(rule.spec).toEqual({ groups: expected });
      const exprs = rule.spec.groups.flatMap((group: Manifest) => group.rules.map((r: Manifest) => r.expr));
      expect(exprs.join("\n")).not.toMatch(/job="atrium-/);
      if (chart !== "controllers") expect(exprs.join("\n")).toContain('job="edge"');
      const file = join(work, `${chart}.rules.yaml`);
      writeFileSync(file, stringify(rule.spec));
      const result = promtool("check", "rules", "--lint-fatal", file);
      expect(result.status, result.output).toBe(0);
    },
  );
});

describe("the dashboard's ConfigMap", () => {
  it("is not rendered unless asked", () => {
    expect(template("control-plane").filter((object) => object.kind === "ConfigMap")).toEqual([]);
  });

  it("carries the dashboard for Grafana's sidecar, with its label and annotations", () => {
    const objects = template(
      "control-plane",
      "--set",
      "grafanaDashboard.enabled=true",
      "--set",
      "grafanaDashboard.annotations.grafana_folder=Atrium",
    );
    const configMap = find(objects, "ConfigMap", "atrium-control-plane-dashboard");
    expect(configMap.metadata.labels.grafana_dashboard).toBe("1");
    expect(configMap.metadata.annotations).toEqual({ grafana_folder: "Atrium" });
    expect(JSON.parse(configMap.data["atrium.json"])).toEqual(dashboard());
  });
});
