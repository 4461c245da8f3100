/**
 * Generated hostile messages against a real gateway's MCP endpoint, in both eras (fast-check):
 * JSON-RPC-shaped messages with arbitrary methods, ids, params and headers, and raw bodies that
 * are not JSON at all. Whatever arrives, the answer is a 2xx or a 4xx, never a 5xx or a dropped
 * connection, and the gateway still serves a normal call afterwards. 10,000 cases per era by
 * default; ATRIUM_FUZZ_RUNS sets more. RSS before and after is printed, not asserted.
 */
import { recordFigures } from "@atrium/reliability";
import { fuzzParameters } from "@atrium/reliability/fuzz";
import fc from "fast-check";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { modernHeaders, modernMeta, type Stack, useStackWithGateway } from "../testing.ts";

const { numRuns: runs, seed } = fuzzParameters(10_000);

const methods = fc.oneof(
  fc.constantFrom(
    "initialize",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "ping",
    "notifications/initialized",
    "server/discover",
    "logging/setLevel",
    "completion/complete",
  ),
  fc.string(),
);
const toolNames = fc.oneof(fc.constantFrom("listPets", "getPet", "createPet", "search_tools"), fc.string());
const params = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 4 }),
  fc.record({ name: toolNames, arguments: fc.jsonValue({ maxDepth: 4 }) }, { requiredKeys: [] }),
);
const message = fc.record(
  {
    jsonrpc: fc.oneof(
      { weight: 8, arbitrary: fc.constant("2.0") },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    id: fc.oneof({ weight: 6, arbitrary: fc.integer() }, fc.string(), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
    method: methods,
    params,
  },
  { requiredKeys: [] },
);
/** A body: one message, a batch of them, or bytes that are not JSON; `head` what its Mcp-* headers would say. */
const body = fc.oneof(
  {
    weight: 6,
    arbitrary: message.map((m) => ({ payload: JSON.stringify(m), head: headOf(m), withMeta: withModernMeta(m) })),
  },
  { weight: 2, arbitrary: fc.array(message, { maxLength: 4 }).map((batch) => ({ payload: JSON.stringify(batch) })) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((payload) => ({ payload })) },
);
/** The message as a 2026-07-28 client would send it: the era's `_meta` in its params, when they are an object. */
function withModernMeta(m: { params?: unknown }): string {
  const params = m.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) return JSON.stringify(m);
  return JSON.stringify({ ...m, params: { ...params, _meta: modernMeta() } });
}
function headOf(m: { method?: unknown; params?: unknown }): { method?: string; name?: string } {
  const params = m.params as { name?: unknown } | undefined;
  return {
    ...(typeof m.method === "string" ? { method: m.method } : {}),
    ...(typeof params?.name === "string" ? { name: params.name } : {}),
  };
}
/** Counts answers by status, to show how deep the generated cases went. */
function statusTally() {
  const counts = new Map<number, number>();
  return {
    add: (status: number) => counts.set(status, (counts.get(status) ?? 0) + 1),
    toString: () => [...counts].map(([status, n]) => `${status}×${n}`).join(" "),
  };
}
/** Header values a client may send, printable or not (undici refuses CR/LF itself: those are skipped). */
const headerValue = fc.oneof(fc.constantFrom("2026-07-28", "2025-06-18", "2025-03-26", "tools/call"), fc.string());

async function post(gateway: Gateway, path: string, headers: Record<string, string>, payload: string) {
  const answer = await request(`${gateway.url}${path}`, { method: "POST", headers, body: payload });
  await answer.body.dump();
  return answer.statusCode;
}

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1e6);
}

describe("the MCP endpoint under generated messages", () => {
  let stack: Stack;
  let gateway: Gateway;
  useStackWithGateway((running) => {
    stack = running.stack;
    gateway = running.gateway;
  });
  /** Each era's answers by status, once its property held; the row is recorded when both did. */
  const eras = new Map<string, ReturnType<typeof statusTally>>();
  const rssBefore = rssMb();
  afterAll(() => {
    if (eras.size < 2) return;
    const details: Record<string, number | string> = { "RSS before (MB)": rssBefore, "RSS after (MB)": rssMb() };
    for (const [era, tally] of eras) details[`${era} answers`] = String(tally);
    recordFigures("fuzz-mcp-endpoint", { tried: 2 * runs, unit: "generated messages", lost: 0, details });
  });

  async function answersNormally(): Promise<void> {
    const status = await post(
      gateway,
      stack.mcpPath,
      { ...modernHeaders("tools/list"), "x-atrium-key": stack.apiKey },
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } }),
    );
    expect(status).toBe(200);
  }

  it("2026-07-28 era: never a 5xx, whatever the message and its Mcp-* headers", async () => {
    const before = rssMb();
    const tally = statusTally();
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), headerValue, headerValue, async (generated, agree, method, name) => {
        // Half the cases send the era's _meta and the headers their body implies, to get past the first checks.
        const head = "head" in generated ? generated.head : undefined;
        const payload = agree && "withMeta" in generated ? generated.withMeta : generated.payload;
        const headers: Record<string, string> = {
          ...modernHeaders(agree && head?.method !== undefined ? head.method : method),
          "x-atrium-key": stack.apiKey,
        };
        const toolName = agree ? head?.name : name;
        if (toolName !== undefined) headers["mcp-name"] = toolName;
        if (/[\r\n\0]/.test(Object.values(headers).join(""))) return; // no HTTP client can send these
        const status = await post(gateway, stack.mcpPath, headers, payload);
        tally.add(status);
        expect(status, `status ${status} for ${JSON.stringify(payload).slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: runs, seed },
    );
    await answersNormally();
    eras.set("2026-07-28", tally);
    console.log(
      `modern era: ${runs} cases, RSS ${before} MB → ${rssMb()} MB (test process and gateway); answers ${tally}`,
    );
  }, 600_000);

  it("2025 era: never a 5xx, with or without a session", async () => {
    const before = rssMb();
    const tally = statusTally();
    await fc.assert(
      fc.asyncProperty(body, headerValue, fc.option(fc.uuid()), async ({ payload }, version, session) => {
        if (/[\r\n\0]/.test(version)) return;
        const headers: Record<string, string> = {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": version,
          "x-atrium-key": stack.apiKey,
          ...(session ? { "mcp-session-id": session } : {}),
        };
        const status = await post(gateway, stack.mcpPath, headers, payload);
        tally.add(status);
        expect(status, `status ${status} for ${JSON.stringify(payload).slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: runs, seed },
    );
    await answersNormally();
    eras.set("2025", tally);
    console.log(
      `2025 era: ${runs} cases, RSS ${before} MB → ${rssMb()} MB (test process and gateway); answers ${tally}`,
    );
  }, 600_000);
});
