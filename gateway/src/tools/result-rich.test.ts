/**
 * Rich tool results: multipart/mixed answers and JSON declared an MCP content array
 * (`x-mcp-content`), mapped by result.ts. Every result is checked by the official SDK's schema.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { MAX_CONTENT_BLOCKS } from "./content.ts";
import { exposition, operation } from "./fixtures.ts";
import type { CallToolResult } from "./mcp.ts";
import { BACKEND_STATUS_META_KEY, type BackendResponse, toolResult } from "./result.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
const options = { maxBytes: 4096 };
const valid = (result: CallToolResult): CallToolResult => {
  expect(() => CallToolResultSchema.parse(result)).not.toThrow();
  return result;
};

/** A multipart/mixed answer of these parts (headers, body), boundary `sep`. */
function mixed(status: number, parts: [Record<string, string>, string | Buffer][]): BackendResponse {
  const chunks: Buffer[] = [Buffer.from("ignored preamble\r\n")];
  for (const [headers, body] of parts) {
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    chunks.push(Buffer.from(`--sep\r\n${head.join("")}\r\n`), Buffer.from(body), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from("--sep--\r\n"));
  return { status, headers: { "content-type": 'multipart/mixed; boundary="sep"' }, body: Buffer.concat(chunks) };
}

describe("toolResult: multipart/mixed", () => {
  it("maps each part by its type: text, image, audio, JSON as text, others as embedded resources", () => {
    const result = toolResult(
      mixed(200, [
        [{ "Content-Type": "text/plain; charset=utf-8" }, "Here are the results:"],
        [{ "Content-Type": "image/png" }, PNG],
        [{ "Content-Type": "audio/wav" }, PNG],
        [{ "Content-Type": "application/json" }, '{"count":2}'],
        [{ "Content-Type": "application/pdf", "Content-ID": "<report 1@backend>" }, PNG],
        [{ "Content-Type": "application/zip" }, PNG],
        [{}, "a part without a type is text"],
      ]),
      options,
    );
    expect(valid(result)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [
        { type: "text", text: "Here are the results:" },
        { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
        { type: "audio", data: PNG.toString("base64"), mimeType: "audio/wav" },
        { type: "text", text: '{"count":2}' },
        {
          type: "resource",
          resource: { uri: "cid:report%201@backend", mimeType: "application/pdf", blob: PNG.toString("base64") },
        },
        {
          type: "resource",
          resource: { uri: "cid:part-6", mimeType: "application/zip", blob: PNG.toString("base64") },
        },
        { type: "text", text: "a part without a type is text" },
      ],
      structuredContent: { count: 2 },
    });
  });

  it("makes a part with an absolute Content-Location an embedded resource at that URI", () => {
    const result = toolResult(
      mixed(200, [
        [{ "Content-Type": "application/json", "Content-Location": "test://orders/7" }, '{"id":7}'],
        [{ "Content-Type": "image/png", "Content-Location": "https://cdn.example/7.png" }, PNG],
        [{ "Content-Type": "text/plain", "Content-Location": "relative/7.txt" }, "a relative location is ignored"],
      ]),
      options,
    );
    expect(valid(result).content).toEqual([
      { type: "resource", resource: { uri: "test://orders/7", mimeType: "application/json", text: '{"id":7}' } },
      {
        type: "resource",
        resource: { uri: "https://cdn.example/7.png", mimeType: "image/png", blob: PNG.toString("base64") },
      },
      { type: "text", text: "a relative location is ignored" },
    ]);
    // The first JSON part is the structured content, wherever it goes.
    expect(result.structuredContent).toEqual({ id: 7 });
  });

  it("wraps a JSON part that is not an object, and gives none for JSON that does not parse", () => {
    const list = toolResult(mixed(200, [[{ "Content-Type": "application/json" }, "[1,2]"]]), options);
    expect(list.structuredContent).toEqual({ result: [1, 2] });
    const broken = toolResult(mixed(200, [[{ "Content-Type": "application/json" }, "{oops"]]), options);
    expect(broken.structuredContent).toBeUndefined();
    expect(broken.content).toEqual([{ type: "text", text: "{oops" }]);
  });

  it(`keeps at most ${MAX_CONTENT_BLOCKS} parts and says how many there were`, () => {
    const parts = Array.from({ length: MAX_CONTENT_BLOCKS + 5 }, (_, i): [Record<string, string>, string] => [
      {},
      `part ${i}`,
    ]);
    const result = valid(toolResult(mixed(200, parts), { maxBytes: 64 * 1024 }));
    expect(result.content).toHaveLength(MAX_CONTENT_BLOCKS + 1);
    expect(result.content.at(-1)).toEqual({
      type: "text",
      text: `…[${MAX_CONTENT_BLOCKS + 5} parts: the first ${MAX_CONTENT_BLOCKS} are shown]`,
    });
  });

  it("replaces an answer over the size limit by a notice", () => {
    const answer = mixed(200, [[{ "Content-Type": "image/png" }, Buffer.alloc(100)]]);
    expect(valid(toolResult(answer, { maxBytes: 64 })).content).toEqual([
      { type: "text", text: `${answer.body.length} bytes of multipart/mixed, over the size limit: not included` },
    ]);
    expect(toolResult({ ...answer, truncated: true }, { maxBytes: 4096 }).content).toEqual([
      {
        type: "text",
        text: `More than ${answer.body.length} bytes of multipart/mixed, over the size limit: not included`,
      },
    ]);
  });

  it("says the status line for an answer without parts, once for a failure too", () => {
    expect(toolResult(mixed(200, []), options).content).toEqual([{ type: "text", text: "HTTP 200 OK" }]);
    expect(toolResult(mixed(503, []), options)).toMatchObject({
      content: [{ type: "text", text: "HTTP 503 Service Unavailable" }],
      isError: true,
    });
  });

  it("makes a malformed answer a tool error that says what is wrong", () => {
    const noBoundary = { status: 200, headers: { "content-type": "multipart/mixed" }, body: Buffer.from("x") };
    expect(valid(toolResult(noBoundary, options))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [
        {
          type: "text",
          text: "HTTP 200 OK\nThe backend's multipart/mixed answer is malformed: its Content-Type has no boundary parameter.",
        },
      ],
      isError: true,
    });
    const unclosed = {
      ...noBoundary,
      headers: { "content-type": "multipart/mixed; boundary=sep" },
      body: Buffer.from("--sep\r\n\r\nx"),
    };
    expect(toolResult(unclosed, options).content).toEqual([
      {
        type: "text",
        text: "HTTP 200 OK\nThe backend's multipart/mixed answer is malformed: part 1 has no closing delimiter --sep--.",
      },
    ]);
  });

  it("shows the parts of a failure after its status line, without structuredContent", () => {
    const result = toolResult(
      mixed(422, [
        [{ "Content-Type": "text/plain" }, "invalid order"],
        [{ "Content-Type": "application/json" }, '{"field":"qty"}'],
      ]),
      options,
    );
    expect(valid(result)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 422 },
      content: [
        { type: "text", text: "HTTP 422 Unprocessable Entity" },
        { type: "text", text: "invalid order" },
        { type: "text", text: '{"field":"qty"}' },
      ],
      isError: true,
    });
  });
});

