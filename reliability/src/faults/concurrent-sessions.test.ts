/**
 * Load: 1,000 concurrent 2025 sessions on one gateway process, each an official MCP SDK v1 client
 * (StreamableHTTPClientTransport): initialize, tools/list, a getPet call, then DELETE of the
 * session. All of them succeed; a deleted session is refused; the gateway's RSS is sampled
 * before, during and after, and its live heap after a full GC is back where it was.
 *
 * Every session comes from 127.0.0.1, so the clients share one keep-alive pool (undici Agent) with
 * a connection for each session's notification stream and more for the POSTs, under a cap per
 * client address raised to let them all in (ATRIUM_GATEWAY_MAX_CONNECTIONS_PER_ADDRESS): a 2025
 * session lives in its signed Mcp-Session-Id, not in a connection, so any pooled connection
 * carries any of its POSTs.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { type ExposedGateway, type GatewayProcess, startExposedGateway, watchMemory } from "../gateway-process.ts";

const SESSIONS = 1_000;
/**
 * Each official client holds its session's notification stream (a GET) open while it lives, as a
 * real client does: one connection per session for those, and 512 more shared by the POSTs.
 */
const CLIENT_CONNECTIONS = SESSIONS + 512;
const MIB = 1024 ** 2;

let exposed: ExposedGateway;
let gateway: GatewayProcess;
let agent: Agent;

beforeAll(async () => {
  // The fixture Service and backend, behind a plan of its own: the stack's plan allows a call 500 ms,
  // and 1,000 getPet calls queue for the tool's 16 connections, to a backend that shares the test
  // process with the 1,000 clients.
  exposed = await startExposedGateway("sessions", {
    plan: { apiKey: true, backendTimeoutMs: 10_000 },
    // Every client is 127.0.0.1 here: the per-address bound must let them all in.
    env: { ATRIUM_GATEWAY_MAX_CONNECTIONS_PER_ADDRESS: String(2 * CLIENT_CONNECTIONS) },
  });
  gateway = exposed.gateway;
  agent = new Agent({ connections: CLIENT_CONNECTIONS, keepAliveTimeout: 30_000 });
}, 90_000);

afterAll(async () => {
  await agent?.close();
  await exposed?.close();
});

const pooledFetch = ((url: string | URL, init?: RequestInit) =>
  undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as FetchLike;

/** One session's life; returns its id once ended, or throws what went wrong. */
async function session(index: number): Promise<string> {
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}${exposed.mcpPath}`), {
    fetch: pooledFetch,
    requestInit: { headers: { "x-atrium-key": exposed.apiKey as string } },
  });
  const client = new Client({ name: `load-${index}`, version: "1" });
  try {
    await client.connect(transport);
    const id = transport.sessionId;
    if (!id) throw new Error("no Mcp-Session-Id");
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === "getPet")) throw new Error("tools/list has no getPet");
    const petId = (index % 2) + 1;
    const result = await client.callTool({ name: "getPet", arguments: { petId } });
    const pet = result.structuredContent as { id?: number } | undefined;
    if (result.isError || pet?.id !== petId) throw new Error(`getPet ${petId}: ${JSON.stringify(result)}`);
    await transport.terminateSession();
    return id;
  } finally {
    await client.close();
  }
}

describe("1,000 concurrent 2025 sessions", () => {
  it("initializes, lists, calls and deletes every one of them, and memory comes back", async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => session(i))); // warm-up: connections, compiled code
    await new Promise((resolve) => setTimeout(resolve, 500));
    const memory = await watchMemory(gateway);
    const started = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: SESSIONS }, (_, i) => session(i)));
    const seconds = (performance.now() - started) / 1000;
    const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [String(outcome.reason)] : []));
    expect(failures.slice(0, 5), `${failures.length} sessions failed`).toEqual([]);
    const ids = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<string>).value);
    expect(new Set(ids).size).toBe(SESSIONS);

    // A deleted session is refused (404: the client must start a new one).
    const again = await undiciFetch(`${gateway.url}${exposed.mcpPath}`, {
      method: "POST",
      dispatcher: agent,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": ids[0] as string,
        "mcp-protocol-version": "2025-11-25",
        "x-atrium-key": exposed.apiKey as string,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await again.arrayBuffer();
    expect(again.status).toBe(404);

    // What the sessions took is garbage once they ended: the live heap is back where it was (the
    // gateway keeps only the hashes of ended sessions, to refuse them until they would expire).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const { rssPeak, rssAfter, heapAfter } = await memory.stop();
    const { rssBefore, heapBefore } = memory;
    expect(gateway.alive()).toBe(true);
    expect(rssPeak - rssBefore).toBeLessThan(300 * MIB);
    expect(heapAfter - heapBefore).toBeLessThan(16 * MIB);

    const figures = {
      tried: SESSIONS,
      unit: "sessions",
      lost: failures.length,
      details: {
        "all done in (s)": Math.round(seconds * 10) / 10,
        "gateway RSS before (MiB)": Math.round(rssBefore / MIB),
        "RSS peak (MiB)": Math.round(rssPeak / MIB),
        "RSS after (MiB)": Math.round(rssAfter / MIB),
        "live heap before (MiB)": Math.round((heapBefore / MIB) * 10) / 10,
        "live heap after (MiB)": Math.round((heapAfter / MIB) * 10) / 10,
        "client connections": CLIENT_CONNECTIONS,
      },
    };
    console.log("concurrent sessions:", figures);
    recordFigures("fault-concurrent-sessions", figures);
  }, 120_000);
});
