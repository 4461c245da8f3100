/**
 * The two exposition formats of /q/metrics: negotiation from the scraper's Accept header, the
 * OpenMetrics rules (counter family names, `# EOF`, exemplars on histogram buckets), and both
 * formats read by Prometheus's own parsers through promtool (built by hack/prometheus/build.sh).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GatewayMetrics } from "./metrics.ts";
import { formatFor, OPEN_METRICS, PROMETHEUS_TEXT } from "./metrics-format.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const LATER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

function observed(): GatewayMetrics {
  const metrics = new GatewayMetrics();
  metrics.request("expo-1", "tools/call", 200, 0.004, TRACE);
  metrics.request("expo-1", "tools/call", 200, 0.0045, LATER_TRACE);
  metrics.request("expo-1", "tools/call", 200, 0.2);
  metrics.toolCall("expo-1", "getPet", 200, 0.002, TRACE);
  metrics.toolCallAnswered("expo-1", "getPet", "ok", 0.003, 42, TRACE);
  metrics.authDecision("expo-1", "apiKey");
  metrics.changeApplied(Date.now() - 120);
  metrics.collect(
    { stalenessSeconds: () => 1.5, refusalCounts: new Map([["unknown_kind", 2]]) },
    { refusals: () => [], served: () => [] },
    { stateOf: () => "closed", keepOnly: () => {} },
  );
  return metrics;
}

describe("format negotiation", () => {
  it("answers OpenMetrics to Prometheus's Accept headers (2.x and 3.x), text otherwise", () => {
    const prometheus2 =
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    const prometheus3 =
      "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,application/openmetrics-text;version=0.0.1;q=0.5,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2";
    expect(formatFor(prometheus2)).toBe(OPEN_METRICS);
    expect(formatFor(prometheus3)).toBe(OPEN_METRICS);
    expect(formatFor(undefined)).toBe(PROMETHEUS_TEXT);
    expect(formatFor("*/*")).toBe(PROMETHEUS_TEXT);
    expect(formatFor("text/plain;version=0.0.4")).toBe(PROMETHEUS_TEXT);
    expect(formatFor("text/plain, application/openmetrics-text;q=0.1")).toBe(PROMETHEUS_TEXT);
    expect(formatFor("application/openmetrics-text;q=0")).toBe(PROMETHEUS_TEXT);
  });
});

describe("OpenMetrics", () => {
  const text = observed().render(OPEN_METRICS);

  it("names counter families without _total, ends with # EOF, escapes quotes in help", () => {
    expect(text).toMatch(/^# TYPE atrium_tool_calls counter$/m);
    expect(text).toMatch(/^atrium_tool_calls_total\{exposition="expo-1",tool="getPet",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^# TYPE atrium_gateway_exposition_refusals counter$/m);
    expect(text).toMatch(/^# TYPE atrium_gateway_change_lag_seconds histogram$/m);
    expect(text).toContain('atrium_gateway_change_lag_seconds_bucket{le="1.0"} 1');
    expect(text.endsWith("\n# EOF\n")).toBe(true);
    expect(text).not.toMatch(/^# TYPE \S+_total counter$/m);
  });

  it("puts the last traced observation of each bucket on it as an exemplar, with its value and time", () => {
    const bucket = text.split("\n").find((line) => line.includes('method="tools/call",le="0.005"'));
    expect(bucket).toMatch(new RegExp(`^\\S+ 2 # \\{trace_id="${LATER_TRACE}"\\} 0\\.0045 \\d{10}\\.\\d{3}$`));
    // A bucket whose observations had no trace carries none.
    expect(text).toMatch(/method="tools\/call",le="0.25"\} 3$/m);
    expect(text).toMatch(
      new RegExp(`atrium_tool_call_duration_seconds_bucket\\{[^}]*le="0.005"\\} 1 # \\{trace_id="${TRACE}"\\}`),
    );
    expect(text).toMatch(
      new RegExp(`atrium_backend_duration_seconds_bucket\\{[^}]*le="0.0025"\\} 1 # \\{trace_id="${TRACE}"\\}`),
    );
  });

  it("never renders something other than a trace id as one", () => {
    const metrics = new GatewayMetrics();
    metrics.request("expo-1", "tools/call", 200, 0.004, 'x"} 1 # evil');
    expect(metrics.render(OPEN_METRICS)).not.toContain("evil");
  });

  it("is the Prometheus text format, without exemplars, unless asked", () => {
    const plain = observed().render();
    expect(plain).not.toContain("trace_id");
    expect(plain).not.toContain("# EOF");
    expect(plain).toMatch(/^# TYPE atrium_tool_calls_total counter$/m);
  });
});

describe("read by Prometheus's parsers (promtool)", () => {
  const work = mkdtempSync(join(tmpdir(), "atrium-openmetrics-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const promtool = () => {
    const stdout = execFileSync("bash", [resolve(import.meta.dirname, "../../hack/prometheus/build.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    return stdout.trim().split("\n").at(-1) ?? "";
  };

  it("the OpenMetrics exposition parses with its exemplars (tsdb create-blocks-from openmetrics)", () => {
    // Backfilling needs a timestamp on each sample: one is added after the value, before any exemplar.
    const stamped = observed()
      .render(OPEN_METRICS)
      .replace(
        /^([^#\s]\S* \S+)( # .*)?$/gm,
        (_line, sample: string, exemplar = "") => `${sample} 1795927000${exemplar}`,
      );
    const file = join(work, "metrics.om");
    writeFileSync(file, stamped);
    const run = spawnSync(promtool(), ["tsdb", "create-blocks-from", "openmetrics", file, join(work, "blocks")], {
      encoding: "utf8",
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(output).not.toMatch(/error|expected|invalid/i);
    expect(output).toMatch(/BLOCK ULID/);
    // A broken exemplar is refused: the parser really reads them.
    writeFileSync(file, stamped.replace(`trace_id="${TRACE}"`, `trace_id=${TRACE}`));
    const broken = spawnSync(promtool(), ["tsdb", "create-blocks-from", "openmetrics", file, join(work, "broken")], {
      encoding: "utf8",
    });
    expect(`${broken.stdout}${broken.stderr}`).toMatch(/expected/);
  });

  it("the text format passes promtool check metrics", () => {
    const run = spawnSync(promtool(), ["check", "metrics"], { input: observed().render(), encoding: "utf8" });
    expect(`${run.stdout}${run.stderr}`).toBe("");
    expect(run.status).toBe(0);
  });
});