describe("toolResult: JSON declared an MCP content array (x-mcp-content)", () => {
  const declared = { ...options, declaredContent: true };
  const json = (status: number, value: unknown): BackendResponse => ({
    status,
    headers: { "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(value)),
  });

  it("passes the blocks on as content, without structuredContent", () => {
    const blocks = [
      { type: "text", text: "The report:" },
      { type: "resource", resource: { uri: "test://report", mimeType: "text/csv", text: "a,b\n1,2" } },
      { type: "resource_link", uri: "https://example.com/full.csv", name: "full report" },
    ];
    expect(valid(toolResult(json(200, blocks), declared))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: blocks,
    });
  });

  it("makes an answer that is not a content array a tool error naming the problem", () => {
    expect(valid(toolResult(json(200, [{ type: "image", data: "%%", mimeType: "image/png" }]), declared))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [
        {
          type: "text",
          text: "HTTP 200 OK\nThe backend's answer is declared an MCP content array (x-mcp-content), but item 1 is not a valid MCP content block (data): must be base64 (padded).",
        },
      ],
      isError: true,
    });
    const notJson = { ...json(200, 1), body: Buffer.from("{oops") };
    expect(toolResult(notJson, declared)).toMatchObject({
      content: [
        { type: "text", text: expect.stringContaining("but the answer is not a JSON array of content blocks") },
      ],
      isError: true,
    });
  });

  it("leaves failures, non-JSON answers and JSON over the size limit as without the declaration", () => {
    expect(toolResult(json(404, { error: "no" }), declared)).toEqual(toolResult(json(404, { error: "no" }), options));
    const text: BackendResponse = { status: 200, headers: { "content-type": "text/plain" }, body: Buffer.from("hi") };
    expect(toolResult(text, declared)).toEqual(toolResult(text, options));
    const long = json(200, [{ type: "text", text: "x".repeat(100) }]);
    expect(toolResult(long, { maxBytes: 64, declaredContent: true })).toEqual(toolResult(long, { maxBytes: 64 }));
    expect(toolResult(long, { maxBytes: 64 }).content[0]).toMatchObject({
      text: expect.stringContaining("…[truncated"),
    });
  });
});

describe("compileToolset: x-mcp-content on an operation", () => {
  const report = (extensions: Record<string, unknown>) =>
    operation({
      operationId: "report",
      method: "GET",
      path: "/report",
      extensions,
      responses: [{ status: "200", contentType: "application/json", schema: { type: "object" } }],
    });

  it("maps the operation's answers as content blocks and publishes no outputSchema", () => {
    const toolset = compileToolset(exposition({ operations: [report({ "x-mcp-content": true })] }));
    const runtime = toolset.get("report");
    expect(runtime?.tool.outputSchema).toBeUndefined();
    const body = Buffer.from(JSON.stringify([{ type: "text", text: "hi" }]));
    const answer = { status: 200, headers: { "content-type": "application/json" }, body };
    expect(runtime?.toResult(answer, options).content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("ignores a value other than a boolean, with a warning", () => {
    const toolset = compileToolset(exposition({ operations: [report({ "x-mcp-content": "yes" })] }));
    expect(toolset.get("report")?.tool.outputSchema).toEqual({ type: "object" });
    expect(toolset.warnings).toContain('tool report: x-mcp-content must be true or false, not "yes": ignored');
  });
});
