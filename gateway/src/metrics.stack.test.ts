/**
 * The gateway's metrics on a real stack: a control plane (PGlite), the fixture backend and a
 * gateway. Tool calls made with the official v2 client (an answer, a backend 404, refused
 * arguments, a timeout), a refused API key and a change made through the REST API are read back
 * from /q/metrics, in the text format and in OpenMetrics.
 */
import { request } from "undici";
import { beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { connectModernClient, modernRequest, type Stack, useStackWithGateway, waitFor, withClient } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;
useStackWithGateway((running) => ({ stack, gateway } = running));

async function scrape(accept?: string): Promise<{ text: string; contentType: string }> {
  const response = await request(`${managementUrl(gateway.app)}/q/metrics`, {
    headers: accept ? { accept } : {},
  });
  return { text: await response.body.text(), contentType: String(response.headers["content-type"]) };
}

/** The value of the sample `name{labels}` (labels exactly as rendered), or undefined. */
function value(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1).split(" ")[0]);
}

describe("gateway metrics on a running gateway", () => {
  let expo: string;
  beforeAll(async () => {
    expo = stack.expositionId;
    await withClient(
      () => connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey),
      async (client) => {
        expect((await client.callTool({ name: "getPet", arguments: { petId: 1 } })).isError).toBeFalsy();
        expect((await client.callTool({ name: "getPet", arguments: { petId: 404 } })).isError).toBe(true);
        expect((await client.callTool({ name: "getPet", arguments: { petId: "Rex" } })).isError).toBe(true);
        expect((await client.callTool({ name: "slow", arguments: {} })).isError).toBe(true); // 500 ms timeout
      },
    );
    const refused = await request(
      `${gateway.url}${stack.mcpPath}`,
      modernRequest("tools/list", {}, { headers: { "x-atrium-key": "not-the-key" } }),
    );
    expect(refused.statusCode).toBe(401);
    await refused.body.dump();
  }, 30_000);

  it("counts tool calls by outcome, times them, and adds the bytes of their results", async () => {
    const { text } = await scrape();
    const calls = (tool: string, outcome: string) =>
      value(text, `atrium_tool_calls_total{exposition="${expo}",tool="${tool}",outcome="${outcome}"}`);
    expect(calls("getPet", "ok")).toBe(1);
    expect(calls("getPet", "tool_error")).toBe(1);
    expect(calls("getPet", "invalid")).toBe(1);
    expect(calls("slow", "timeout")).toBe(1);
    expect(value(text, `atrium_tool_call_duration_seconds_count{exposition="${expo}",tool="getPet"}`)).toBe(3);
    expect(value(text, `atrium_tool_call_duration_seconds_count{exposition="${expo}",tool="slow"}`)).toBe(1);
    expect(value(text, `atrium_tool_call_duration_seconds_sum{exposition="${expo}",tool="slow"}`)).toBeGreaterThan(
      0.45,
    );
    // {"id":1,"name":"Rex","status":"available"} and the 404's text, at least.
    expect(value(text, `atrium_tool_result_bytes_total{exposition="${expo}",tool="getPet"}`)).toBeGreaterThan(40);
    // The backend's share: two calls reached it, refused arguments did not.
    expect(value(text, `atrium_backend_duration_seconds_count{exposition="${expo}",tool="getPet"}`)).toBe(2);
    expect(value(text, `atrium_backend_responses_total{exposition="${expo}",tool="getPet",outcome="404"}`)).toBe(1);
  });

  it("counts auth decisions: the client's key allowed, a wrong one refused with its reason", async () => {
    const { text } = await scrape();
    const decisions = (outcome: string, reason: string) =>
      value(
        text,
        `atrium_auth_decisions_total{exposition="${expo}",mode="apiKey",outcome="${outcome}",reason="${reason}"}`,
      );
    expect(decisions("allowed", "none")).toBeGreaterThanOrEqual(4);
    expect(decisions("refused", "invalid_api_key")).toBe(1);
    expect(value(text, `atrium_backend_circuit_state{exposition="${expo}",state="closed"}`)).toBe(1);
  });

  it("observes the lag of a change made through the REST API, from its commit to the gateway serving it", async () => {
    const before = value((await scrape()).text, "atrium_gateway_change_lag_seconds_count") ?? 0;
    const exposed = await stack.expose("lagged");
    await waitFor(() => gateway.registry.byId(exposed.expositionId) !== undefined, "the new Exposition served");
    const { text } = await scrape();
    expect(value(text, "atrium_gateway_change_lag_seconds_count")).toBeGreaterThan(before);
    const lag = value(text, "atrium_gateway_change_lag_seconds_sum") ?? Number.NaN;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(10);
  });

  it("answers OpenMetrics when Prometheus asks for it", async () => {
    const { text, contentType } = await scrape(
      "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
    );
    expect(contentType).toBe("application/openmetrics-text; version=1.0.0; charset=utf-8");
    expect(text).toMatch(/^# TYPE atrium_tool_calls counter$/m);
    expect(text.endsWith("# EOF\n")).toBe(true);
    const plain = await scrape();
    expect(plain.contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(plain.text).not.toContain("# EOF");
  });
});
