import { ContentBlockSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { contentArrayOf, MAX_CONTENT_BLOCKS } from "./content.ts";

const pixel = "iVBORw0KGgo=";

describe("contentArrayOf", () => {
  it("passes every MCP content block kind, keeping known fields only", () => {
    const blocks = [
      { type: "text", text: "hi", annotations: { audience: ["user"], priority: 0.5 } },
      { type: "image", data: pixel, mimeType: "image/png" },
      { type: "audio", data: pixel, mimeType: "audio/wav", _meta: { "x.dev/k": 1 } },
      { type: "resource", resource: { uri: "test://doc", mimeType: "text/plain", text: "body" } },
      { type: "resource", resource: { uri: "file:///a.bin", blob: pixel } },
      { type: "resource_link", uri: "https://example.com/a", name: "a", size: 3 },
    ];
    const result = contentArrayOf([...blocks.slice(0, 1).map((b) => ({ ...b, extra: true })), ...blocks.slice(1)]);
    expect(result).toEqual({ content: blocks });
    // The official SDK's schema agrees with each block passed on.
    if ("content" in result)
      for (const block of result.content) expect(() => ContentBlockSchema.parse(block)).not.toThrow();
  });

  it("names the first item that is not a content block, and why", () => {
    expect(contentArrayOf({ type: "text", text: "x" })).toEqual({
      problem: "the answer is not a JSON array of content blocks",
    });
    expect(contentArrayOf([])).toEqual({ problem: "the array holds no content block" });
    const problem = (value: unknown[]) => ("problem" in contentArrayOf(value) ? contentArrayOf(value) : undefined);
    expect(
      problem([
        { type: "text", text: "ok" },
        { type: "video", data: pixel },
      ]),
    ).toEqual({
      problem: expect.stringMatching(/^item 2 is not a valid MCP content block \(type\): /),
    });
    expect(problem([{ type: "image", data: "not base64!", mimeType: "image/png" }])).toEqual({
      problem: "item 1 is not a valid MCP content block (data): must be base64 (padded)",
    });
    expect(problem([{ type: "resource", resource: { uri: "relative/path", text: "x" } }])).toEqual({
      problem: expect.stringMatching(/^item 1 is not a valid MCP content block \(resource/),
    });
    expect(problem([{ type: "resource", resource: { uri: "test://x", mimeType: "text/plain" } }])).toEqual({
      problem: expect.stringMatching(/^item 1 is not a valid MCP content block/),
    });
    expect(problem(["text"])).toEqual({ problem: expect.stringMatching(/^item 1 is not a valid MCP content block/) });
  });

  it("refuses more than MAX_CONTENT_BLOCKS items", () => {
    const many = Array.from({ length: MAX_CONTENT_BLOCKS + 1 }, () => ({ type: "text", text: "x" }));
    expect(contentArrayOf(many)).toEqual({
      problem: `the array holds ${MAX_CONTENT_BLOCKS + 1} content blocks, more than ${MAX_CONTENT_BLOCKS}`,
    });
    expect(contentArrayOf(many.slice(1))).toEqual({ content: many.slice(1) });
  });
});
