/**
 * No amplification of ended sessions: 300 × (initialize, DELETE) with one API key reach the
 * control plane as a few batches, recorded as a few revisions and at most the per-Exposition cap
 * of rows; the gateway that ended them still refuses every one of them.
 */
import { ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE } from "@atrium/contract";
import { sql } from "drizzle-orm";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { type Stack, useStackWithGateway, waitFor } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;

useStackWithGateway((running) => ({ stack, gateway } = running));

async function mcp(method: "POST" | "DELETE", sessionId?: string, body?: unknown) {
  const response = await request(`${gateway.url}${stack.mcpPath}`, {
    method,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-atrium-key": stack.apiKey,
      ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-03-26" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.body.dump();
  return { status: response.statusCode, sessionId: response.headers["mcp-session-id"] as string | undefined };
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const result = await stack.controlPlane.database.db.execute(query);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

describe("ended sessions", () => {
  it("300 × (initialize, DELETE) with one key make a few revisions and at most the cap of rows", async () => {
    const revisionsBefore = await count(sql`select count(*)::int as n from changes where kind = 'EndedSession'`);
    const sessions: string[] = [];
    for (let i = 0; i < 300; i++) {
      const opened = await mcp("POST", undefined, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
      });
      expect(opened.sessionId).toBeTruthy();
      sessions.push(opened.sessionId as string);
      expect((await mcp("DELETE", opened.sessionId)).status).toBeLessThan(300);
    }
    const rows = sql`select count(*)::int as n from ended_sessions where exposition_id = ${stack.expositionId}`;
    await waitFor(async () => (await count(rows)) >= ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE, "the reports", 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // any batch still on its way
    expect(await count(rows)).toBe(ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE);
    const revisions =
      (await count(sql`select count(*)::int as n from changes where kind = 'EndedSession'`)) - revisionsBefore;
    expect(revisions).toBeGreaterThan(0);
    expect(revisions).toBeLessThanOrEqual(10);
    // Past the cap, the gateway that ended them still refuses them.
    for (const sessionId of [sessions[0], sessions[299]]) {
      const answer = await mcp("POST", sessionId, { jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect(answer.status).toBe(404);
    }
  });
});
