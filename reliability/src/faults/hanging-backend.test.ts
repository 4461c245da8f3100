/**
 * Fault: a backend that never answers. 200 tool calls through a gateway process (in waves of 50,
 * spread over four tools so that every call reaches the backend: a tool holds at most 16 of its
 * origin's 64 connections, and calls waiting for one time out before they are sent). Each call
 * gets the gateway's own 504 tool result within the plan's 1 s timeout plus a margin; afterwards
 * neither the backend nor the gateway holds a connection between them, and a fast call is still
 * served.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { listenLocally, modernRequest, waitFor } from "@atrium/gateway/testing";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { type ExposedGateway, type GatewayProcess, startExposedGateway } from "../gateway-process.ts";

const TIMEOUT_MS = 1_000;
/** What a 504 may take beyond the timeout on this loaded machine (two cores, several test suites). */
const MARGIN_MS = 1_000;
const CALLS = 200;
const WAVE = 50;
const TOOLS = ["hang0", "hang1", "hang2", "hang3"];

const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Hanging", version: "1" },
  paths: {
    ...Object.fromEntries(
      TOOLS.map((tool) => [`/${tool}`, { get: { operationId: tool, responses: { "200": { description: "never" } } } }]),
    ),
    "/fast": { get: { operationId: "fast", responses: { "200": { description: "ok" } } } },
  },
});

/** A backend whose /hang* routes never answer; it counts what it received and what the gateway closed. */
async function startHangingBackend() {
  const counts = { hanging: 0, closedByGateway: 0 };
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    if (req.url?.startsWith("/hang")) {
      counts.hanging++;
      res.on("close", () => counts.closedByGateway++);
      return; // never answers
    }
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  const listening = await listenLocally(server);
  return {
    ...listening,
    counts,
    port: (server.address() as AddressInfo).port,
    connections: () => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count))),
  };
}

let backend: Awaited<ReturnType<typeof startHangingBackend>>;
let exposed: ExposedGateway;
let gateway: GatewayProcess;
let client: Pool;

beforeAll(async () => {
  backend = await startHangingBackend();
  exposed = await startExposedGateway("hanging", {
    openapi: OPENAPI,
    // Off: it would fail calls fast after 5 timeouts, and this test measures the timeouts themselves.
    plan: { backendEndpoint: backend.url, backendTimeoutMs: TIMEOUT_MS, circuitBreaker: { enabled: false } },
  });
  gateway = exposed.gateway;
  client = new Pool(gateway.url, { connections: WAVE });
}, 90_000);

afterAll(async () => {
  await client?.close();
  await exposed?.close();
  await backend?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer, read field by field
async function callTool(name: string): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const response = await client.request({
    path: exposed.mcpPath,
    ...modernRequest("tools/call", { name, arguments: {} }),
  });
  const body = await response.body.json();
  return { status: response.statusCode, body, ms: performance.now() - started };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

describe("a hanging backend", () => {
  it("gives 200 calls the gateway's 504 result within the timeout, and leaves no socket open", async () => {
    const outcomes: Awaited<ReturnType<typeof callTool>>[] = [];
    for (let wave = 0; wave < CALLS / WAVE; wave++) {
      outcomes.push(...(await Promise.all(Array.from({ length: WAVE }, (_, i) => callTool(TOOLS[i % 4] as string)))));
    }
    const late = outcomes.filter(
      ({ status, body, ms }) =>
        status !== 200 ||
        body.result?.isError !== true ||
        !String(body.result.content?.[0]?.text).startsWith("HTTP 504 Gateway Timeout\nThe backend did not answer") ||
        ms > TIMEOUT_MS + MARGIN_MS,
    );
    expect(late, JSON.stringify(late.slice(0, 3))).toEqual([]);
    const ms = outcomes.map((outcome) => outcome.ms).sort((a, b) => a - b);
    expect(ms[0]).toBeGreaterThanOrEqual(TIMEOUT_MS - 5); // the gateway's timer, not an earlier failure
    // Every call reached the backend: what was measured is the timeout, not a queue or a fail-fast.
    expect(backend.counts.hanging).toBe(CALLS);

    const closing = performance.now();
    let open = { backend: -1, gateway: -1 };
    await waitFor(
      async () => {
        open = { backend: await backend.connections(), gateway: gateway.socketsTo(backend.port) };
        return open.backend === 0 && open.gateway === 0;
      },
      "the connections to the hanging backend to close",
      5_000,
    ).catch(() => undefined);
    const closedWithinMs = Math.round(performance.now() - closing);
    expect(open).toEqual({ backend: 0, gateway: 0 });
    expect(backend.counts.closedByGateway).toBe(CALLS);

    const fast = await callTool("fast");
    expect(fast.body.result).toMatchObject({ structuredContent: { ok: true } });
    expect(gateway.alive()).toBe(true);

    const figures = {
      tried: CALLS,
      unit: "tool calls",
      lost: late.length,
      details: {
        "timeout (ms)": TIMEOUT_MS,
        "504 after, p50 (ms)": Math.round(percentile(ms, 0.5) as number),
        "max (ms)": Math.round(ms[ms.length - 1] as number),
        "sockets left": open.backend + open.gateway,
        "all closed within (ms)": closedWithinMs,
      },
    };
    console.log("hanging backend:", figures);
    recordFigures("fault-hanging-backend", figures);
  }, 60_000);
});
