import { createServer } from "node:http";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../config.ts";
import { listenLocally } from "../testing.ts";
import type { McpError } from "./protocol.ts";
import { StreamReplay } from "./stream-replay.ts";

/** A loopback server resuming from `store` what its query names: `?session=&id=`. */
let store: StreamReplay;
let server: Awaited<ReturnType<typeof listenLocally>>;

beforeAll(async () => {
  server = await listenLocally(
    createServer((req, res) => {
      const query = new URL(req.url ?? "/", "http://replay").searchParams;
      try {
        store.resume(res, query.get("session") ?? "", query.get("id") ?? "");
      } catch (error) {
        res.writeHead((error as McpError).httpStatus).end((error as McpError).message);
      }
    }),
  );
});
afterAll(() => server.close());

async function resume(session: string, id: string) {
  const answer = await request(`${server.url}/?session=${encodeURIComponent(session)}&id=${encodeURIComponent(id)}`);
  return { status: answer.statusCode, body: await answer.body.text() };
}

/** The ids of a frame's events. */
const idsOf = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);

describe("stream replay", () => {
  it("replays what followed an id, the answer last, to the session that owns the stream only", async () => {
    store = new StreamReplay();
    const stream = store.open("session-a");
    const priming = idsOf(stream.prime())[0] as string;
    stream.write('{"n":1}');
    stream.write('{"n":2}');
    stream.end('{"answer":true}');

    const all = await resume("session-a", priming);
    expect(all.status).toBe(200);
    expect(all.body).toMatch(/"n":1[\s\S]*"n":2[\s\S]*"answer":true/);
    const afterFirst = await resume("session-a", idsOf(all.body)[0] as string);
    expect(afterFirst.body).not.toContain('"n":1');
    expect(afterFirst.body).toContain('"answer":true');

    const foreign = await resume("session-b", priming);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toContain("Last-Event-ID names no stream this gateway can resume");
    for (const bad of ["", "no-dot", `${priming.split(".")[0]}.x`, "unknown.1"])
      expect((await resume("session-a", bad)).status).toBe(400);
  });

  it("forgets a session's oldest streams past its bound, and anyone's past the total, never another session's first", async () => {
    store = new StreamReplay({ maxSessionBytes: 1_000, maxTotalBytes: 2_000 });
    const payload = JSON.stringify({ text: "x".repeat(400) });
    /** A finished stream of `session` with `writes` messages of ~460 bytes; its priming id. */
    const finished = (session: string, writes: number) => {
      const stream = store.open(session);
      const id = idsOf(stream.prime())[0] as string;
      for (let i = 0; i < writes; i++) stream.write(payload);
      stream.end("{}");
      return id;
    };
    const a1 = finished("a", 1);
    const b1 = finished("b", 1);
    const a2 = finished("a", 2);
    // Session a is past 1,000 bytes: its oldest stream goes, b's stays.
    expect((await resume("a", a1)).status).toBe(400);
    expect((await resume("b", b1)).status).toBe(200);
    const c1 = finished("c", 2);
    // Past the total: the oldest stream of any session (b's) goes.
    expect(store.bytes).toBeLessThanOrEqual(2_000);
    expect((await resume("b", b1)).status).toBe(400);
    expect((await resume("c", c1)).status).toBe(200);
    expect((await resume("a", a2)).status).toBe(200);
  });

  it("forgets a finished stream after the retention time, and its bytes with it", async () => {
    store = new StreamReplay({ retainMs: 50 });
    const stream = store.open("a");
    const id = idsOf(stream.prime())[0] as string;
    stream.end('{"answer":true}');
    expect((await resume("a", id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await resume("a", id)).status).toBe(400);
    expect(store.bytes).toBe(0);
  });

  it("forgets an ended session's streams, and their bytes, leaving the others", async () => {
    store = new StreamReplay();
    const ended = store.open("ended");
    const endedId = idsOf(ended.prime())[0] as string;
    ended.end('{"answer":1}');
    const kept = store.open("kept");
    const keptId = idsOf(kept.prime())[0] as string;
    kept.end('{"answer":2}');
    const keptBytes = kept.bytes;
    store.forgetSession("ended");
    expect((await resume("ended", endedId)).status).toBe(400);
    expect(store.bytes).toBe(keptBytes);
    expect((await resume("kept", keptId)).body).toContain('"answer":2');
  });

  it("gives each stream an id nobody can guess from another's", () => {
    store = new StreamReplay();
    const ids = new Set(Array.from({ length: 100 }, () => store.open("a").id));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});

describe("ATRIUM_GATEWAY_SSE_POLL_AFTER_MS", () => {
  const env = (value?: string) => ({
    ATRIUM_CONTROL_PLANE_TOKEN: "atr_t_poll",
    ATRIUM_GATEWAY_ID: "gw-poll",
    ...(value === undefined ? {} : { ATRIUM_GATEWAY_SSE_POLL_AFTER_MS: value }),
  });

  it("is off unless set, and refuses what is not a positive number of milliseconds", () => {
    expect(configFromEnv(env()).ssePollAfterMs).toBeUndefined();
    expect(configFromEnv(env("")).ssePollAfterMs).toBeUndefined();
    expect(configFromEnv(env("1500")).ssePollAfterMs).toBe(1500);
    for (const bad of ["0", "-1", "1.5", "soon"])
      expect(() => configFromEnv(env(bad))).toThrow(/ATRIUM_GATEWAY_SSE_POLL_AFTER_MS must be a positive integer/);
  });
});
