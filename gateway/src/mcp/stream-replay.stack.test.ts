/**
 * Resumable answer streams end to end (SEP-1699): a real control plane, a gateway that polls (it
 * closes a 2025-11-25 call's connection after the priming event), a backend whose `wait` answers
 * when asked. The official v1 client reconnects with `Last-Event-ID` and gets its result; over raw
 * HTTP, a dropped connection is no cancel, and a resume is refused in words for another session,
 * a made-up id, or on a replica that never saw the stream (as after a restart).
 */
import { createServer } from "node:http";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { listenLocally, type Stack, startStack, waitFor } from "../testing.ts";
import { RETRY_MS } from "./stream-replay.ts";
import { WAIT_PATH } from "./testing.ts";

const POLL_AFTER_MS = 200;
const PROGRESS_AFTER_MS = 100;

const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Replay", version: "1" },
  paths: {
    "/wait": WAIT_PATH,
  },
});

let stack: Stack;
let gateway: Gateway;
/** Another replica with the same session key: it verifies the sessions, and knows none of the streams. */
let other: Gateway;
let backend: Awaited<ReturnType<typeof listenLocally>>;
let expositionId = "";
/** Backend calls that completed: a dropped client does not cancel its call. */
let answered = 0;

beforeAll(async () => {
  stack = await startStack();
  backend = await listenLocally(
    createServer((req, res) => {
      req.resume();
      const ms = Number(new URL(req.url ?? "/", "http://backend").searchParams.get("ms") ?? 0);
      setTimeout(() => {
        answered += 1;
        res.writeHead(200, { "content-type": "text/plain" }).end(`waited ${ms} ms`);
      }, ms).unref();
    }),
  );
  expositionId = (await stack.expose("replay", { openapi: OPENAPI, plan: { backendEndpoint: backend.url } }))
    .expositionId;
  const options = { progressAfterMs: PROGRESS_AFTER_MS, ssePollAfterMs: POLL_AFTER_MS };
  gateway = await stack.startGateway(options);
  other = await stack.startGateway(options);
  await waitFor(
    () => gateway.registry.byId(expositionId) !== undefined && other.registry.byId(expositionId) !== undefined,
    "the exposition served on both replicas",
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await backend?.close();
});

const url = (on: Gateway = gateway) => `${on.url}/mcp/${expositionId}`;

function headers(version: string, session?: string, accept = "application/json, text/event-stream") {
  return {
    "content-type": "application/json",
    accept,
    "mcp-protocol-version": version,
    ...(session ? { "mcp-session-id": session } : {}),
  };
}

async function openSession(version: string): Promise<string> {
  const opened = await request(url(), {
    method: "POST",
    headers: headers(version),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "replay", version: "1" } },
    }),
  });
  await opened.body.dump();
  return String(opened.headers["mcp-session-id"]);
}

function call(version: string, session: string, ms: number, progressToken?: string) {
  return request(url(), {
    method: "POST",
    headers: headers(version, session),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "wait", arguments: { ms }, ...(progressToken ? { _meta: { progressToken } } : {}) },
    }),
  });
}

function resume(session: string, lastEventId: string, on: Gateway = gateway) {
  return request(url(on), {
    headers: { ...headers("2025-11-25", session, "text/event-stream"), "last-event-id": lastEventId },
  });
}

/** The SSE events of a body: id, retry and data of each. */
function eventsOf(text: string) {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const field = (name: string) => new RegExp(`^${name}: ?(.*)$`, "m").exec(block)?.[1];
      return { id: field("id"), retry: field("retry"), data: field("data") ?? "" };
    });
}

