/**
 * Progress and log notifications end to end: a real control plane and gateway, a backend on the
 * loopback whose `wait` operation answers after the time asked for, and the official clients —
 * the v1 SDK (2025 sessions, `logging/setLevel`) and the v2 client pinned to 2026-07-28 (`_meta`
 * log level). A JSON-only client, or one that asked for nothing, gets plain JSON; the backend
 * secret never reaches a log message, even when the backend echoes it.
 */
import { createServer } from "node:http";
import { freePort } from "@atrium/control-plane/testing";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { EmptyResultSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { listenLocally, modernRequest, type Stack, startStack, waitFor } from "../testing.ts";
import { WAIT_PATH } from "./testing.ts";

const SECRET = "s3cret-notify-7f2b9c";
const SECRET_VARIABLE = "ATRIUM_BACKEND_SECRET_NOTIFY_TEST";
const PROGRESS_AFTER_MS = 100;
const SLOW_FAILURE = "notify://slow-failure";

const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Notify", version: "1" },
  paths: {
    "/wait": WAIT_PATH,
    "/fail": {
      get: {
        operationId: "fail",
        summary: "Fails, echoing what it received (the secret included)",
        responses: { "500": { description: "failure", content: { "text/plain": {} } } },
      },
    },
  },
});

/**
 * The backend: `/wait?ms=` answers after that long; `/fail` answers 500 with the request's URL and
 * headers; `/fail-slowly` answers 500 after 500 ms (the resource `notify://slow-failure`).
 */
async function startBackend() {
  const server = createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? "/", "http://backend");
    if (url.pathname === "/wait") {
      const ms = Number(url.searchParams.get("ms") ?? 0);
      setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end(`waited ${ms} ms`), ms).unref();
      return;
    }
    if (url.pathname === "/fail-slowly") {
      setTimeout(() => res.writeHead(500, { "content-type": "text/plain" }).end("failed slowly"), 500).unref();
      return;
    }
    res.writeHead(500, { "content-type": "text/plain" }).end(`failed: ${req.url} ${JSON.stringify(req.headers)}`);
  });
  return listenLocally(server);
}

let stack: Stack;
let gateway: Gateway;
let backend: Awaited<ReturnType<typeof startBackend>>;
/** Exposition ids: `notify` (the backend, secret in the query, 1 s timeout), `down` (nothing listens, breaker opens at once). */
const ids = { notify: "", down: "" };
const url = (name: keyof typeof ids) => new URL(`${gateway.url}/mcp/${ids[name]}`);

beforeAll(async () => {
  process.env[SECRET_VARIABLE] = SECRET;
  stack = await startStack();
  backend = await startBackend();
  const notify = await stack.expose("notify", {
    openapi: OPENAPI,
    plan: {
      backendEndpoint: backend.url,
      backendTimeoutMs: 1_000,
      backendSecret: { env: `\${env:${SECRET_VARIABLE}}`, in: "query", name: "api_key" },
    },
  });
  ids.notify = notify.expositionId;
  const resources = await stack.controlPlane.admin.call("POST", "/api/v1/resources", {
    name: "notify",
    serviceId: notify.serviceId,
    resources: [{ name: "slow-failure", uri: SLOW_FAILURE, fromBackend: { path: "/fail-slowly" } }],
  });
  expect(resources.status).toBe(201);
  const down = await stack.expose("down", {
    openapi: OPENAPI,
    plan: {
      backendEndpoint: `http://127.0.0.1:${await freePort()}`,
      circuitBreaker: { consecutiveFailures: 1, coolDownSeconds: 60 },
    },
  });
  ids.down = down.expositionId;
  gateway = await stack.startGateway({ progressAfterMs: PROGRESS_AFTER_MS });
  await waitFor(
    () =>
      gateway.registry.byId(ids.notify)?.exposition.resources.length === 1 &&
      gateway.registry.byId(ids.down) !== undefined,
    "both expositions served, notify with its resource",
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await backend?.close();
  delete process.env[SECRET_VARIABLE];
});

type Progress = { progress: number; total?: number; message?: string };
type LogMessage = { level: string; logger?: string; data: unknown };

/** A v1 (2025-11-25) client on an exposition, gathering the log messages it receives. */
async function v1Client(name: keyof typeof ids) {
  const client = new V1Client({ name: "notify-v1", version: "1" });
  const messages: LogMessage[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params);
  });
  await client.connect(new V1Transport(url(name)));
  return { client, messages };
}

