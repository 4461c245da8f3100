/**
 * The gateway under hostile or unlucky traffic, end to end against a real control plane and a
 * real backend that hangs, answers fast, or answers with deeply nested JSON: bounded metrics on
 * the management listener, JSON-RPC batch limits, per-tool pool shares and whole-call timeouts
 * (and the circuit breaker a run of them opens), nesting limits, and slow or greedy clients.
 */
import { createServer, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { Pool, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { listenLocally, modernHeaders, type Stack, startStack, waitFor } from "./testing.ts";

const DEEP = 5_000;
const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

const HOSTILE_OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Hostile", version: "1" },
  paths: {
    "/fast": { get: { operationId: "fast", responses: { "200": { description: "ok" } } } },
    "/hang": { get: { operationId: "hang", responses: { "200": { description: "never" } } } },
    "/deep": { get: { operationId: "deep", responses: { "200": { description: "deep JSON" } } } },
    "/echo": {
      post: {
        operationId: "echo",
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: { "200": { description: "ok" } },
      },
    },
  },
});

/** A backend whose /hang never answers (until closed), counting the requests of each path. */
async function startHostileBackend() {
  const received = new Map<string, number>();
  const hanging: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0] ?? "";
    received.set(path, (received.get(path) ?? 0) + 1);
    req.resume();
    if (path === "/hang") {
      hanging.push(res);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(path === "/deep" ? deepJson(DEEP) : '{"ok":true}');
  });
  const listening = await listenLocally(server);
  return { ...listening, count: (path: string) => received.get(path) ?? 0 };
}

let stack: Stack;
let backend: Awaited<ReturnType<typeof startHostileBackend>>;
let gateway: Gateway;
let path: string;

beforeAll(async () => {
  stack = await startStack();
  backend = await startHostileBackend();
  const { expositionId } = await stack.expose("hostile", {
    openapi: HOSTILE_OPENAPI,
    // A short cool-down: the hanging tool's timeouts open the plan's circuit breaker.
    plan: { backendEndpoint: backend.url, backendTimeoutMs: 2_000, circuitBreaker: { coolDownSeconds: 1 } },
  });
  path = `/mcp/${expositionId}`;
  gateway = await stack.startGateway({ bodyLimitBytes: 1024 * 1024 });
  await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the hostile exposition served");
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await backend?.close();
});

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever came back
async function post(body: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const response = await request(`${gateway.url}${path}`, { method: "POST", headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

/** A modern tools/call; `args` as JSON text, so that tests can send what JSON.stringify cannot make. */
function callTool(name: string, args = "{}") {
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args},"_meta":${JSON.stringify(meta)}}}`;
  return post(body, modernHeaders("tools/call", name));
}

/** A 2025 session of `version`; returns the headers its requests carry. */
async function legacySession(version: string): Promise<Record<string, string>> {
  const response = await request(`${gateway.url}${path}`, {
    method: "POST",
    headers: jsonHeaders,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  await response.body.dump();
  return { ...jsonHeaders, "mcp-session-id": String(response.headers["mcp-session-id"]) };
}

describe("telemetry", () => {
  it("keeps /q/metrics bounded under 10,000 distinct hostile method names, and off the public listener", async () => {
    const session = await legacySession("2025-11-25");
    const pool = new Pool(gateway.url, { connections: 16 });
    try {
      const send = async (i: number) => {
        // Long names now and then; three ways in: refused modern, unknown legacy, no session.
        const method = `${i % 100 === 0 ? "m".repeat(100_000) : ""}hostile-${i}`;
        const headers = i % 3 === 0 ? modernHeaders("x") : i % 3 === 1 ? session : jsonHeaders;
        const params = i % 3 === 0 ? { _meta: meta } : {};
        const response = await pool.request({
          method: "POST",
          path,
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method, params }),
        });
        await response.body.dump();
        expect(response.statusCode).toBeLessThan(500);
      };
      for (let start = 0; start < 10_000; start += 200) {
        await Promise.all(Array.from({ length: 200 }, (_, k) => send(start + k)));
      }
    } finally {
      await pool.close();
    }
    const metrics = await request(`${managementUrl(gateway.app)}/q/metrics`);
    const text = await metrics.body.text();
    expect(metrics.statusCode).toBe(200);
    expect(text).not.toContain("hostile");
    expect(text).toMatch(/atrium_mcp_requests_total\{exposition="[^"]+",method="other",status="400"\} \d+/);
    expect(text.length).toBeLessThan(100_000);

    const publicMetrics = await request(`${gateway.url}/q/metrics`);
    await publicMetrics.body.dump();
    expect(publicMetrics.statusCode).toBe(404);
    for (const base of [gateway.url, managementUrl(gateway.app)]) {
      const ready = await request(`${base}/q/health/ready`);
      expect(await ready.body.json()).toMatchObject({ status: "UP" });
    }
  }, 60_000);

  it("listens for management on loopback, apart from the MCP port", () => {
    const management = new URL(String(managementUrl(gateway.app)));
    expect(management.hostname).toBe("127.0.0.1");
    expect(management.port).not.toBe(new URL(gateway.url).port);
  });
});

describe("nesting limits", () => {
  it("refuses tool arguments nested 5,000 levels deep with invalid params, in both eras", async () => {
    const modern = await callTool("echo", `{"body":${deepJson(DEEP)}}`);
    expect(modern.status).toBe(400);
    expect(modern.body.error).toMatchObject({ code: -32602, message: expect.stringContaining("64 levels") });

    const session = await legacySession("2025-11-25");
    const body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"body":${deepJson(DEEP)}}}}`;
    const legacy = await post(body, session);
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.code).toBe(-32602);

    // Just under the limit still goes through.
    const fine = await callTool("echo", `{"body":${deepJson(50)}}`);
    expect(fine.status).toBe(200);
    expect(fine.body.result.isError).toBeFalsy();
  });

  it("turns a deeply nested backend answer into a tool error", async () => {
    const answer = await callTool("deep");
    expect(answer.status).toBe(200);
    expect(answer.body.result.isError).toBe(true);
    expect(answer.body.result.content[0].text).toContain("deeper than 128 levels");
  });
});

