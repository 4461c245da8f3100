/**
 * The 2025-session load client (session-per-connection.ts) through autocannon, against a
 * node:http server that records what each connection sends: a session is opened once per
 * connection, on it, and every later request is a tools/call carrying that connection's session.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { autocannonLoad } from "./load.ts";
import { LEGACY_VERSION, toolCallBody } from "./mcp.ts";
import { sessionPerConnection } from "./session-per-connection.ts";

interface Received {
  method: string;
  id: unknown;
  session: string | undefined;
  version: string | undefined;
  key: string | undefined;
}

let server: Server | undefined;
afterEach(() => server?.close());

/** A server that opens a session per `initialize` and records each connection's requests, in order. */
async function recordingServer(): Promise<{ url: string; connections: Map<Socket, Received[]> }> {
  const connections = new Map<Socket, Received[]>();
  let sessions = 0;
  server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { method: string; id?: unknown };
    const received = connections.get(request.socket) ?? [];
    connections.set(request.socket, received);
    received.push({
      method: message.method,
      id: message.id,
      session: request.headers["mcp-session-id"] as string | undefined,
      version: request.headers["mcp-protocol-version"] as string | undefined,
      key: request.headers["x-atrium-key"] as string | undefined,
    });
    if (message.method === "initialize") {
      sessions += 1;
      response.writeHead(200, { "content-type": "application/json", "mcp-session-id": `session-${sessions}` });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: LEGACY_VERSION } }));
    } else if (message.id === undefined) {
      response.writeHead(202).end();
    } else {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [] } }));
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, connections };
}

describe("a 2025 session per autocannon connection", () => {
  it("initializes once on each connection, sets the session up, then sends only tools/call in it", async () => {
    const { url, connections } = await recordingServer();
    const setLevel = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "info" } });
    const target = sessionPerConnection(url, toolCallBody("[<id>]", 7), {
      setup: [setLevel],
      extraHeaders: { "x-atrium-key": "k" },
    });
    const result = await autocannonLoad(target, { connections: 3, seconds: 1 });
    expect(result.non2xx).toBe(0);
    expect(connections.size).toBe(3);
    const sessions = new Set<string | undefined>();
    for (const received of connections.values()) {
      const [initialize, initialized, setup, ...calls] = received;
      expect(setup).toMatchObject({ method: "logging/setLevel", session: initialized?.session, key: "k" });
      expect(initialize).toMatchObject({ method: "initialize", session: undefined, key: "k" });
      const session = initialized?.session;
      expect(session).toMatch(/^session-\d+$/);
      sessions.add(session);
      expect(initialized).toMatchObject({
        method: "notifications/initialized",
        id: undefined,
        version: LEGACY_VERSION,
      });
      expect(calls.length).toBeGreaterThan(10);
      for (const call of calls) {
        expect(call).toMatchObject({ method: "tools/call", session, version: LEGACY_VERSION, key: "k" });
      }
      // A fresh JSON-RPC id on every call.
      expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
    }
    expect(sessions.size).toBe(3);
  });
});
