/** Tool-call outcomes folded from what the dispatcher observed, and the bytes of a result's content. */
import { describe, expect, it } from "vitest";
import { resultBytes, toolCallOutcome } from "./tool-call-outcome.ts";

const ok = { content: [{ type: "text", text: "{}" }] };
const failed = { content: [{ type: "text", text: "HTTP 404" }], isError: true };

describe("toolCallOutcome", () => {
  it("tells a backend's answer from its error result", () => {
    expect(toolCallOutcome(200, ok)).toBe("ok");
    expect(toolCallOutcome(404, failed)).toBe("tool_error");
    expect(toolCallOutcome(200, failed)).toBe("tool_error"); // an answer that could not be made a result
    expect(toolCallOutcome("local", ok)).toBe("ok"); // the gateway's own tool
    expect(toolCallOutcome("local", failed)).toBe("tool_error");
  });

  it("keeps the gateway's own words, whatever the result says", () => {
    for (const word of ["invalid", "timeout", "unavailable", "limited", "error"] as const)
      expect(toolCallOutcome(word, failed)).toBe(word);
    expect(toolCallOutcome("elicit", { resultType: "input_required" })).toBe("elicit");
  });

  it("counts a call that threw as error, unless it was asking for a URL elicitation", () => {
    expect(toolCallOutcome(200, undefined)).toBe("error");
    expect(toolCallOutcome(undefined, undefined)).toBe("error");
    expect(toolCallOutcome("elicit", undefined)).toBe("elicit");
  });
});

describe("resultBytes", () => {
  it("adds the UTF-8 bytes of text and the base64 of binary content, not structuredContent", () => {
    const result = {
      content: [
        { type: "text", text: "héllo" }, // 6 bytes
        { type: "image", data: "iVBORw0K", mimeType: "image/png" },
        { type: "resource", resource: { uri: "a:b", text: "€" } }, // 3 bytes
        { type: "resource", resource: { uri: "a:c", blob: "AAAA" } },
      ],
      structuredContent: { big: "x".repeat(1000) },
    };
    expect(resultBytes(result)).toBe(6 + 8 + 3 + 4);
    expect(resultBytes(undefined)).toBe(0);
    expect(resultBytes({ resultType: "input_required" })).toBe(0);
  });
});
