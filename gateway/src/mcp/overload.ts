/**
 * The plan's limits (limits.ts) at the MCP layer: what a refused backend call looks like to the
 * client. Past the plan's or a caller's budget the whole request is refused with HTTP 429 and
 * Retry-After (TooManyCalls): the client's transport sees it, and no model is asked to judge
 * it. Past one tool's budget the call gets a tool result with `isError`, saying when to retry:
 * the model reads it and can pick another tool or wait, and the request itself succeeded.
 */
import type { LimitRefusal } from "../limits.ts";
import type { CallToolResult } from "../tools/mcp.ts";
import type { DispatchContext } from "./dispatch.ts";
import { McpError } from "./protocol.ts";

/**
 * JSON-RPC error code of a call refused by the plan's limits: in -32000..-32019, the range MCP leaves to
 * implementations (it reserves -32020..-32099 for its own codes).
 */
export const TOO_MANY_CALLS = -32010;

const UNLIMITED = { admitted: true as const, release() {} };

/** A refusal by the plan's (or a caller's) budget: HTTP 429 with Retry-After. */
export class TooManyCalls extends McpError {
  readonly retryAfterSeconds: number;

  constructor(refusal: LimitRefusal) {
    const whose = refusal.scope === "caller" ? "your share of this endpoint" : "this endpoint";
    super(
      TOO_MANY_CALLS,
      `Too many calls: ${whose} ${limitText(refusal)}; retry in ${refusal.retryAfterSeconds} s`,
      429,
      {
        retryAfterSeconds: refusal.retryAfterSeconds,
        scope: refusal.scope,
        kind: refusal.kind,
      },
    );
    this.retryAfterSeconds = refusal.retryAfterSeconds;
  }
}

function limitText(refusal: LimitRefusal): string {
  return refusal.kind === "rate"
    ? `admits ${refusal.limit} calls per second on this gateway replica, and they are used up`
    : `admits ${refusal.limit} calls at once on this gateway replica, and that many are in progress`;
}

/**
 * Admits one backend call of `tool` (undefined for a resource read), reporting a refusal to
 * `onLimited`. Throws TooManyCalls for the plan's or the caller's budget; answers a refusal by
 * the tool's own budget (the caller turns it into `limitedToolResult`).
 */
export function admitCall(context: DispatchContext, tool: string | undefined) {
  const limiter = context.served.limiter;
  if (!limiter) return UNLIMITED;
  const admission = limiter.admit(context.caller, tool);
  if (admission.admitted) return admission;
  context.onLimited?.(admission, tool);
  if (admission.scope !== "tool") throw new TooManyCalls(admission);
  return admission;
}

/** Admits a backend read of a resource, which spends the plan's (or caller's) budget only. */
export function admitRead(context: DispatchContext): { release(): void } {
  const admission = admitCall(context, undefined);
  // No tool budget applies to a read, so admitCall has thrown for any refusal; kept for the types.
  if (!admission.admitted) throw new TooManyCalls(admission);
  return admission;
}

/** The result of a call refused by its tool's budget: an error the model can read and act on. */
export function limitedToolResult(tool: string, refusal: LimitRefusal): CallToolResult {
  return {
    content: [
      {
        type: "text",
        text: `Too many calls to tool ${tool}: it ${limitText(refusal)}. Retry in ${refusal.retryAfterSeconds} s, or use another tool meanwhile.`,
      },
    ],
    isError: true,
  };
}
