/**
 * The MCP methods both protocol eras share — tools, resources, prompts — answered for one
 * Exposition. Era-specific framing (sessions, `_meta`, `resultType`, caching hints) is added
 * by the era modules around these results.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ToolAccess } from "../auth/client-auth.ts";
import { refusals } from "../auth/refusals.ts";
import type { BackendOutcome, Backends, CircuitEvent } from "../backend.ts";
import {
  type ElicitationCall,
  type Elicited,
  evict,
  type InputRequiredResult,
  legacyCredential,
  modernCredential,
  storedCredential,
} from "../elicitation/flow.ts";
import {
  type ArgumentAsking,
  requiredPromptArguments,
  requiredToolArguments,
  withAskedArguments,
} from "../elicitation/missing-arguments.ts";
import type { LimitRefusal } from "../limits.ts";
import type { ToolCallOutcome, ToolOutcomeWord } from "../metrics.ts";
import type { FilteredBytes } from "../output-filters/tool.ts";
import type { ServedExposition } from "../registry.ts";
import type { CallToolResult } from "../tools/mcp.ts";
import { timeoutResult } from "../tools/result.ts";
import { fitResult } from "../tools/result-budget.ts";
import { planCall, type ToolRuntime } from "../tools/runtime.ts";
import { complete, offersCompletions } from "./completion.ts";
import { admitCall, admitRead, limitedToolResult } from "./overload.ts";
import { getPrompt, listPrompts } from "./prompts.ts";
import { ERROR, McpError } from "./protocol.ts";
import { markToolError } from "./request-span.ts";
import { listResources, listResourceTemplates, resolveResource } from "./resources.ts";
import type { LogSink } from "./response-stream.ts";
import { resultBytes, toolCallOutcome } from "./tool-call-outcome.ts";

export interface DispatchContext {
  served: ServedExposition;
  era: "modern" | "legacy";
  protocolVersion: string;
  clientHeaders: IncomingHttpHeaders;
  backends: Backends;
  maxResultBytes: number;
  /** Observes each tool call's backend outcome and, when the backend was called, the seconds of that call (metrics, audit). */
  onToolCall?: (tool: string, outcome: number | ToolOutcomeWord, backendSeconds: number | undefined) => void;
  /** Observes each answered tool call of a known tool: its outcome, whole time and result bytes (metrics). */
  onToolCallAnswered?: (tool: string, outcome: ToolCallOutcome, seconds: number, bytes: number) => void;
  /** Observes a backend call that opened or closed the plan's circuit breaker, or was refused by it. */
  onCircuit?: (event: CircuitEvent) => void;
  /** Observes the bytes of a filtered tool's answer and of its filtered text (metrics). */
  onFilteredBytes?: FilteredBytes;
  /** `performance.now()` by which backend calls must be answered (a batch's shared deadline). */
  deadline?: number;
  /** The tools an OAuth token's scopes hide (oauth.toolScopes); undefined when it sees them all. */
  toolAccess?: ToolAccess;
  /** Who calls, on OAuth-protected endpoints (the token's issuer and subject): whose budget `limits.per: caller` spends. */
  caller?: string;
  /** Until when the caller's token holds (ms since the epoch): no backend token exchanged for it outlives it. */
  callerValidUntilMs?: number;
  /** Observes a backend call the plan's limits refused (`tool` undefined for a resource read). */
  onLimited?: (refusal: LimitRefusal, tool: string | undefined) => void;
  /** Set on Expositions whose plan elicits the backend credential from each user. */
  elicitation?: ElicitationCall;
  /** Set on Expositions whose plan asks for missing arguments (elicitMissingArguments); used in the modern era only. */
  askArguments?: ArgumentAsking;
  /**
   * Sends the client a log message about the call (`notifications/message`), when it asked for
   * them and reads the answer's event stream (response-stream.ts); undefined otherwise, and then
   * no message is even built.
   */
  log?: LogSink;
}

/** The tools the caller may see, and a key naming that view (cached lists are per view). */
export function listedTools(context: Pick<DispatchContext, "served" | "toolAccess">) {
  const { tools } = context.served.toolset;
  const access = context.toolAccess;
  if (!access) return { key: "", tools };
  return { key: ` ${access.key}`, tools: tools.filter((tool) => !access.denied.has(tool.name)) };
}

