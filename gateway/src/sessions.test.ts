/**
 * 2025-era sessions across the replicas of a gateway group: a session the official v1 client
 * opens on one replica works on another; once the client ends it there, every replica refuses
 * it soon after (the change stream carries it), including one started later; with the
 * control plane down the DELETE still succeeds and the report follows once it is back; and a
 * replica restarted from its cache while the control plane is down still refuses them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestControlPlane, type TestControlPlane } from "@atrium/control-plane/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayConfig } from "./config.ts";
import { type Gateway, startGateway } from "./gateway.ts";
import { type Stack, startStack, waitFor } from "./testing.ts";

/** Within the change stream's propagation time, with room for a busy test machine. */
const PROPAGATION_MS = 2000;

// On disk, so the control plane can be restarted with its data.
const dataDir = mkdtempSync(join(tmpdir(), "atrium-sessions-test-"));
let stack: Stack;
let restarted: TestControlPlane | undefined;
let replicaA: Gateway;
let replicaB: Gateway;
let replicaBConfig: GatewayConfig;
/** Sessions the tests ended. */
const ended: string[] = [];

beforeAll(async () => {
  stack = await startStack({ controlPlane: { config: { dataDir } } });
  replicaA = await stack.startGateway();
  replicaBConfig = stack.gatewayConfig();
  replicaB = await stack.startGateway(replicaBConfig);
});
afterAll(async () => {
  await stack?.close();
  await restarted?.close().catch(() => undefined); // the last test stops it
  rmSync(dataDir, { recursive: true, force: true });
});

/** A session opened on `gateway` by the official v1 client. */
async function openSession(gateway: Gateway) {
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}${stack.mcpPath}`), {
    requestInit: { headers: { "x-atrium-key": stack.apiKey } },
  });
  const client = new Client({ name: "sessions-test", version: "1" });
  await client.connect(transport);
  const sessionId = transport.sessionId;
  if (!sessionId) throw new Error("the gateway answered initialize without a session id");
  return { sessionId, end: () => transport.terminateSession(), close: () => client.close() };
}

/** tools/list with `sessionId` on `gateway`: the status and JSON-RPC error code. */
async function listTools(gateway: Gateway, sessionId: string): Promise<{ status: number; errorCode?: number }> {
  const response = await request(`${gateway.url}${stack.mcpPath}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
      "x-atrium-key": stack.apiKey,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  const body = (await response.body.json()) as { error?: { code: number } };
  return { status: response.statusCode, errorCode: body.error?.code };
}

const refused = { status: 404, errorCode: -32001 };

describe("sessions across replicas", () => {
  it("refuses a session on every replica soon after it was ended on one", async () => {
    const session = await openSession(replicaA);
    const other = await openSession(replicaA);
    expect(await listTools(replicaB, session.sessionId)).toEqual({ status: 200 });

    await session.end();
    const endedAt = Date.now();
    ended.push(session.sessionId);
    expect(await listTools(replicaA, session.sessionId)).toEqual(refused);
    await waitFor(
      async () => (await listTools(replicaB, session.sessionId)).status === 404,
      "replica B to refuse the ended session",
      PROPAGATION_MS,
    );
    expect(await listTools(replicaB, session.sessionId)).toEqual(refused);
    expect(Date.now() - endedAt).toBeLessThan(PROPAGATION_MS);
    // Only that session: another one keeps working everywhere.
    expect(await listTools(replicaB, other.sessionId)).toEqual({ status: 200 });

    const later = await stack.startGateway();
    expect(await listTools(later, session.sessionId)).toEqual(refused);
    expect(await listTools(later, other.sessionId)).toEqual({ status: 200 });
    await other.close();
  });

  it("ends a session while the control plane is down, and reports it once it is back", async () => {
    const session = await openSession(replicaA);
    const port = Number(new URL(stack.controlPlane.url).port);
    await stack.controlPlane.close();

    await session.end(); // the client is not told about the control plane
    ended.push(session.sessionId);
    expect(await listTools(replicaA, session.sessionId)).toEqual(refused);
    // Until the report gets through, only the replica that ended it knows.
    expect(await listTools(replicaB, session.sessionId)).toEqual({ status: 200 });

    restarted = await startTestControlPlane("pglite", { config: { dataDir, port } });
    await waitFor(
      async () => (await listTools(replicaB, session.sessionId)).status === 404,
      "replica B to refuse the session once the control plane is back",
      20_000,
    );
  });

  it("still refuses them on a replica restarted from its cache while the control plane is down", async () => {
    await restarted?.close();
    await replicaB.close();
    const fromCache = await startGateway(replicaBConfig);
    try {
      expect(fromCache.sync.ready).toBe(false);
      for (const sessionId of ended) expect(await listTools(fromCache, sessionId)).toEqual(refused);
    } finally {
      await fromCache.close();
    }
  });
});
