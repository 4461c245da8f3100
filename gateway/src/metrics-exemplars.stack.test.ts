/**
 * Exemplars end to end: a gateway tracing to a real OpenTelemetry Collector, a tool call whose
 * client sent a sampled `traceparent`, and /q/metrics scraped as OpenMetrics: the buckets the
 * call's request, tool-call and backend durations fell in carry that trace's id. An unsampled
 * call's trace is never one.
 */
import { randomBytes } from "node:crypto";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { modernRequest, type Stack, startStack, startTracedProcess } from "./testing.ts";

let traced: Awaited<ReturnType<typeof startTracedProcess>>;
let stack: Stack;
let gateway: Gateway;

beforeAll(async () => {
  traced = await startTracedProcess();
  stack = await startStack();
  gateway = await stack.startGateway();
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await traced?.stop();
});

async function callGetPet(traceparent: string): Promise<void> {
  const response = await request(
    `${gateway.url}${stack.mcpPath}`,
    modernRequest(
      "tools/call",
      { name: "getPet", arguments: { petId: 1 } },
      { headers: { "x-atrium-key": stack.apiKey, traceparent } },
    ),
  );
  expect(response.statusCode).toBe(200);
  await response.body.dump();
}

async function openMetrics(): Promise<string> {
  const response = await request(`${managementUrl(gateway.app)}/q/metrics`, {
    headers: { accept: "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5" },
  });
  return response.body.text();
}

describe("exemplars", () => {
  it("carry the sampled trace of the call into the buckets of its durations", async () => {
    const traceId = randomBytes(16).toString("hex");
    await callGetPet(`00-${traceId}-${randomBytes(8).toString("hex")}-01`);
    const text = await openMetrics();
    const exemplar = `# {trace_id="${traceId}"}`;
    for (const family of [
      "atrium_mcp_request_duration_seconds",
      "atrium_tool_call_duration_seconds",
      "atrium_backend_duration_seconds",
    ]) {
      const lines = text.split("\n").filter((line) => line.startsWith(`${family}_bucket{`) && line.includes(exemplar));
      expect(lines, family).toHaveLength(1);
    }
    expect(text).not.toMatch(/^atrium_\w+_total\{.*# \{/m); // counters carry none
  });

  it("never name an unsampled trace", async () => {
    const traceId = randomBytes(16).toString("hex");
    await callGetPet(`00-${traceId}-${randomBytes(8).toString("hex")}-00`);
    expect(await openMetrics()).not.toContain(traceId);
  });
});
