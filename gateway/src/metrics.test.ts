/**
 * The gateway's own counters and histograms against prom-client, the reference Node
 * implementation: fed the same observations, both must expose the same samples.
 */
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { GatewayMetrics } from "./metrics.ts";

/** `name{label="value",…} number` lines as a map from the name and its sorted labels to the number. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels = [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => `${l[1]}=${l[2]}`).sort();
    found.set(`${match[1]}{${labels.join(",")}}`, Number(match[3]));
  }
  return found;
}

const observations: [string, string, number, number][] = [
  ["expo-1", "tools/call", 200, 0.0004],
  ["expo-1", "tools/call", 200, 0.003],
  ["expo-1", "tools/call", 400, 0.001], // exactly on a bucket bound: counted in it
  ["expo-1", "tools/list", 200, 42],
  ['odd "name"\\with\nlines', "tools/call", 504, 0.2],
];

describe("GatewayMetrics", () => {
  it("exposes the same samples as prom-client fed the same observations", () => {
    const ours = new GatewayMetrics();
    const registry = new Registry();
    const buckets = [...ours.latency.buckets];
    const requests = new Counter({
      name: ours.requests.name,
      help: "h",
      labelNames: ["exposition", "method", "status"],
      registers: [registry],
    });
    const latency = new Histogram({
      name: ours.latency.name,
      help: "h",
      labelNames: ["exposition", "method"],
      buckets,
      registers: [registry],
    });
    const calls = new Counter({
      name: ours.backendCalls.name,
      help: "h",
      labelNames: ["exposition", "tool", "outcome"],
      registers: [registry],
    });
    const backend = new Histogram({
      name: ours.backendLatency.name,
      help: "h",
      labelNames: ["exposition", "tool"],
      buckets,
      registers: [registry],
    });
    for (const [exposition, method, status, seconds] of observations) {
      ours.request(exposition, method, status, seconds);
      requests.inc({ exposition, method, status: String(status) });
      latency.observe({ exposition, method }, seconds);
      ours.toolCall(exposition, "getPet", status, seconds / 2);
      calls.inc({ exposition, tool: "getPet", outcome: String(status) });
      backend.observe({ exposition, tool: "getPet" }, seconds / 2);
    }
    return registry.metrics().then((reference) => {
      const expected = samples(reference);
      expect(expected.size).toBeGreaterThan(60);
      expect(samples(ours.render())).toEqual(expected);
    });
  });

  it("renders HELP and TYPE once per family, and escapes label values", () => {
    const metrics = new GatewayMetrics();
    metrics.request('a"b\\c\nd', "tools/call", 200, 0.01);
    const text = metrics.render();
    expect(text.match(/^# TYPE atrium_mcp_request_duration_seconds histogram$/gm)).toHaveLength(1);
    expect(text).toContain('atrium_mcp_requests_total{exposition="a\\"b\\\\c\\nd",method="tools/call",status="200"} 1');
    expect(text).toContain('le="+Inf"} 1');
  });

  it("keeps one series per set of label values, one-label families included, in the order they appeared", () => {
    const metrics = new GatewayMetrics();
    for (const exposition of ["e2", "e1", "e2", "e2"]) metrics.circuit(exposition, "opened");
    metrics.circuit("e1", "refused");
    const opens = metrics.render().match(/^atrium_backend_circuit_opens_total.*$/gm);
    expect(opens).toEqual([
      'atrium_backend_circuit_opens_total{exposition="e2"} 3',
      'atrium_backend_circuit_opens_total{exposition="e1"} 1',
    ]);
    expect(metrics.render()).toContain('atrium_backend_circuit_refused_total{exposition="e1"} 1');
  });
});

describe("label values come from closed sets", () => {
  it("maps unknown methods and statuses to `other`, so 10,000 hostile values add no series", () => {
    const metrics = new GatewayMetrics();
    metrics.request("expo-1", "tools/call", 200, 0.01);
    metrics.toolCall("expo-1", "getPet", 404, 0.01);
    const baseline = metrics.render().length;
    for (let i = 0; i < 10_000; i++) {
      metrics.request("expo-1", `${"x".repeat(i % 100)}hostile-${i}`, 200, 0.01);
      metrics.toolCall("expo-1", "getPet", 1000 + i, 0.01);
    }
    const text = metrics.render();
    expect(text).not.toContain("hostile");
    expect(text).toContain('atrium_mcp_requests_total{exposition="expo-1",method="other",status="200"} 10000');
    expect(text).toContain('atrium_backend_responses_total{exposition="expo-1",tool="getPet",outcome="other"} 10000');
    // one more series per family at most: the `other` one
    expect(text.length).toBeLessThan(baseline * 2.2);
  });
});

describe("tool calls, auth decisions and change lag", () => {
  it("counts each answered tool call by outcome, times it whole, and adds its result bytes", () => {
    const metrics = new GatewayMetrics();
    metrics.toolCallAnswered("expo-1", "getPet", "ok", 0.02, 120);
    metrics.toolCallAnswered("expo-1", "getPet", "tool_error", 0.03, 30);
    metrics.toolCallAnswered("expo-1", "getPet", "limited", 0.0001, 0);
    const found = samples(metrics.render());
    expect(found.get("atrium_tool_calls_total{exposition=expo-1,outcome=ok,tool=getPet}")).toBe(1);
    expect(found.get("atrium_tool_calls_total{exposition=expo-1,outcome=tool_error,tool=getPet}")).toBe(1);
    expect(found.get("atrium_tool_calls_total{exposition=expo-1,outcome=limited,tool=getPet}")).toBe(1);
    expect(found.get("atrium_tool_call_duration_seconds_count{exposition=expo-1,tool=getPet}")).toBe(3);
    expect(found.get("atrium_tool_call_duration_seconds_sum{exposition=expo-1,tool=getPet}")).toBeCloseTo(0.0501);
    expect(found.get("atrium_tool_result_bytes_total{exposition=expo-1,tool=getPet}")).toBe(150);
  });

  it("times the backend only when it was called; the response is counted either way", () => {
    const metrics = new GatewayMetrics();
    metrics.toolCall("expo-1", "getPet", "invalid", undefined);
    metrics.toolCall("expo-1", "getPet", 200, 0.005);
    const found = samples(metrics.render());
    expect(found.get("atrium_backend_responses_total{exposition=expo-1,outcome=invalid,tool=getPet}")).toBe(1);
    expect(found.get("atrium_backend_duration_seconds_count{exposition=expo-1,tool=getPet}")).toBe(1);
  });

  it("counts auth decisions: allowed with reason none, refused with the refusal's reason", () => {
    const metrics = new GatewayMetrics();
    metrics.authDecision("expo-1", "apiKey");
    metrics.authDecision("expo-1", "apiKey", "invalid_api_key");
    metrics.authDecision("expo-2", "oauth", "missing_scope");
    const found = samples(metrics.render());
    expect(found.get("atrium_auth_decisions_total{exposition=expo-1,mode=apiKey,outcome=allowed,reason=none}")).toBe(1);
    expect(
      found.get("atrium_auth_decisions_total{exposition=expo-1,mode=apiKey,outcome=refused,reason=invalid_api_key}"),
    ).toBe(1);
    expect(
      found.get("atrium_auth_decisions_total{exposition=expo-2,mode=oauth,outcome=refused,reason=missing_scope}"),
    ).toBe(1);
  });

  it("observes change lag as an unlabelled histogram, never negative (clocks apart)", () => {
    const metrics = new GatewayMetrics();
    metrics.changeApplied(1_000, 1_250);
    metrics.changeApplied(2_000, 1_500);
    const found = samples(metrics.render());
    expect(found.get("atrium_gateway_change_lag_seconds_count{}")).toBe(2);
    expect(found.get("atrium_gateway_change_lag_seconds_sum{}")).toBe(0.25);
    expect(found.get("atrium_gateway_change_lag_seconds_bucket{le=0.01}")).toBe(1);
    expect(metrics.render()).toMatch(/^atrium_gateway_change_lag_seconds_count 2$/m);
  });
});
