/**
 * Prometheus metrics at /q/metrics (served on the management listener, see server.ts): MCP
 * requests and their latency per exposition and method; tool calls by outcome, their duration
 * and the bytes of their results; backend outcomes and the backend's share of the time; client
 * authentication decisions; breakers and limits; the bytes of filtered tools' answers before and
 * after their output filter; and the lag of the changes the gateway applies.
 *
 * Every label value comes from a closed set, never from raw request input: methods are the MCP
 * methods the gateway knows, else `other`; statuses are standard HTTP statuses, else `other`;
 * expositions and tools are the ones served (callers only pass names that were looked up). So no
 * client, however hostile, can grow the number of series.
 *
 * The families are our own (metric-families.ts), rendered only when scraped, in the Prometheus
 * text format or OpenMetrics (metrics-format.ts). Observations may carry the request's trace id,
 * which histogram buckets keep as exemplars.
 */

import { STATUS_CODES } from "node:http";
import type { AuthFailureReason } from "./auth/refusals.ts";
import type { CircuitEvent } from "./backend.ts";
import { type BreakerSource, circuitMetrics, type ServedSource } from "./circuit-metrics.ts";
import type { LimitKind, LimitScope } from "./limits.ts";
import { CounterFamily, HistogramFamily, type RenderedFamily } from "./metric-families.ts";
import { exposition, type MetricsFormat, PROMETHEUS_TEXT } from "./metrics-format.ts";
import { type RefusalSource, type SyncSource, syncMetrics } from "./sync-metrics.ts";

/**
 * Tool-call outcomes the gateway names itself, beside backend HTTP statuses. `elicit`: the caller
 * was asked for their own backend credential (or declined to give it), nothing was called.
 */
const OUTCOME_WORDS = ["timeout", "error", "invalid", "local", "unavailable", "elicit"] as const;
export type ToolOutcomeWord = (typeof OUTCOME_WORDS)[number];

/**
 * What became of a tool call, as the caller saw it (`atrium_tool_calls_total`): `ok`; `tool_error`
 * (a result with isError: the backend answered an error, or the result could not be made);
 * `invalid` (arguments refused); `timeout`; `unavailable` (an open breaker); `limited` (the plan's
 * limits); `elicit` (the caller was asked for input or a credential, nothing was called); `error`
 * (the backend could not be reached, or the call failed in the gateway).
 */
export const TOOL_CALL_OUTCOMES = [
  "ok",
  "tool_error",
  "invalid",
  "timeout",
  "unavailable",
  "limited",
  "elicit",
  "error",
] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

/** How the client authenticated: no credential asked, the plan's API key, or an OAuth bearer token. */
export type AuthMode = "none" | "apiKey" | "oauth";

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Change lag: from a commit in the control plane to this gateway serving it. */
const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** Method label values: the MCP methods of every supported version, plus the gateway's own `batch` and `invalid`. */
const METHOD_LABELS = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "batch",
  "invalid",
]);

/** Status label values: statuses Node knows a reason phrase for (a backend may answer any number), and the outcome words. */
const STATUS_LABELS = new Set<string>([...Object.keys(STATUS_CODES), ...OUTCOME_WORDS]);

export function methodLabel(method: string): string {
  return METHOD_LABELS.has(method) ? method : "other";
}

export function statusLabel(status: number | string): string {
  const text = String(status);
  return STATUS_LABELS.has(text) ? text : "other";
}

export class GatewayMetrics {
  readonly requests = new CounterFamily(
    "atrium_mcp_requests_total",
    "MCP requests by exposition, JSON-RPC method and HTTP status",
    ["exposition", "method", "status"],
  );
  readonly latency = new HistogramFamily(
    "atrium_mcp_request_duration_seconds",
    "Time to answer an MCP request, backend call included",
    ["exposition", "method"],
    LATENCY_BUCKETS,
  );
  readonly toolCalls = new CounterFamily(
    "atrium_tool_calls_total",
    "Tool calls by exposition, tool and outcome (ok, tool_error, invalid, timeout, unavailable, limited, elicit, error)",
    ["exposition", "tool", "outcome"],
  );
  readonly toolCallLatency = new HistogramFamily(
    "atrium_tool_call_duration_seconds",
    "Time to answer a tool call, from its arrival at the tool to its result (backend call, output filter and result budget included)",
    ["exposition", "tool"],
    LATENCY_BUCKETS,
  );
  readonly toolResultBytes = new CounterFamily(
    "atrium_tool_result_bytes_total",
    "UTF-8 bytes of the content of the tool results sent (text, and the base64 of binary content), by exposition and tool",
    ["exposition", "tool"],
  );
  readonly backendCalls = new CounterFamily(
    "atrium_backend_responses_total",
    "Tool calls by exposition, tool and backend outcome (HTTP status, timeout, error, invalid)",
    ["exposition", "tool", "outcome"],
  );
  readonly backendLatency = new HistogramFamily(
    "atrium_backend_duration_seconds",
    "Time a tool call spent in its backend call (credential, connection, retries and reading the answer), for calls that reached the backend client",
    ["exposition", "tool"],
    LATENCY_BUCKETS,
  );
  readonly authDecisions = new CounterFamily(
    "atrium_auth_decisions_total",
    "Client authentication decisions by exposition, mode (none, apiKey, oauth), outcome (allowed, refused) and refusal reason (none when allowed)",
    ["exposition", "mode", "outcome", "reason"],
  );

