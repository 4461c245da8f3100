/**
 * Fault: backends that answer badly, through a gateway process with its shipped result limit
 * (ATRIUM_GATEWAY_MAX_RESULT_BYTES, 1 MiB; it reads at most 4 MiB of an answer):
 * - connections reset (TCP RST) before the headers, after them, and in the middle of the body;
 *   a body cut short of its Content-Length;
 * - invalid JSON answers: broken, truncated, in another charset than the one declared, or in one
 *   no decoder knows;
 * - 1 GiB answers, made lazily by a generator (never held in memory): with a Content-Length,
 *   chunked text, and chunked bytes.
 * Every call gets a tool result (JSON-RPC 200, never a 5xx): an error result saying what failed,
 * the body as text, or the first MiB with a truncation notice. The backend sees each 1 GiB answer
 * closed after a few MiB; the gateway's RSS stays bounded and its live heap comes back; a plain
 * call beside each wave of faulty ones is served, and the gateway is still running at the end.
 */
import { createServer, type ServerResponse } from "node:http";
import { listenLocally, modernRequest } from "@atrium/gateway/testing";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { type ExposedGateway, type GatewayProcess, startExposedGateway, watchMemory } from "../gateway-process.ts";

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
/** The gateway's shipped default. */
const MAX_RESULT_BYTES = MIB;

/** A JSON document of `total` bytes, 64 KiB at a time: `[` then records, padded with spaces, then `]`. */
function* jsonChunks(total: number): Generator<Buffer> {
  const record = Buffer.from('{"id":1234567,"name":"a pet with a rather long name","status":"available"},');
  const chunk = Buffer.concat(Array.from({ length: Math.floor((64 * 1024) / record.length) }, () => record));
  yield Buffer.from("[");
  let left = total - 2;
  while (left > chunk.length + 64) {
    yield chunk;
    left -= chunk.length;
  }
  yield Buffer.from(`${'{"id":0}'}${" ".repeat(left - 8)}]`);
}

/** `total` bytes of text or bytes, 64 KiB at a time. */
function* fillerChunks(total: number, byte: number): Generator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, byte);
  for (let left = total; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

/** Writes what `chunks` yields while the connection stays open, waiting when it is full; returns the bytes handed to it. */
async function pump(res: ServerResponse, chunks: Iterable<Buffer>): Promise<number> {
  let sent = 0;
  for (const chunk of chunks) {
    if (res.destroyed) break;
    sent += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done).off("close", done);
          resolve();
        };
        res.on("drain", done).on("close", done);
      });
    }
  }
  if (!res.destroyed) res.end();
  return sent;
}

/** How each tool's backend answers (operation id = route). */
const ROUTES: Record<string, (res: ServerResponse) => void | Promise<void>> = {
  resetBeforeHeaders: (res) => {
    res.socket?.resetAndDestroy();
  },
  resetAfterHeaders: (res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.flushHeaders();
    setTimeout(() => res.socket?.resetAndDestroy(), 20);
  },
  resetMidBody: (res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write(`{"pets":[${'{"id":1},'.repeat(50)}`, () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
  },
  shortBody: (res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"pets":[{"id":1}', () => setTimeout(() => res.socket?.end(), 20));
  },
  brokenJson: (res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"pets": [1, 2,, }');
  },
  truncatedJson: (res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"pets":[{"id":1,"name":"Re');
  },
  wrongCharset: (res) => {
    // UTF-8 bytes declared as UTF-16: decoded into other characters, not JSON any more.
    res.writeHead(200, { "content-type": "application/json; charset=utf-16le" }).end('{"name":"Zoë"}');
  },
  invalidUtf8: (res) => {
    // Latin-1 bytes declared as UTF-8.
    res
      .writeHead(200, { "content-type": "application/json; charset=utf-8" })
      .end(Buffer.from('{"name":"Zoë"}', "latin1"));
  },
  unknownCharset: (res) => {
    res.writeHead(200, { "content-type": "application/json; charset=x-no-such-charset" }).end('{"name":"Zoe"}');
  },
  hugeWithLength: async (res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(GIB) });
    hugeSent.push(await pump(res, jsonChunks(GIB)));
  },
  hugeChunkedText: async (res) => {
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }); // no length: chunked
    hugeSent.push(await pump(res, fillerChunks(GIB, 0x61)));
  },
  hugeChunkedBytes: async (res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    hugeSent.push(await pump(res, fillerChunks(GIB, 0xff)));
  },
  fast: (res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  },
};
/** Bytes each 1 GiB answer handed to its connection before the gateway closed it. */
const hugeSent: number[] = [];

