/**
 * Prometheus metrics at /q/metrics (served on the management listener, see server.ts): MCP
 * requests and their latency per exposition and method, backend outcomes per exposition and
 * tool, and the bytes of filtered tools' answers before and after their output filter.
 *
 * Every label value comes from a closed set, never from raw request input: methods are the MCP
 * methods the gateway knows, else `other`; statuses are standard HTTP statuses, else `other`;
 * expositions and tools are the ones served (callers only pass names that were looked up). So no
 * client, however hostile, can grow the number of series.
 *
 * Counters and histograms are our own few lines rather than prom-client's: an update here is a
 * map lookup per label value and a few additions, where prom-client hashes the label object on
 * every update (four times per proxied call, a measurable share of it). The text exposition
 * format (0.0.4) is rendered only when scraped.
 */

import { STATUS_CODES } from "node:http";
import type { CircuitEvent } from "./backend.ts";
import type { LimitKind, LimitScope } from "./limits.ts";

/**
 * Tool-call outcomes the gateway names itself, beside backend HTTP statuses. `elicit`: the caller
 * was asked for their own backend credential (or declined to give it), nothing was called.
 */
const OUTCOME_WORDS = ["timeout", "error", "invalid", "local", "unavailable", "elicit"] as const;
export type ToolOutcomeWord = (typeof OUTCOME_WORDS)[number];

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

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

interface Series<S> {
  values: readonly string[];
  state: S;
}
/** One level per label: the next label value's level, or at the last label the series. */
type SeriesIndex<S> = Map<string, SeriesIndex<S> | Series<S>>;

abstract class Family<S> {
  /** In the order they first appeared, for rendering. */
  private readonly series: Series<S>[] = [];
  /** The series by their label values, a map per label: an update builds no key string (a joined key cost 2 µs a call). */
  private readonly index: SeriesIndex<S> = new Map();

  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];

  constructor(name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  /** `values` holds one value per label name (every family has at least one). */
  protected state(values: readonly string[]): S {
    let level = this.index;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      const value = values[i] as string;
      let next = level.get(value) as SeriesIndex<S> | undefined;
      if (!next) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    let entry = level.get(values[last] as string) as Series<S> | undefined;
    if (!entry) {
      entry = { values, state: this.fresh() };
      level.set(values[last] as string, entry);
      this.series.push(entry);
    }
    return entry.state;
  }

  protected abstract fresh(): S;
  protected abstract lines(labels: string, state: S, out: string[]): void;
  protected abstract readonly type: string;

  render(out: string[]): void {
    out.push(`# HELP ${this.name} ${this.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`);
    out.push(`# TYPE ${this.name} ${this.type}`);
    for (const { values, state } of this.series) {
      this.lines(
        this.labelNames.map((name, index) => `${name}="${escapeLabel(values[index] ?? "")}"`).join(","),
        state,
        out,
      );
    }
  }
}

export class CounterFamily extends Family<{ value: number }> {
  protected readonly type = "counter";

  inc(...values: string[]): void {
    this.state(values).value++;
  }

  add(amount: number, ...values: string[]): void {
    this.state(values).value += amount;
  }

  protected fresh() {
    return { value: 0 };
  }

  protected lines(labels: string, state: { value: number }, out: string[]): void {
    out.push(`${this.name}{${labels}} ${state.value}`);
  }
}

interface HistogramState {
  /** Observations per bucket, not cumulative; the last slot is above every bound (+Inf only). */
  counts: Float64Array;
  sum: number;
  count: number;
}

export class HistogramFamily extends Family<HistogramState> {
  protected readonly type = "histogram";
  readonly buckets: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    this.buckets = buckets;
  }

  observe(value: number, ...values: string[]): void {
    const state = this.state(values);
    let bucket = 0;
    while (bucket < this.buckets.length && value > (this.buckets[bucket] as number)) bucket++;
    (state.counts[bucket] as number)++;
    state.sum += value;
    state.count++;
  }

  protected fresh(): HistogramState {
    return { counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0 };
  }

  protected lines(labels: string, state: HistogramState, out: string[]): void {
    let cumulative = 0;
    this.buckets.forEach((bound, index) => {
      cumulative += state.counts[index] as number;
      out.push(`${this.name}_bucket{${labels},le="${bound}"} ${cumulative}`);
    });
    out.push(`${this.name}_bucket{${labels},le="+Inf"} ${state.count}`);
    out.push(`${this.name}_sum{${labels}} ${state.sum}`);
    out.push(`${this.name}_count{${labels}} ${state.count}`);
  }
}

export function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
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
  readonly backendCalls = new CounterFamily(
    "atrium_backend_responses_total",
    "Tool calls by exposition, tool and backend outcome (HTTP status, timeout, error, invalid)",
    ["exposition", "tool", "outcome"],
  );
  readonly backendLatency = new HistogramFamily(
    "atrium_backend_duration_seconds",
    "Time a tool call spent on its backend",
    ["exposition", "tool"],
    LATENCY_BUCKETS,
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

  /** `exposition`: a served Exposition's id; `method`: as the client sent it (mapped here). */
  request(exposition: string, method: string, status: number, seconds: number): void {
    const label = methodLabel(method);
    this.requests.inc(exposition, label, statusLabel(status));
    this.latency.observe(seconds, exposition, label);
  }

  /** `tool`: a tool of the Exposition; `outcome`: the backend's HTTP status (mapped here) or one of the gateway's own words. */
  toolCall(exposition: string, tool: string, outcome: number | ToolOutcomeWord, seconds: number): void {
    this.backendCalls.inc(exposition, tool, statusLabel(outcome));
    this.backendLatency.observe(seconds, exposition, tool);
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

  /** Families rendered by their owners at scrape time (the sync's staleness and refusals). */
  readonly collectors: ((out: string[]) => void)[] = [];

  /** The text exposition format. */
  render(): string {
    const out: string[] = [];
    for (const family of [
      this.requests,
      this.latency,
      this.backendCalls,
      this.backendLatency,
      this.filterBytes,
      this.circuitOpens,
      this.circuitRefusals,
      this.limitedCalls,
    ])
      family.render(out);
    for (const collect of this.collectors) collect(out);
    return `${out.join("\n")}\n`;
  }
}