/** A tool the caller's token may not use is refused with 403 insufficient_scope, as if it were absent from the list. */
export function checkToolAccess(access: ToolAccess | undefined, tool: unknown): void {
  if (access && typeof tool === "string" && access.denied.has(tool)) throw refusals.missingScope(access.scopesOf(tool));
}

/** The result of a shared method; undefined when the method is not one of them. */
export async function dispatchShared(
  method: string,
  params: Record<string, unknown>,
  context: DispatchContext,
): Promise<unknown> {
  const { served } = context;
  const { exposition } = served;
  // The modern era answers invalid params with HTTP 400, the legacy era inside a 200.
  const invalidStatus = context.era === "modern" ? 400 : 200;
  switch (method) {
    case "tools/list":
      return { tools: listedTools(context).tools };
    case "tools/call": {
      const result = await callTool(params, context, invalidStatus);
      if ((result as CallToolResult).isError) markToolError();
      return result;
    }
    case "resources/list":
      return { resources: listResources(exposition.resources) };
    case "resources/templates/list":
      return { resourceTemplates: listResourceTemplates(exposition.resourceTemplates) };
    case "resources/read":
      return readResource(params, context, invalidStatus);
    case "prompts/list":
      return { prompts: listPrompts(exposition.prompts) };
    case "prompts/get":
      return promptOrAsk(params, context, invalidStatus);
    case "completion/complete":
      if (!offersCompletions(exposition)) return undefined;
      return complete(exposition, params, invalidStatus);
    default:
      return undefined;
  }
}

async function callTool(
  params: Record<string, unknown>,
  context: DispatchContext,
  invalidStatus: number,
): Promise<CallToolResult | InputRequiredResult> {
  const name = params.name;
  checkToolAccess(context.toolAccess, name);
  const runtime = typeof name === "string" ? context.served.toolset.get(name) : undefined;
  if (!runtime) throw new McpError(ERROR.invalidParams, `Unknown tool: ${String(name)}`, invalidStatus);
  const started = performance.now();
  const call: ToolCallRecord = { observed: undefined, backendSeconds: undefined };
  let result: CallToolResult | InputRequiredResult | undefined;
  try {
    result = await runTool(runtime, params, context, call);
    return result;
  } finally {
    context.onToolCallAnswered?.(
      runtime.tool.name,
      toolCallOutcome(call.observed, result),
      (performance.now() - started) / 1000,
      resultBytes(result),
    );
  }
}

/** What the metrics learn while a tool call runs: its last backend outcome, and the seconds in the backend call. */
interface ToolCallRecord {
  observed: number | ToolOutcomeWord | "limited" | undefined;
  backendSeconds: number | undefined;
}

