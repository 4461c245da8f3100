import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { exposition } from "./fixtures.ts";
import type { CallToolResult } from "./mcp.ts";
import {
  BACKEND_STATUS_META_KEY,
  type BackendResponse,
  FORWARDED_HEADERS_META_KEY,
  timeoutResult,
  toolResult,
  validationErrorResult,
} from "./result.ts";

const options = { maxBytes: 64 };
const response = (status: number, contentType: string | undefined, body: string | Buffer): BackendResponse => ({
  status,
  headers: contentType ? { "content-type": contentType } : {},
  body: typeof body === "string" ? Buffer.from(body) : body,
});
/** Asserted valid by the official SDK's schema, then returned. */
const valid = (result: CallToolResult): CallToolResult => {
  expect(() => CallToolResultSchema.parse(result)).not.toThrow();
  return result;
};

describe("toolResult: success", () => {
  it("maps a JSON object to structuredContent plus the JSON as text", () => {
    const body = '{"id":1,"name":"Rex"}';
    expect(valid(toolResult(response(200, "application/json; charset=utf-8", body), options))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "text", text: body }],
      structuredContent: { id: 1, name: "Rex" },
    });
  });

  it("wraps a JSON array or scalar as { result }", () => {
    expect(toolResult(response(200, "application/json", "[1,2]"), options).structuredContent).toEqual({
      result: [1, 2],
    });
    expect(toolResult(response(200, "application/problem+json", "null"), options).structuredContent).toEqual({
      result: null,
    });
    expect(toolResult(response(200, "application/json", '"ok"'), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "text", text: '"ok"' }],
      structuredContent: { result: "ok" },
    });
  });

  it("gives text for JSON that does not parse, and for text types", () => {
    expect(toolResult(response(200, "application/json", "{oops"), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "text", text: "{oops" }],
    });
    expect(toolResult(response(200, "text/csv", "a,b\n1,2"), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "text", text: "a,b\n1,2" }],
    });
    expect(toolResult(response(200, "application/xml", "<a/>"), options).content).toEqual([
      { type: "text", text: "<a/>" },
    ]);
    expect(
      toolResult(response(200, "text/plain; charset=iso-8859-1", Buffer.from([0x63, 0x61, 0x66, 0xe9])), options)
        .content,
    ).toEqual([{ type: "text", text: "café" }]);
    expect(toolResult(response(200, undefined, "unlabelled words"), options).content).toEqual([
      { type: "text", text: "unlabelled words" },
    ]);
  });

  it("says HTTP 204 No Content for an empty body", () => {
    expect(toolResult(response(204, undefined, ""), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 204 },
      content: [{ type: "text", text: "HTTP 204 No Content" }],
    });
  });

  it("maps image/* and audio/* to base64 content, SVG to text", () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(valid(toolResult(response(200, "image/png", png), options))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "image", data: png.toString("base64"), mimeType: "image/png" }],
    });
    expect(valid(toolResult(response(200, "audio/wav", Buffer.from("RIFF")), options))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "audio", data: Buffer.from("RIFF").toString("base64"), mimeType: "audio/wav" }],
    });
    expect(toolResult(response(200, "image/svg+xml", "<svg/>"), options).content).toEqual([
      { type: "text", text: "<svg/>" },
    ]);
    expect(toolResult(response(200, "image/png", Buffer.alloc(100)), options).content).toEqual([
      { type: "text", text: "100 bytes of image/png, over the size limit: not included" },
    ]);
  });

  it("describes other binary bodies instead of sending them", () => {
    expect(
      toolResult(response(200, "application/pdf", Buffer.from([0x25, 0x50, 0xff, 0xfe])), options).content,
    ).toEqual([{ type: "text", text: "4 bytes of application/pdf" }]);
    expect(toolResult(response(200, undefined, Buffer.from([0xff, 0x00])), options).content).toEqual([
      { type: "text", text: "2 bytes of application/octet-stream" },
    ]);
  });
});

describe("toolResult: size limit", () => {
  it("cuts text with a marker, at a character boundary", () => {
    const text = `${"a".repeat(63)}é and more`;
    expect(toolResult(response(200, "text/plain", text), options).content).toEqual([
      { type: "text", text: `${"a".repeat(63)}\n…[truncated: ${Buffer.byteLength(text)} bytes, showing the first 63]` },
    ]);
  });

  it("never emits structuredContent for a cut JSON body", () => {
    const body = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => i) });
    const result = toolResult(response(200, "application/json", body), { maxBytes: 20 });
    expect(result).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [
        { type: "text", text: `${body.slice(0, 20)}\n…[truncated: ${body.length} bytes, showing the first 20]` },
      ],
    });
  });

  it("treats a body the reader already cut as cut", () => {
    const cut = { ...response(200, "application/json", '{"a":1,"b":'), truncated: true };
    expect(toolResult(cut, options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "text", text: '{"a":1,"b":\n…[truncated: more than 11 bytes, showing the first 11]' }],
    });
    const cutChar = { ...response(200, "text/plain", Buffer.from("abé").subarray(0, 3)), truncated: true };
    expect(toolResult(cutChar, options).content).toEqual([
      { type: "text", text: "ab\n…[truncated: more than 3 bytes, showing the first 2]" },
    ]);
  });
});