describe("resumable answer streams", () => {
  it("v1 client: a polled call's stream closes after its priming event, and the client resumes it with Last-Event-ID", async () => {
    const seen: { method: string; lastEventId: string | null }[] = [];
    const recording: typeof fetch = (input, init) => {
      const given = new Headers(init?.headers);
      seen.push({ method: init?.method ?? "GET", lastEventId: given.get("last-event-id") });
      return fetch(input, init);
    };
    const client = new V1Client({ name: "replay-v1", version: "1" });
    await client.connect(new V1Transport(new URL(url()), { fetch: recording }));
    const progress: number[] = [];
    const started = performance.now();
    const result = await client.callTool({ name: "wait", arguments: { ms: 600 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect((result.content as { text: string }[])[0]?.text).toBe("waited 600 ms");
    // The notifications sent while no connection was open were kept, and replayed in order.
    expect(progress.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1] as number);
    // It waited the priming event's retry before coming back.
    expect(performance.now() - started).toBeGreaterThanOrEqual(POLL_AFTER_MS + RETRY_MS - 50);
    expect(seen.some((s) => s.method === "GET" && s.lastEventId !== null)).toBe(true);
    await client.close();
  });

  it("raw HTTP: the priming event comes first with retry; the stream closes before the answer, which a resume then brings", async () => {
    const session = await openSession("2025-11-25");
    const posted = await call("2025-11-25", session, 500);
    expect(posted.statusCode).toBe(200);
    expect(posted.headers["content-type"]).toBe("text/event-stream");
    const first = eventsOf(await posted.body.text());
    expect(first).toHaveLength(1);
    expect(first[0]?.retry).toBe(String(RETRY_MS));
    expect(first[0]?.data).toBe("");
    const primingId = first[0]?.id as string;
    expect(primingId).toMatch(/^[A-Za-z0-9_-]{16}\.1$/);

    const resumed = await resume(session, primingId);
    expect(resumed.statusCode).toBe(200);
    const rest = eventsOf(await resumed.body.text());
    const last = rest.at(-1);
    expect(JSON.parse(last?.data ?? "{}")).toMatchObject({ id: 7, result: { content: [{ text: "waited 500 ms" }] } });
    expect(last?.id?.startsWith(primingId.split(".")[0] as string)).toBe(true);

    // Its answer was read live: nothing is kept for it any more.
    expect((await resume(session, primingId)).statusCode).toBe(400);
  });

  it("raw HTTP: another session, a made-up id, and another replica (or this one after a restart) are refused with 400 in words", async () => {
    const owner = await openSession("2025-11-25");
    const stranger = await openSession("2025-11-25");
    const posted = await call("2025-11-25", owner, 300);
    const primingId = eventsOf(await posted.body.text())[0]?.id as string;

    for (const [session, id, on] of [
      [stranger, primingId, gateway],
      [owner, "made-up.1", gateway],
      [owner, primingId, other],
    ] as const) {
      const refused = await resume(session, id, on);
      expect(refused.statusCode).toBe(400);
      const body = (await refused.body.json()) as { error: { message: string } };
      expect(body.error.message).toContain("Last-Event-ID names no stream this gateway can resume");
    }
    // The owner still gets its answer.
    const resumed = await resume(owner, primingId);
    expect(await resumed.body.text()).toContain("waited 300 ms");
  });

  it("raw HTTP: an answer that came while nobody listened is kept for a later resume, until the session ends", async () => {
    const session = await openSession("2025-11-25");
    const posted = await call("2025-11-25", session, 250);
    const primingId = eventsOf(await posted.body.text())[0]?.id as string;
    await new Promise((resolve) => setTimeout(resolve, 400));
    for (let i = 0; i < 2; i++) {
      const resumed = await resume(session, primingId);
      expect(await resumed.body.text()).toContain("waited 250 ms");
    }
    const ended = await request(url(), { method: "DELETE", headers: headers("2025-11-25", session) });
    await ended.body.dump();
    expect(ended.statusCode).toBe(200);
    // An ended session is refused as such (404), before its streams are looked at.
    const after = await resume(session, primingId);
    await after.body.dump();
    expect(after.statusCode).toBe(404);
  });

  it("raw HTTP, 2025-06-18: no priming and no poll, but ids; a client that drops mid-call resumes from its last event, and the call went on", async () => {
    const session = await openSession("2025-06-18");
    const before = answered;
    const posted = await call("2025-06-18", session, 700, "p-1");
    expect(posted.headers["content-type"]).toBe("text/event-stream");
    let text = "";
    for await (const chunk of posted.body) {
      text += chunk;
      if (text.includes("\n\n")) break;
    }
    posted.body.destroy();
    const first = eventsOf(text)[0];
    expect(first?.retry).toBeUndefined();
    expect(JSON.parse(first?.data ?? "{}").method).toBe("notifications/progress");

    const resumed = await resume(session, first?.id as string);
    const rest = eventsOf(await resumed.body.text());
    expect(rest.map((event) => JSON.parse(event.data).method ?? "answer")).toContain("notifications/progress");
    expect(rest.at(-1)?.data).toContain("waited 700 ms");
    expect(rest.some((event) => event.id === first?.id)).toBe(false);
    expect(answered).toBe(before + 1);
  });

  it("a fast call still answers plain JSON: nothing to resume, nothing kept", async () => {
    const session = await openSession("2025-11-25");
    const posted = await call("2025-11-25", session, 0);
    expect(posted.headers["content-type"]).toMatch(/^application\/json/);
    expect(await posted.body.text()).toContain("waited 0 ms");
  });
});