describe("backend pools and timeouts", () => {
  it("keeps a fast tool fast while another tool of the origin hangs; timeouts count the wait for a connection", async () => {
    const started = performance.now();
    const hangs = Array.from({ length: 150 }, () =>
      callTool("hang").then((r) => ({ r, ms: performance.now() - started })),
    );
    const fastMs: number[] = [];
    try {
      await waitFor(() => backend.count("/hang") >= 16, "hanging calls at the backend");
      await new Promise((resolve) => setTimeout(resolve, 300)); // every hanging call has arrived
      for (let i = 0; i < 5; i++) {
        const before = performance.now();
        const fast = await callTool("fast");
        expect(fast.body.result.isError).toBeFalsy();
        fastMs.push(performance.now() - before);
      }
    } finally {
      await Promise.allSettled(hangs); // never left running into the next test
    }
    // Sharing one pool, the fast calls waited for the hanging ones' timeouts: 2 s and more.
    expect(Math.max(...fastMs)).toBeLessThan(1_000);
    expect([...fastMs].sort((x, y) => x - y)[2]).toBeLessThan(500);
    const outcomes = await Promise.all(hangs);
    for (const { r, ms } of outcomes) {
      expect(r.body.result.isError).toBe(true);
      expect(r.body.result.content[0].text).toContain("HTTP 504");
      expect(ms).toBeLessThan(3_500); // 2 s timeouts, however long the call waited for a connection (was 6 s)
    }
    // 150 timeouts in a row opened the plan's circuit breaker: the fast tool is refused too, without
    // reaching the backend, until a trial call after the cool-down closes it.
    const fastBefore = backend.count("/fast");
    const refused = await callTool("fast");
    expect(refused.body.result).toMatchObject({ isError: true });
    expect(refused.body.result.content[0].text).toMatch(/^The backend is unavailable: .* Retry in 1 s/);
    expect(backend.count("/fast")).toBe(fastBefore);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await callTool("fast")).body.result.isError).toBeFalsy();
    expect(backend.count("/fast")).toBe(fastBefore + 1);
  }, 30_000);
});

describe("JSON-RPC batches (2025-03-26)", () => {
  const calls = (count: number, name: string) =>
    JSON.stringify(
      Array.from({ length: count }, (_, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name, arguments: {} },
      })),
    );

  it("refuses a batch over the cap whole: 1,000 tools/call make no backend call", async () => {
    const session = await legacySession("2025-03-26");
    const before = backend.count("/fast");
    const refused = await post(calls(1_000, "fast"), session);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: -32600, message: expect.stringContaining("at most 32") });
    expect(backend.count("/fast")).toBe(before);

    const accepted = await post(calls(32, "fast"), session);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toHaveLength(32);
    expect(backend.count("/fast")).toBe(before + 32);
  });

  it("answers a batch within one deadline, a few calls at a time", async () => {
    const session = await legacySession("2025-03-26");
    const before = backend.count("/hang");
    const started = performance.now();
    const answered = await post(calls(32, "hang"), session);
    expect(performance.now() - started).toBeLessThan(6_000); // not 32 × 2 s
    expect(answered.body).toHaveLength(32);
    for (const answer of answered.body) expect(answer.result.isError).toBe(true);
    expect(backend.count("/hang") - before).toBeLessThanOrEqual(8);
  }, 20_000);
});

describe("slow and greedy clients", () => {
  const open = (port: number, payload: string) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(payload);
        resolve(socket);
      });
      socket.on("error", reject);
    });
  const closed = (socket: Socket) =>
    new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

  it("closes 400 connections whose headers or body never finish, or that never send, within a few seconds", async () => {
    const slow = await stack.startGateway({
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
      maxConnectionsPerAddress: 1_000,
    });
    const port = Number(new URL(slow.url).port);
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n`;
    const started = performance.now();
    const sockets = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        // a body that never ends, headers that never end, nothing at all
        open(port, [`${head}Content-Length: 1000\r\n\r\n{"jsonrpc":`, `${head}X-Slow: 1`, ""][i % 3] ?? ""),
      ),
    );
    sockets.forEach((s) => {
      s.on("error", () => undefined);
      s.resume();
    });
    await Promise.race([Promise.all(sockets.map(closed)), new Promise((resolve) => setTimeout(resolve, 6_000))]);
    expect(sockets.filter((s) => !s.destroyed && !s.readableEnded).length).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it("closes connections over the per-address cap at once", async () => {
    const capped = await stack.startGateway({ maxConnectionsPerAddress: 20 });
    const port = Number(new URL(capped.url).port);
    const sockets = await Promise.all(Array.from({ length: 30 }, () => open(port, "")));
    sockets.forEach((s) => {
      s.on("error", () => undefined);
      s.resume();
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sockets.filter((s) => s.destroyed || s.readableEnded).length).toBe(10);
    for (const s of sockets) s.destroy();
    await waitFor(async () => {
      const live = await request(`${capped.url}/q/health/live`).catch(() => undefined);
      await live?.body.dump();
      return live?.statusCode === 200;
    }, "a connection accepted again");
  });
});