describe("toolResult: errors", () => {
  it("sets isError with the status line first for 4xx and 5xx, without structuredContent", () => {
    expect(valid(toolResult(response(404, "application/json", '{"code":404,"message":"no pet"}'), options))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 404 },
      content: [{ type: "text", text: 'HTTP 404 Not Found\n{"code":404,"message":"no pet"}' }],
      isError: true,
    });
    expect(toolResult(response(503, undefined, ""), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 503 },
      content: [{ type: "text", text: "HTTP 503 Service Unavailable" }],
      isError: true,
    });
    expect(toolResult(response(599, "text/plain", "odd"), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 599 },
      content: [{ type: "text", text: "HTTP 599\nodd" }],
      isError: true,
    });
    expect(toolResult(response(500, "image/png", Buffer.from([1, 2])), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 500 },
      content: [
        { type: "text", text: "HTTP 500 Internal Server Error" },
        { type: "image", data: "AQI=", mimeType: "image/png" },
      ],
      isError: true,
    });
  });

  it("treats an unfollowed redirect as an error", () => {
    expect(toolResult(response(302, "text/html", "moved"), options)).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 302 },
      content: [{ type: "text", text: "HTTP 302 Found\nmoved" }],
      isError: true,
    });
  });

  it("makes gateway-generated results for timeouts and invalid arguments", () => {
    expect(valid(timeoutResult(30000))).toEqual({
      content: [{ type: "text", text: "HTTP 504 Gateway Timeout\nThe backend did not answer within 30000 ms." }],
      isError: true,
    });
    expect(valid(validationErrorResult(["petId: must be integer", "name: is required"]))).toEqual({
      content: [{ type: "text", text: "Invalid arguments:\n- petId: must be integer\n- name: is required" }],
      isError: true,
    });
  });
});

describe("toolResult: the backend's status", () => {
  it("is in _meta for a success and for a failure, and absent from results the gateway makes itself", () => {
    expect(valid(toolResult(response(201, "application/json", "{}"), options))._meta).toEqual({
      [BACKEND_STATUS_META_KEY]: 201,
    });
    expect(toolResult(response(418, undefined, ""), options)._meta).toEqual({ [BACKEND_STATUS_META_KEY]: 418 });
    expect(timeoutResult(1000)._meta).toBeUndefined();
  });
});

describe("toolResult: forwarded headers", () => {
  it("copies the named headers (any case) into _meta", () => {
    const result = toolResult(
      {
        status: 200,
        headers: {
          "content-type": "text/plain",
          "x-ratelimit-remaining": "9",
          "set-cookie": ["a=1", "b=2"],
          etag: '"v1"',
        },
        body: Buffer.from("ok"),
      },
      { maxBytes: 64, forwardHeaders: ["X-RateLimit-Remaining", "Set-Cookie", "X-Absent"] },
    );
    expect(valid(result)._meta).toEqual({
      [BACKEND_STATUS_META_KEY]: 200,
      [FORWARDED_HEADERS_META_KEY]: { "x-ratelimit-remaining": "9", "set-cookie": "a=1, b=2" },
    });
    expect(toolResult(response(200, "text/plain", "ok"), { maxBytes: 64, forwardHeaders: ["x-absent"] })._meta).toEqual(
      { [BACKEND_STATUS_META_KEY]: 200 },
    );
  });
});

describe("ToolRuntime.toResult: the outputSchema promise", () => {
  const show = compileToolset(exposition()).get("showPetById");
  const map = (r: BackendResponse) => show?.toResult(r, { maxBytes: 1024 });

  it("passes a conforming response through", () => {
    expect(map(response(200, "application/json", '{"id":1,"name":"Rex","status":"sold"}'))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [{ type: "text", text: '{"id":1,"name":"Rex","status":"sold"}' }],
      structuredContent: { id: 1, name: "Rex", status: "sold" },
    });
  });

  it("turns a non-conforming or non-JSON success into an error that still shows the body", () => {
    expect(map(response(200, "application/json", '{"id":"1","status":"lost"}'))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 200 },
      content: [
        {
          type: "text",
          text:
            "The backend's response does not match the tool's output schema:\n" +
            "- name: is required\n- id: must be integer\n" +
            '- status: must be one of "available", "pending", "sold"',
        },
        { type: "text", text: '{"id":"1","status":"lost"}' },
      ],
      isError: true,
    });
    expect(map(response(200, "text/html", "<html/>"))).toMatchObject({
      content: [
        { type: "text", text: expect.stringContaining("not a JSON object within the size limit") },
        { type: "text", text: "<html/>" },
      ],
      isError: true,
    });
  });

  it("leaves backend errors as they are", () => {
    expect(map(response(404, "application/json", "{}"))).toEqual({
      _meta: { [BACKEND_STATUS_META_KEY]: 404 },
      content: [{ type: "text", text: "HTTP 404 Not Found\n{}" }],
      isError: true,
    });
  });
});
