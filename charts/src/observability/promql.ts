/**
 * Test support: PromQL read with the Prometheus project's own Lezer grammar
 * (@prometheus-io/lezer-promql, the one Prometheus's web UI uses): whether a query parses, and the
 * metric each selector selects, with the labels it matches on.
 */
import { parser } from "@prometheus-io/lezer-promql";

/** Grafana's variables, replaced by values of their kind so that a dashboard query is plain PromQL. */
const GRAFANA_VARIABLES: Record<string, string> = {
  $__rate_interval: "5m",
  $__interval: "1m",
  $__range: "6h",
  $exposition: ".*",
};

export function withoutGrafanaVariables(query: string): string {
  let plain = query;
  for (const [variable, value] of Object.entries(GRAFANA_VARIABLES)) plain = plain.replaceAll(variable, value);
  const left = plain.match(/\$\w+/);
  if (left) throw new Error(`unknown Grafana variable ${left[0]} in ${query}`);
  return plain;
}

export interface Selector {
  metric: string;
  /** Label names of its matchers (`{outcome=~"…"}`). */
  labels: string[];
}

export interface ParsedQuery {
  /** Where the grammar found an error, as "at <offset>: <text there>"; empty when it parses. */
  errors: string[];
  /** Every vector selector, in order (`metric` is "" for one by labels only). */
  selectors: Selector[];
}

export function parseQuery(query: string): ParsedQuery {
  const errors: string[] = [];
  const selectors: Selector[] = [];
  const text = (node: { from: number; to: number }) => query.slice(node.from, node.to);
  parser.parse(query).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`at ${node.from}: ${JSON.stringify(query.slice(node.from, node.from + 20))}`);
      if (node.name === "VectorSelector") {
        const name = node.node.getChild("Identifier");
        // Entered before its matchers, which are added to it below. `metric` is "" for `{__name__=…}`.
        selectors.push({ metric: name ? text(name) : "", labels: [] });
      }
      // A matcher's label: LabelName in a matcher of a selector's LabelMatchers (not `by (…)`).
      if (node.name === "LabelName" && node.node.parent?.parent?.name === "LabelMatchers") {
        selectors.at(-1)?.labels.push(text(node));
      }
    },
  });
  if (query.trim() === "") errors.push("empty query");
  return { errors, selectors };
}
