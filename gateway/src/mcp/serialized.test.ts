import { execFileSync } from "node:child_process";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MIN_GZIP_BYTES, SerializedResult } from "./serialized.ts";

const big = {
  tools: Array.from({ length: 200 }, (_, i) => ({ name: `tool_${i}`, description: "é ✓ ".repeat(i % 7) })),
};
const small = { tools: [] };
const longId = "x".repeat(70_000); // over one stored block (65,535 bytes)
const ids = [0, 42, -7, "plain", 'quo"te\\back', "ünïcødé ✓", longId];
const named = ids.map((id) => [id === longId ? "a 70,000-character string" : JSON.stringify(id), id] as const);

function bytes(answer: { chunks: Buffer[]; length: number }): Buffer {
  const body = Buffer.concat(answer.chunks);
  expect(body.length).toBe(answer.length);
  return body;
}

describe("SerializedResult", () => {
  const result = new SerializedResult(JSON.stringify(big));

  it.each(named)("answers id %s as the JSON-RPC answer, uncompressed", (_, id) => {
    const answer = result.answer(id, false);
    expect(answer.gzip).toBe(false);
    expect(JSON.parse(bytes(answer).toString("utf8"))).toEqual({ jsonrpc: "2.0", result: big, id });
  });

  it.each(named)("answers id %s as a gzip stream zlib decodes, CRC and size checked", (_, id) => {
    const answer = result.answer(id, true);
    expect(answer.gzip).toBe(true);
    const body = bytes(answer);
    // The cached part is compressed; the id travels stored, as it is.
    const idBytes = Buffer.byteLength(JSON.stringify(id));
    expect(body.length).toBeLessThan(Buffer.byteLength(JSON.stringify(big)) / 2 + idBytes);
    expect(JSON.parse(gunzipSync(body).toString("utf8"))).toEqual({ jsonrpc: "2.0", result: big, id });
  });

  it("writes gzip streams that the gzip program accepts too", () => {
    for (const id of [1, "ünï", longId]) {
      const decoded = execFileSync("gzip", ["-dc"], { input: bytes(result.answer(id, true)) });
      expect(JSON.parse(decoded.toString("utf8")).id).toEqual(id);
    }
  });

  it("does not compress small answers", () => {
    expect(JSON.stringify(small).length).toBeLessThan(MIN_GZIP_BYTES);
    const answer = new SerializedResult(JSON.stringify(small)).answer(5, true);
    expect(answer.gzip).toBe(false);
    expect(JSON.parse(bytes(answer).toString("utf8"))).toEqual({ jsonrpc: "2.0", result: small, id: 5 });
  });

  it("keeps answers to concurrent ids apart (the cached head is shared, never written to)", () => {
    const first = bytes(result.answer(1, true));
    bytes(result.answer("other", true));
    expect(JSON.parse(gunzipSync(first).toString("utf8")).id).toBe(1);
  });
});
