/**
 * What the MCP dispatcher holds per tool. A `tools/call` uses it in this order:
 * 1. `validate(arguments)`; violations → `validationErrorResult(violations)` (result.ts);
 * 2. when `local` is set, its answer: a finished result, or `invoke` — call the backend for the
 *    runtime and arguments it names (discovery's invoke_tool delegates to the named tool);
 *    otherwise `buildRequest(arguments)`;
 * 3. send the request (`joinBackendUrl`, request.ts) and map the response with the runtime that
 *    built it: its `toResult`, not bare `toolResult`, also keeps the promise of its outputSchema.
 * `planCall` does steps 1 and 2.
 */
import type { BackendRoute } from "../backend-span.ts";
import type { OutputFilter } from "../output-filters/tool.ts";
import type { CallToolResult, McpTool } from "./mcp.ts";
import type { ParamHeader } from "./param-headers.ts";
import type { BackendRequest } from "./request.ts";
import { type BackendResponse, type ResultOptions, validationErrorResult } from "./result.ts";
import type { ResultBudget } from "./result-budget.ts";

export type ToolRuntime = {
  /** The definition listed by `tools/list`. */
  tool: McpTool;
  /** `[]` when `args` (the call's `arguments`, `undefined` meaning `{}`) are valid, else violations such as `petId: must be integer`. */
  validate(args: unknown): string[];
  /** The backend request of valid arguments. Not called when `local` is set (it throws). */
  buildRequest(args: Record<string, unknown>): BackendRequest;
  /** What its backend call is, in low-cardinality words, for the call's trace span. */
  route?: BackendRoute;
  /** Set on tools the gateway answers itself (valid arguments only). */
  local?: (args: Record<string, unknown>) => LocalAnswer;
  /** The result of the backend's response to `buildRequest` (result.ts, plus the tool's outputSchema guarantee). */
  toResult(response: BackendResponse, options: ResultOptions): CallToolResult;
  /**
   * The same mapping without the outputSchema guarantee, for invoke_tool (discovery.ts), which
   * declares none; plain `toolResult` when absent. A tool whose answers are not plain HTTP (a
   * GraphQL response, a gRPC message) sets it.
   */
  toUncheckedResult?(response: BackendResponse, options: ResultOptions): CallToolResult;
  /** Arguments clients mirror into `Mcp-Param-*` headers (param-headers.ts); absent when none. */
  paramHeaders?: ParamHeader[];
  /** The plan's output filter of its results, applied after `toResult` (output-filters/tool.ts); absent when none. */
  outputFilter?: OutputFilter;
  /** The budget its backend results are fitted to (result-budget.ts); absent when it has none. */
  budget?: ResultBudget;
  /** How it writes its structuredContent as its text block (an output filter's TOON); JSON when absent. */
  renderStructured?: (value: unknown) => string;
};

/** A local tool's answer: the result itself, or the backend call to make instead (already validated). */
export type LocalAnswer =
  | { kind: "result"; result: CallToolResult }
  | { kind: "invoke"; runtime: ToolRuntime; args: Record<string, unknown> };

export type Toolset = {
  /** For `tools/list`, in a deterministic order: operations in document order, then custom tools. */
  tools: McpTool[];
  /** The runtime of a listed tool; undefined for any other name. */
  get(name: string): ToolRuntime | undefined;
  /** Compilation problems that did not stop it (a schema ajv could not compile, a tool left out), for the log. */
  warnings: string[];
};

/**
 * Steps 1 and 2 above: a finished result (invalid arguments, a local answer), or the backend
 * request to send and the runtime whose `toResult` maps its response.
 */
export type CallPlan =
  | { result: CallToolResult; request?: undefined; runtime?: undefined }
  | { request: BackendRequest; runtime: ToolRuntime; result?: undefined };

export function planCall(runtime: ToolRuntime, rawArguments: unknown): CallPlan {
  const violations = runtime.validate(rawArguments);
  if (violations.length > 0) return { result: validationErrorResult(violations) };
  const args = (rawArguments ?? {}) as Record<string, unknown>;
  if (!runtime.local) return { request: runtime.buildRequest(args), runtime };
  const answer = runtime.local(args);
  if (answer.kind === "result") return { result: answer.result };
  return { request: answer.runtime.buildRequest(answer.args), runtime: answer.runtime };
}

/** `buildRequest` of a tool the gateway answers itself. */
export function answeredLocally(name: string): (args: Record<string, unknown>) => BackendRequest {
  return () => {
    throw new Error(`tool ${name} is answered by the gateway (ToolRuntime.local), not by the backend`);
  };
}