  readonly filterBytes = new CounterFamily(
    "atrium_output_filter_bytes_total",
    "Bytes of the answers of tools with an output filter (stage answer) and of what their filter made of them (stage filtered), by exposition and tool",
    ["exposition", "tool", "stage"],
  );

  readonly circuitOpens = new CounterFamily(
    "atrium_backend_circuit_opens_total",
    "Times a call of the exposition opened its plan's backend circuit breaker (a failed trial call opens it again)",
    ["exposition"],
  );
  readonly circuitRefusals = new CounterFamily(
    "atrium_backend_circuit_refused_total",
    "Calls answered at once by an open backend circuit breaker, without calling the backend",
    ["exposition"],
  );

  readonly limitedCalls = new CounterFamily(
    "atrium_limited_calls_total",
    "Backend calls refused by the plan's limits on this replica, by exposition, scope (plan, caller, tool) and kind (rate, concurrency)",
    ["exposition", "scope", "kind"],
  );

  readonly changeLag = new HistogramFamily(
    "atrium_gateway_change_lag_seconds",
    "Seconds from the control plane recording a change to this gateway serving it, one observation per change-stream message (control planes that send the time only)",
    [],
    LAG_BUCKETS,
  );

  /**
   * `exposition`: a served Exposition's id; `method`: as the client sent it (mapped here);
   * `traceId`: the request's trace (32 hex digits) when it is traced, kept as an exemplar.
   */
  request(exposition: string, method: string, status: number, seconds: number, traceId?: string): void {
    const label = methodLabel(method);
    this.requests.inc(exposition, label, statusLabel(status));
    if (traceId === undefined) this.latency.observe(seconds, exposition, label);
    else this.latency.observeTraced(seconds, traceId, exposition, label);
  }

  /**
   * A tool call's backend outcome. `tool`: a tool of the Exposition; `outcome`: the backend's HTTP
   * status (mapped here) or one of the gateway's own words; `backendSeconds`: the time in the
   * backend call, undefined when the backend was not called.
   */
  toolCall(
    exposition: string,
    tool: string,
    outcome: number | ToolOutcomeWord,
    backendSeconds: number | undefined,
    traceId?: string,
  ): void {
    this.backendCalls.inc(exposition, tool, statusLabel(outcome));
    if (backendSeconds === undefined) return;
    if (traceId === undefined) this.backendLatency.observe(backendSeconds, exposition, tool);
    else this.backendLatency.observeTraced(backendSeconds, traceId, exposition, tool);
  }

  /** A tool call answered: its outcome, its whole time, and the bytes of its result's content. */
  toolCallAnswered(
    exposition: string,
    tool: string,
    outcome: ToolCallOutcome,
    seconds: number,
    bytes: number,
    traceId?: string,
  ): void {
    this.toolCalls.inc(exposition, tool, outcome);
    if (traceId === undefined) this.toolCallLatency.observe(seconds, exposition, tool);
    else this.toolCallLatency.observeTraced(seconds, traceId, exposition, tool);
    if (bytes > 0) this.toolResultBytes.add(bytes, exposition, tool);
  }

  /** A client credential checked: allowed, or refused for a reason of refusals.ts. */
  authDecision(exposition: string, mode: AuthMode, refusal?: AuthFailureReason): void {
    if (refusal === undefined) this.authDecisions.inc(exposition, mode, "allowed", "none");
    else this.authDecisions.inc(exposition, mode, "refused", refusal);
  }

  /** A change-stream message applied: `committedAtMs` is when the control plane recorded its change. */
  changeApplied(committedAtMs: number, now = Date.now()): void {
    this.changeLag.observe(Math.max(0, (now - committedAtMs) / 1000));
  }

  /** A filtered tool's answer (`before` bytes) and the text its output filter made of it (`after` bytes). */
  filteredBytes(exposition: string, tool: string, before: number, after: number): void {
    this.filterBytes.add(before, exposition, tool, "answer");
    this.filterBytes.add(after, exposition, tool, "filtered");
  }

  /** A backend call of the Exposition opened its breaker or was refused by it (a close is only logged and audited). */
  circuit(exposition: string, event: CircuitEvent): void {
    if (event === "opened") this.circuitOpens.inc(exposition);
    else if (event === "refused") this.circuitRefusals.inc(exposition);
  }

  /** A call of the Exposition refused by its limits; scope and kind are the limiter's closed words. */
  limited(exposition: string, scope: LimitScope, kind: LimitKind): void {
    this.limitedCalls.inc(exposition, scope, kind);
  }

  /** Families read from their owners at scrape time (the sync's staleness and refusals, the breakers' states). */
  readonly collected: RenderedFamily[] = [];

  /** Adds the families read at scrape time from the sync, the registry and the breakers. */
  collect(sync: SyncSource, registry: RefusalSource & ServedSource, breakers: BreakerSource): void {
    this.collected.push(...syncMetrics(sync, registry), circuitMetrics(breakers, registry));
  }

  /** Every family, in the order rendered. */
  families(): RenderedFamily[] {
    return [
      this.requests,
      this.latency,
      this.toolCalls,
      this.toolCallLatency,
      this.toolResultBytes,
      this.backendCalls,
      this.backendLatency,
      this.authDecisions,
      this.filterBytes,
      this.circuitOpens,
      this.circuitRefusals,
      this.limitedCalls,
      this.changeLag,
      ...this.collected,
    ];
  }

  /** The exposition in `format` (the Prometheus text format unless told). */
  render(format: MetricsFormat = PROMETHEUS_TEXT): string {
    const out: string[] = [];
    for (const family of this.families()) family.render(out, format);
    return exposition(out, format);
  }
}