/** A v2 client pinned to 2026-07-28, gathering the log messages it receives. */
async function v2Client(name: keyof typeof ids) {
  const client = new V2Client(
    { name: "notify-v2", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const messages: LogMessage[] = [];
  client.setNotificationHandler("notifications/message", (notification) => {
    messages.push(notification.params as LogMessage);
  });
  await client.connect(new V2Transport(url(name)));
  return { client, messages };
}

/** The text blocks of a tool result, joined. */
function textOf(result: unknown): string {
  const { content } = result as { content?: { type: string; text?: string }[] };
  return (content ?? []).map((block) => block.text ?? "").join("");
}

function expectIncreasing(progress: Progress[]) {
  for (let i = 1; i < progress.length; i++)
    expect(progress[i]?.progress).toBeGreaterThan(progress[i - 1]?.progress ?? 0);
}

describe("progress", () => {
  it("v1 (2025-11-25 session): a call past the threshold gets progress with the elapsed time until its result", async () => {
    const { client } = await v1Client("notify");
    const progress: Progress[] = [];
    const result = await client.callTool({ name: "wait", arguments: { ms: 600 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(textOf(result)).toContain("waited 600 ms");
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expectIncreasing(progress);
    expect(progress[0]?.progress).toBeGreaterThanOrEqual(PROGRESS_AFTER_MS / 1000);
    expect(progress[0]?.message).toMatch(/^Waiting for the backend: \d+\.\d s$/);
    expect(progress[0]?.total).toBeUndefined();
    await client.close();
  });

  it("v2 (2026-07-28): the same on the request's own event stream", async () => {
    const { client } = await v2Client("notify");
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: "wait", arguments: { ms: 600 } },
      { onprogress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toContain("waited 600 ms");
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expectIncreasing(progress);
    await client.close();
  });

  it("a call answered before the threshold gets plain JSON, and so does one without a progressToken", async () => {
    const fast = await request(url("notify"), modernRequest("tools/call", { name: "wait", arguments: { ms: 0 } }));
    expect(fast.headers["content-type"]).toMatch(/^application\/json/);
    await fast.body.json();

    const withToken = (ms: number, accept: string) => {
      const call = modernRequest("tools/call", { name: "wait", arguments: { ms } });
      const body = JSON.parse(call.body);
      body.params._meta.progressToken = "t-1";
      return request(url("notify"), { ...call, headers: { ...call.headers, accept }, body: JSON.stringify(body) });
    };
    const quick = await withToken(0, "application/json, text/event-stream");
    expect(quick.headers["content-type"]).toMatch(/^application\/json/);
    expect(((await quick.body.json()) as { result: unknown }).result).toBeDefined();

    // JSON only: no progress, no error, the result as usual.
    const jsonOnly = await withToken(400, "application/json");
    expect(jsonOnly.statusCode).toBe(200);
    expect(jsonOnly.headers["content-type"]).toMatch(/^application\/json/);
    const answer = (await jsonOnly.body.json()) as { result: { content: { text: string }[] } };
    expect(answer.result.content[0]?.text).toContain("waited 400 ms");

    // No token: a slow call is still one JSON answer.
    const slow = await request(url("notify"), modernRequest("tools/call", { name: "wait", arguments: { ms: 400 } }));
    expect(slow.headers["content-type"]).toMatch(/^application\/json/);
    await slow.body.json();
  });

  it("a timeout after the stream opened is the last event: the gateway's 504 result", async () => {
    const { client } = await v1Client("notify");
    const progress: Progress[] = [];
    const result = await client.callTool({ name: "wait", arguments: { ms: 2_000 } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("did not answer within 1000 ms");
    expect(progress.length).toBeGreaterThanOrEqual(3);
    await client.close();
  });
});

describe("an error after the stream opened", () => {
  it("v1: a slow resource read that fails is refused after its progress", async () => {
    const { client } = await v1Client("notify");
    const progress: Progress[] = [];
    await expect(
      client.readResource({ uri: SLOW_FAILURE }, { onprogress: (update) => progress.push(update) }),
    ).rejects.toThrow(/Reading notify:\/\/slow-failure: the backend answered HTTP 500/);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    await client.close();
  });

  it("2026-07-28: the stream's 200, progress events, then the JSON-RPC error as the last event", async () => {
    const call = modernRequest("resources/read", { uri: SLOW_FAILURE });
    const body = JSON.parse(call.body);
    body.params._meta.progressToken = 7;
    const answer = await request(url("notify"), {
      ...call,
      headers: { ...call.headers, "mcp-name": SLOW_FAILURE },
      body: JSON.stringify(body),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    const events = (await answer.body.text())
      .split("\n\n")
      .filter((event) => event !== "")
      .map((event) => {
        expect(event).toMatch(/^event: message\ndata: /);
        return JSON.parse(event.slice(event.indexOf("data: ") + 6));
      });
    const last = events.pop();
    expect(last).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: expect.objectContaining({ code: -32603, message: expect.stringContaining("HTTP 500") }),
    });
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const event of events) {
      expect(event).toEqual({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 7, progress: expect.any(Number), message: expect.any(String) },
      });
    }
  });
});

describe("logging", () => {
  it("v1: logging/setLevel debug, then a call's account: the backend request, its status and time, the result", async () => {
    const { client, messages } = await v1Client("notify");
    await client.setLoggingLevel("debug");
    const result = await client.callTool({ name: "wait", arguments: { ms: 20 } });
    expect(textOf(result)).toContain("waited 20 ms");
    expect(messages.map((m) => m.level)).toEqual(["debug", "info", "debug"]);
    expect(messages.every((m) => m.logger === "atrium-gateway")).toBe(true);
    expect(messages[0]?.data).toBe("wait: calling the backend: GET /wait");
    expect(messages[1]?.data).toMatch(/^wait: the backend answered HTTP 200 in \d+ ms$/);
    expect(messages[2]?.data).toBe("wait: result: text");
    await client.close();
  });

  it("v1: only messages at or above the level set; a failure, a timeout and invalid arguments explained", async () => {
    const { client, messages } = await v1Client("notify");
    await client.setLoggingLevel("warning");
    expect((await client.callTool({ name: "fail", arguments: {} })).isError).toBe(true);
    expect(messages).toEqual([
      expect.objectContaining({
        level: "error",
        data: expect.stringMatching(/^fail: the backend answered HTTP 500 in \d+ ms$/),
      }),
    ]);
    messages.length = 0;
    await client.callTool({ name: "wait", arguments: { ms: 1_500 } });
    expect(messages).toEqual([
      expect.objectContaining({ level: "error", data: "wait: the backend did not answer within 1000 ms" }),
    ]);
    messages.length = 0;
    await client.callTool({ name: "wait", arguments: { ms: "soon" } });
    expect(messages).toEqual([
      expect.objectContaining({ level: "warning", data: expect.stringContaining("wait: Invalid arguments:\n- ms:") }),
    ]);
    await client.close();
  });

  it("v1: a session that set no level gets no messages; an unknown level is refused with -32602", async () => {
    const { client, messages } = await v1Client("notify");
    await client.callTool({ name: "fail", arguments: {} });
    expect(messages).toEqual([]);
    await expect(
      client.request({ method: "logging/setLevel", params: { level: "loud" } }, EmptyResultSchema),
    ).rejects.toThrow(/-32602.*level must be one of debug, info/);
    await client.close();
  });

  it("v1: an unreachable backend and its circuit breaker opening", async () => {
    const { client, messages } = await v1Client("down");
    await client.setLoggingLevel("info");
    await client.callTool({ name: "fail", arguments: {} });
    expect(messages.map((m) => [m.level, m.data])).toEqual([
      ["warning", "fail: the backend failed too often: its circuit breaker opened, calls fail at once for a while"],
      ["error", expect.stringMatching(/^fail: The backend is unreachable \(correlation id [0-9a-f]+\)$/)],
    ]);
    messages.length = 0;
    await client.callTool({ name: "fail", arguments: {} });
    expect(messages.map((m) => [m.level, m.data])).toEqual([
      ["error", expect.stringMatching(/^fail: The backend is unavailable: calls to it failed repeatedly/)],
    ]);
    await client.close();
  });

  it("v2 (2026-07-28): the request's _meta log level, and none without it", async () => {
    const { client, messages } = await v2Client("notify");
    await client.callTool({ name: "fail", arguments: {} });
    expect(messages).toEqual([]);
    await client.callTool({ name: "fail", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } });
    expect(messages).toEqual([
      expect.objectContaining({ level: "error", data: expect.stringMatching(/^fail: the backend answered HTTP 500/) }),
    ]);
    await client.close();
  });

  it("2026-07-28: an unknown _meta log level is refused with 400, -32602", async () => {
    const call = modernRequest("tools/call", { name: "wait", arguments: { ms: 0 } });
    const body = JSON.parse(call.body);
    body.params._meta["io.modelcontextprotocol/logLevel"] = "loud";
    const refused = await request(url("notify"), { ...call, body: JSON.stringify(body) });
    expect(refused.statusCode).toBe(400);
    const answer = (await refused.body.json()) as { error: { code: number; message: string } };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain("must be one of debug, info");
  });

  it("2026-07-28: a fast call's log messages and result go out whole, with their length (one write, not chunks)", async () => {
    const call = modernRequest("tools/call", { name: "fail", arguments: {} });
    const body = JSON.parse(call.body);
    body.params._meta["io.modelcontextprotocol/logLevel"] = "info";
    const answer = await request(url("notify"), { ...call, body: JSON.stringify(body) });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/event-stream");
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    const text = await answer.body.text();
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(text));
    const events = text.split("\n\n");
    expect(events.pop()).toBe("");
    expect(events.map((event) => JSON.parse(event.replace(/^event: message\ndata: /, "")))).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: {
          level: "error",
          logger: "atrium-gateway",
          data: expect.stringMatching(/^fail: the backend answered/),
        },
      },
      { jsonrpc: "2.0", id: 1, result: expect.objectContaining({ isError: true }) },
    ]);
  });

  it("the backend secret never appears in a log message, though the backend echoes it", async () => {
    const { client, messages } = await v1Client("notify");
    await client.setLoggingLevel("debug");
    const failed = await client.callTool({ name: "fail", arguments: {} });
    // The backend's answer is the client's to see; the gateway's own words are not where it leaks.
    expect(textOf(failed)).toContain(SECRET);
    await client.callTool({ name: "wait", arguments: { ms: 0 } });
    expect(messages.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(messages)).not.toContain(SECRET);
    expect(JSON.stringify(messages)).not.toContain("api_key");
    await client.close();
  });
});
