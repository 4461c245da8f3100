/**
 * The two text formats /q/metrics speaks: Prometheus's text format 0.0.4 (the default) and
 * OpenMetrics 1.0, chosen from the scraper's Accept header. OpenMetrics differs in what matters
 * here: a counter's family is named without its `_total` suffix in `# TYPE`/`# HELP`, histogram
 * buckets may carry an exemplar (the trace of one observation), help text escapes double quotes,
 * and the exposition ends with `# EOF`.
 */

export interface MetricsFormat {
  readonly openMetrics: boolean;
  readonly contentType: string;
}

export const PROMETHEUS_TEXT: MetricsFormat = {
  openMetrics: false,
  contentType: "text/plain; version=0.0.4; charset=utf-8",
};
export const OPEN_METRICS: MetricsFormat = {
  openMetrics: true,
  contentType: "application/openmetrics-text; version=1.0.0; charset=utf-8",
};

/**
 * OpenMetrics when the Accept header lists `application/openmetrics-text` with a weight at least
 * that of any other type it lists (Prometheus sends it first, at the highest weight); else text.
 */
export function formatFor(accept: string | undefined): MetricsFormat {
  if (!accept?.includes("application/openmetrics-text")) return PROMETHEUS_TEXT;
  let open = -1;
  let other = -1;
  for (const range of accept.split(",")) {
    const [type = "", ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!(weight > 0)) continue;
    if (type === "application/openmetrics-text") open = Math.max(open, weight);
    else other = Math.max(other, weight);
  }
  return open >= 0 && open >= other ? OPEN_METRICS : PROMETHEUS_TEXT;
}

export function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/** Help text: backslashes and newlines escaped; in OpenMetrics double quotes too. */
function escapeHelp(help: string, format: MetricsFormat): string {
  const escaped = help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
  return format.openMetrics ? escaped.replace(/"/g, '\\"') : escaped;
}

/** A family's `# HELP` and `# TYPE` lines. */
export function writeHeader(
  out: string[],
  format: MetricsFormat,
  family: { name: string; type: string; help: string },
): void {
  const name =
    format.openMetrics && family.type === "counter" && family.name.endsWith("_total")
      ? family.name.slice(0, -"_total".length)
      : family.name;
  out.push(`# HELP ${name} ${escapeHelp(family.help, format)}`, `# TYPE ${name} ${family.type}`);
}

/** The lines joined into one exposition in `format`. */
export function exposition(lines: string[], format: MetricsFormat): string {
  if (format.openMetrics) lines.push("# EOF");
  return `${lines.join("\n")}\n`;
}