async function runTool(
  runtime: ToolRuntime,
  params: Record<string, unknown>,
  context: DispatchContext,
  call: ToolCallRecord,
): Promise<CallToolResult | InputRequiredResult> {
  const observe = (outcome: number | ToolOutcomeWord) => {
    call.observed = outcome;
    context.onToolCall?.(runtime.tool.name, outcome, call.backendSeconds);
  };
  const { log } = context;
  let args = params.arguments;
  // The gateway's own tools (Discovery mode's search and invoke) are the model's to fill, never the user's.
  const asking = context.era === "modern" && !runtime.local ? context.askArguments : undefined;
  if (asking) {
    const required = requiredToolArguments(runtime.tool.inputSchema);
    const asked = withAskedArguments(asking, `tool:${runtime.tool.name}`, required, params);
    if (asked.kind === "input-required") {
      observe("elicit");
      return asked.result;
    }
    args = asked.arguments;
  }
  const plan = planCall(runtime, args);
  if (plan.result) {
    observe(plan.result.isError ? "invalid" : "local");
    // Violations name the argument and the rule it breaks, never the value.
    if (plan.result.isError) log?.("warning", `${runtime.tool.name}: ${textOf(plan.result)}`);
    return plan.result;
  }
  const { plan: settings } = context.served.exposition;
  const tool = plan.runtime.tool.name;
  // The caller's own backend credential comes before the call's budget: asking for it calls nothing.
  let elicited: Elicited | undefined;
  if (context.elicitation) {
    const asked = { served: context.served, tool: runtime.tool.name, params };
    const got = await (context.era === "modern" ? modernCredential : legacyCredential)(
      context.elicitation,
      asked,
    ).catch((error: unknown) => {
      if (error instanceof McpError && error.code === ERROR.urlElicitationRequired) observe("elicit");
      throw error;
    });
    if (got.kind === "input-required") {
      observe("elicit");
      return got.result;
    }
    if (got.kind === "declined") {
      observe("elicit");
      return {
        content: [{ type: "text", text: `The credential was not given (${got.action}): the tool was not called` }],
        isError: true,
      };
    }
    if (got.kind === "failed") {
      observe("elicit");
      return { content: [{ type: "text", text: `${got.text}: the tool was not called` }], isError: true };
    }
    elicited = got;
  }
  const admission = admitCall(context, tool);
  if (!admission.admitted) {
    call.observed = "limited";
    const limited = limitedToolResult(tool, admission);
    log?.("warning", textOf(limited));
    return limited;
  }
  // The path without its query: the plan may put the backend secret there (never in the path itself).
  log?.("debug", `${tool}: calling the backend: ${plan.request.method} ${plan.request.path.split("?")[0]}`);
  const called = performance.now();
  let outcome: BackendOutcome;
  try {
    // The share of the pool is the tool's: one hanging tool cannot starve the others.
    outcome = await context.backends.call(context.served.backend, settings, plan.request, context.clientHeaders, {
      share: plan.runtime,
      route: plan.runtime.route,
      deadline: context.deadline,
      onCircuit: log ? logCircuit(log, tool, context.onCircuit) : context.onCircuit,
      onRetry: log && ((reason) => log("warning", `${tool}: ${reason}`)),
      credential: elicited?.credential,
      caller: context.caller,
      callerValidUntilMs: context.callerValidUntilMs,
    });
  } finally {
    admission.release();
    call.backendSeconds = (performance.now() - called) / 1000;
  }
  if (log) logOutcome(log, tool, outcome, call.backendSeconds * 1000);
  if (elicited && context.elicitation && outcome.kind === "response" && outcome.response.status === 401) {
    await evict(context.elicitation, context.served, elicited);
    observe(401);
    return {
      content: [
        {
          type: "text",
          text:
            context.served.exposition.plan.backendSecret?.source === "oauth2AuthorizationCode"
              ? "The backend refused your authorization (HTTP 401): it was forgotten, call the tool again to authorize anew"
              : "The backend refused your credential (HTTP 401): it was forgotten, call the tool again to give a new one",
        },
      ],
      isError: true,
    };
  }
  if (outcome.kind === "timeout") {
    observe("timeout");
    return timeoutResult(outcome.ms);
  }
  if (outcome.kind === "error" || outcome.kind === "unavailable") {
    observe(outcome.kind);
    return { content: [{ type: "text", text: outcome.message }], isError: true };
  }
  observe(outcome.response.status);
  // invoke_tool (discovery mode) answers with the runtime of the tool it invoked.
  const mapped = plan.runtime.toResult(outcome.response, {
    maxBytes: context.maxResultBytes,
    forwardHeaders: settings.headerPolicy?.forwardResponseHeaders ?? [],
  });
  const shaped = plan.runtime.outputFilter
    ? plan.runtime.outputFilter(mapped, outcome.response, context.onFilteredBytes)
    : mapped;
  // The plan's result budget comes last: the bytes it counts are those sent.
  const result = plan.runtime.budget ? fitResult(shaped, plan.runtime.budget) : shaped;
  log?.("debug", `${tool}: result: ${summaryOf(result)}`);
  return result;
}

/** prompts/get, asking for missing arguments first when the plan says so (missing-arguments.ts). */
function promptOrAsk(params: Record<string, unknown>, context: DispatchContext, invalidStatus: number) {
  const { prompts } = context.served.exposition;
  const asking = context.era === "modern" ? context.askArguments : undefined;
  const prompt = asking && prompts.find((p) => p.name === params.name);
  if (!asking || !prompt) return getPrompt(prompts, params, invalidStatus);
  const required = requiredPromptArguments(prompt.arguments);
  const asked = withAskedArguments(asking, `prompt:${prompt.name}`, required, params);
  if (asked.kind === "input-required") return asked.result;
  return getPrompt(prompts, { ...params, arguments: asked.arguments }, invalidStatus);
}