const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Bad answers", version: "1" },
  paths: Object.fromEntries(
    Object.keys(ROUTES).map((name) => [
      `/${name}`,
      { get: { operationId: name, responses: { "200": { description: "?" } } } },
    ]),
  ),
});

async function startBadBackend() {
  const server = createServer((req, res) => {
    req.resume();
    const route = ROUTES[(req.url ?? "").slice(1).split("?")[0] ?? ""];
    if (route) return void route(res);
    res.writeHead(404).end();
  });
  return listenLocally(server);
}

let backend: Awaited<ReturnType<typeof startBadBackend>>;
let exposed: ExposedGateway;
let gateway: GatewayProcess;
let client: Pool;

beforeAll(async () => {
  backend = await startBadBackend();
  exposed = await startExposedGateway("bad-answers", {
    openapi: OPENAPI,
    // Off: this test measures what each faulty answer yields; the breaker would answer for the backend after 5 resets.
    plan: { backendEndpoint: backend.url, backendTimeoutMs: 10_000, circuitBreaker: { enabled: false } },
    env: { ATRIUM_GATEWAY_MAX_RESULT_BYTES: String(MAX_RESULT_BYTES) },
  });
  gateway = exposed.gateway;
  client = new Pool(gateway.url, { connections: 16 });
}, 90_000);

afterAll(async () => {
  await client?.close();
  await exposed?.close();
  await backend?.close();
});

interface ToolAnswer {
  status: number;
  isError: boolean;
  text: string;
  structured: unknown;
}

async function callTool(name: string): Promise<ToolAnswer> {
  const response = await client.request({
    path: exposed.mcpPath,
    ...modernRequest("tools/call", { name, arguments: {} }),
  });
  const body = (await response.body.json()) as {
    result?: { isError?: boolean; content?: { type: string; text?: string }[]; structuredContent?: unknown };
  };
  return {
    status: response.statusCode,
    isError: body.result?.isError === true,
    text: body.result?.content?.map((block) => block.text ?? `<${block.type}>`).join("\n") ?? JSON.stringify(body),
    structured: body.result?.structuredContent,
  };
}

/** `count` calls of `tool`, `concurrency` at a time, each wave beside a plain call; all plain calls must be served. */
async function calls(tool: string, count: number, concurrency: number): Promise<ToolAnswer[]> {
  const answers: ToolAnswer[] = [];
  for (let done = 0; done < count; done += concurrency) {
    const wave = Array.from({ length: Math.min(concurrency, count - done) }, () => callTool(tool));
    const [faulty, plain] = await Promise.all([Promise.all(wave), callTool("fast")]);
    expect(plain.structured, `a plain call beside ${tool}: ${plain.text}`).toEqual({ ok: true });
    answers.push(...faulty);
  }
  return answers;
}

const CUT_SHORT =
  /^The backend's answer \(HTTP 200\) was cut short: its connection closed before the end \(correlation id [0-9a-f]{16}\)$/;

