/**
 * What a tool call came to, for `atrium_tool_calls_total`: the backend outcome words the
 * dispatcher observes (metrics.ts ToolOutcomeWord, or the backend's status) folded into the closed
 * set of tool-call outcomes, and the bytes of the result's content for
 * `atrium_tool_result_bytes_total`.
 */
import type { ToolCallOutcome, ToolOutcomeWord } from "../metrics.ts";
import type { CallToolResult } from "../tools/mcp.ts";

/**
 * `observed`: the last backend outcome seen (undefined when none was, `limited` for a call the
 * plan's limits refused); `result`: what the caller got, undefined when the call threw.
 */
export function toolCallOutcome(
  observed: number | ToolOutcomeWord | "limited" | undefined,
  result: object | undefined,
): ToolCallOutcome {
  // Asking for a URL elicitation throws; anything else thrown is the gateway's failure.
  if (observed === "elicit") return "elicit";
  if (result === undefined || observed === undefined) return "error";
  switch (observed) {
    case "invalid":
    case "timeout":
    case "unavailable":
    case "limited":
    case "error":
      return observed;
    default:
      // A backend's answer, or the gateway's own tool (Discovery mode): isError or not.
      return (result as CallToolResult).isError ? "tool_error" : "ok";
  }
}

/**
 * UTF-8 bytes of a result's content: text blocks, and the base64 of images, audio and embedded
 * resources. Not structuredContent (the text repeats it) nor the JSON-RPC framing: counting those
 * would mean serializing the result a second time on every call.
 */
export function resultBytes(result: object | undefined): number {
  const content = (result as CallToolResult | undefined)?.content;
  if (!Array.isArray(content)) return 0;
  let bytes = 0;
  for (const block of content as Record<string, unknown>[]) {
    if (typeof block.text === "string") bytes += Buffer.byteLength(block.text);
    else if (typeof block.data === "string") bytes += block.data.length;
    else if (block.resource && typeof block.resource === "object") {
      const { text, blob } = block.resource as { text?: unknown; blob?: unknown };
      if (typeof text === "string") bytes += Buffer.byteLength(text);
      else if (typeof blob === "string") bytes += blob.length;
    }
  }
  return bytes;
}