/** The first text block of a result the gateway made itself (its own words, no backend data). */
function textOf(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === "text");
  return block && "text" in block ? String(block.text) : "";
}

/** What a result holds, without its data: the kinds of its content blocks, structured content, error. */
function summaryOf(result: CallToolResult): string {
  const kinds = result.content.map((item) => item.type).join(", ") || "no content";
  const structured = result.structuredContent === undefined ? "" : " and structuredContent";
  return `${kinds}${structured}${result.isError ? " (isError)" : ""}`;
}

/** A backend call's outcome as the client's log line: status and time, timeout, or why it failed. */
function logOutcome(log: LogSink, what: string, outcome: BackendOutcome, ms: number): void {
  if (outcome.kind === "response") {
    const { status } = outcome.response;
    const level = status >= 500 ? "error" : status >= 400 ? "warning" : "info";
    log(level, `${what}: the backend answered HTTP ${status} in ${Math.round(ms)} ms`);
  } else if (outcome.kind === "timeout") {
    log("error", `${what}: the backend did not answer within ${outcome.ms} ms`);
  } else {
    // The client's own error text: a correlation id, never an address or a secret (backend.ts).
    log("error", `${what}: ${outcome.message}`);
  }
}

/** Observes a call's breaker events as before, and tells the client when the breaker opened or closed. */
function logCircuit(log: LogSink, what: string, observe: ((event: CircuitEvent) => void) | undefined) {
  return (event: CircuitEvent) => {
    observe?.(event);
    if (event === "opened")
      log(
        "warning",
        `${what}: the backend failed too often: its circuit breaker opened, calls fail at once for a while`,
      );
    else if (event === "closed") log("info", `${what}: the backend's circuit breaker closed: a trial call reached it`);
  };
}

async function readResource(params: Record<string, unknown>, context: DispatchContext, invalidStatus: number) {
  const { served } = context;
  const uri = params.uri;
  const source =
    typeof uri === "string" ? resolveResource(served.exposition.resources, served.templates, uri) : undefined;
  if (!source) {
    const code = context.era === "modern" ? ERROR.invalidParams : ERROR.resourceNotFound;
    throw new McpError(code, `Resource not found: ${String(uri)}`, invalidStatus, { uri });
  }
  if (source.kind === "text") return { contents: [{ uri: source.uri, mimeType: source.mimeType, text: source.text }] };
  // Only the plan's (or caller's) budget: no tool is called. A refusal throws TooManyCalls (429).
  const elicited = context.elicitation ? await storedCredential(context.elicitation, served, invalidStatus) : undefined;
  const admission = admitRead(context);
  const { log } = context;
  const called = log ? performance.now() : 0;
  let outcome: BackendOutcome;
  try {
    outcome = await context.backends.call(
      served.backend,
      served.exposition.plan,
      { method: "GET", path: source.path, headers: {} },
      context.clientHeaders,
      {
        share: served.exposition.resources,
        deadline: context.deadline,
        onCircuit: log ? logCircuit(log, source.uri, context.onCircuit) : context.onCircuit,
        credential: elicited?.credential,
        caller: context.caller,
        callerValidUntilMs: context.callerValidUntilMs,
      },
    );
  } finally {
    admission.release();
  }
  if (log) logOutcome(log, source.uri, outcome, performance.now() - called);
  if (elicited && context.elicitation && outcome.kind === "response" && outcome.response.status === 401)
    await evict(context.elicitation, served, elicited);
  if (outcome.kind !== "response" || outcome.response.status >= 400) {
    const why =
      outcome.kind === "timeout"
        ? `the backend timed out after ${outcome.ms} ms`
        : outcome.kind === "error" || outcome.kind === "unavailable"
          ? outcome.message
          : `the backend answered HTTP ${outcome.response.status}`;
    throw new McpError(ERROR.internal, `Reading ${source.uri}: ${why}`, 200);
  }
  const mimeType =
    source.mimeType ?? String(outcome.response.headers["content-type"] ?? "application/octet-stream").split(";")[0];
  const textual = /^text\/|json|xml|yaml|javascript/.test(mimeType ?? "");
  return {
    contents: [
      textual
        ? { uri: source.uri, mimeType, text: outcome.response.body.toString("utf8") }
        : { uri: source.uri, mimeType, blob: outcome.response.body.toString("base64") },
    ],
  };
}