/** What each kind of fault must yield, checked on every answer; what failed the check is counted as lost. */
const EXPECTED: Record<string, (answer: ToolAnswer) => boolean> = {
  resetBeforeHeaders: (a) => a.isError && /^The backend is unreachable \(correlation id [0-9a-f]{16}\)$/.test(a.text),
  resetAfterHeaders: (a) => a.isError && CUT_SHORT.test(a.text),
  resetMidBody: (a) => a.isError && CUT_SHORT.test(a.text),
  shortBody: (a) => a.isError && CUT_SHORT.test(a.text),
  // Not JSON: the body as text, no structuredContent.
  brokenJson: (a) => !a.isError && a.text === '{"pets": [1, 2,, }' && a.structured === undefined,
  truncatedJson: (a) => !a.isError && a.text === '{"pets":[{"id":1,"name":"Re' && a.structured === undefined,
  wrongCharset: (a) => !a.isError && a.structured === undefined && a.text.length > 0,
  invalidUtf8: (a) => !a.isError && a.structured !== undefined && a.text.includes("Zo\uFFFD"),
  unknownCharset: (a) => !a.isError && JSON.stringify(a.structured) === '{"name":"Zoe"}',
  hugeWithLength: (a) =>
    !a.isError &&
    a.structured === undefined &&
    /\n…\[truncated: more than \d+ bytes, showing the first \d+\]$/.test(a.text) &&
    a.text.length <= MAX_RESULT_BYTES + 100,
  hugeChunkedText: (a) =>
    !a.isError && /^a+\n…\[truncated: more than \d+ bytes, showing the first 1048576\]$/.test(a.text),
  hugeChunkedBytes: (a) => !a.isError && /^more than \d+ bytes of application\/octet-stream$/.test(a.text),
};

describe("backends that answer badly", () => {
  it("turns resets, invalid JSON and 1 GiB answers into clear tool results, reading a few MiB at most", async () => {
    const memory = await watchMemory(gateway);
    const wrong: { tool: string; answer: ToolAnswer }[] = [];
    let tried = 0;
    for (const tool of Object.keys(EXPECTED)) {
      const huge = tool.startsWith("huge");
      const answers = await calls(tool, huge ? 5 : 20, huge ? 5 : 10);
      tried += answers.length;
      for (const answer of answers) {
        if (answer.status !== 200 || !EXPECTED[tool]?.(answer)) wrong.push({ tool, answer });
      }
    }
    const { rssPeak, rssAfter, heapAfter } = await memory.stop();
    const { rssBefore, heapBefore } = memory;
    // One example per tool that answered otherwise, with how many did.
    const examples = new Map<string, ToolAnswer & { times: number }>();
    for (const { tool, answer } of wrong) {
      const seen = examples.get(tool);
      if (seen) seen.times++;
      else examples.set(tool, { ...answer, text: answer.text.slice(0, 300), times: 1 });
    }
    expect(Object.fromEntries(examples)).toEqual({});
    expect(gateway.alive()).toBe(true);

    // Each 1 GiB answer was closed after a few MiB: the 4 MiB read cap, plus what the sockets buffer.
    expect(hugeSent).toHaveLength(15);
    const mostSent = Math.max(...hugeSent);
    expect(mostSent).toBeLessThan(64 * MIB);
    expect(rssPeak - rssBefore).toBeLessThan(200 * MIB);
    expect(heapAfter - heapBefore).toBeLessThan(16 * MIB); // nothing of the answers is kept

    const figures = {
      tried,
      unit: "tool calls",
      lost: wrong.length,
      details: {
        "1 GiB answers: most bytes sent (MiB)": Math.round((mostSent / MIB) * 10) / 10,
        "mean (MiB)": Math.round((hugeSent.reduce((a, b) => a + b, 0) / hugeSent.length / MIB) * 10) / 10,
        "gateway RSS before (MiB)": Math.round(rssBefore / MIB),
        "RSS peak (MiB)": Math.round(rssPeak / MIB),
        "RSS after (MiB)": Math.round(rssAfter / MIB),
        "live heap before (MiB)": Math.round((heapBefore / MIB) * 10) / 10,
        "live heap after (MiB)": Math.round((heapAfter / MIB) * 10) / 10,
      },
    };
    console.log("backend answers:", figures);
    recordFigures("fault-backend-answers", figures);
  }, 120_000);
});
