/**
 * The gateway's metric families, rendered at scrape time in the Prometheus text format (0.0.4)
 * or, when the scraper asks for it, in OpenMetrics 1.0 (metrics-format.ts). Counters and
 * histograms are our own few lines rather than prom-client's: an update here is a map lookup per
 * label value and a few additions, where prom-client hashes the label object on every update (four
 * times per proxied call, a measurable share of it).
 *
 * A histogram observation may name the trace it belongs to: each bucket then keeps the last such
 * observation as its exemplar, rendered in OpenMetrics only. An observation without a trace id
 * costs what it always did.
 */
import { escapeLabel, type MetricsFormat, writeHeader } from "./metrics-format.ts";

export type MetricType = "counter" | "gauge" | "histogram";

/** What the metric catalogue reads of a family: its name, type, labels and help. */
export interface FamilyDescription {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly labelNames: readonly string[];
}

/** A family the gateway renders: described, and written into a scrape's lines. */
export interface RenderedFamily extends FamilyDescription {
  render(out: string[], format: MetricsFormat): void;
}

interface Series<S> {
  values: readonly string[];
  state: S;
}
/** One level per label: the next label value's level, or at the last label the series. */
type SeriesIndex<S> = Map<string, SeriesIndex<S> | Series<S>>;

const NO_LABELS = "";

abstract class Family<S> implements RenderedFamily {
  /** In the order they first appeared, for rendering. */
  private readonly series: Series<S>[] = [];
  /** The series by their label values, a map per label: an update builds no key string (a joined key cost 2 µs a call). */
  private readonly index: SeriesIndex<S> = new Map();

  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  abstract readonly type: MetricType;

  constructor(name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  /** `values` holds one value per label name; a family without labels has one series. */
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
    const key = last < 0 ? NO_LABELS : (values[last] as string);
    let entry = level.get(key) as Series<S> | undefined;
    if (!entry) {
      entry = { values, state: this.fresh() };
      level.set(key, entry);
      this.series.push(entry);
    }
    return entry.state;
  }

  protected abstract fresh(): S;
  protected abstract lines(labels: string, state: S, out: string[], format: MetricsFormat): void;

  render(out: string[], format: MetricsFormat): void {
    writeHeader(out, format, this);
    for (const { values, state } of this.series) {
      this.lines(
        this.labelNames.map((name, index) => `${name}="${escapeLabel(values[index] ?? "")}"`).join(","),
        state,
        out,
        format,
      );
    }
  }
}

/** `name{labels}` or, without labels, `name`. */
function sample(name: string, labels: string): string {
  return labels ? `${name}{${labels}}` : name;
}

export class CounterFamily extends Family<{ value: number }> {
  readonly type = "counter";

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
    out.push(`${sample(this.name, labels)} ${state.value}`);
  }
}

/** The last traced observation of a bucket: its trace, value and time (ms since the epoch). */
interface Exemplar {
  traceId: string;
  value: number;
  at: number;
}

interface HistogramState {
  /** Observations per bucket, not cumulative; the last slot is above every bound (+Inf only). */
  counts: Float64Array;
  sum: number;
  count: number;
  /** Per bucket as `counts`; made on the first traced observation. */
  exemplars: (Exemplar | undefined)[] | undefined;
}

/** A W3C trace id: what an exemplar's `trace_id` may hold (anything else is not rendered). */
const TRACE_ID = /^[0-9a-f]{32}$/;

export class HistogramFamily extends Family<HistogramState> {
  readonly type = "histogram";
  readonly buckets: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, labelNames);
    this.buckets = buckets;
  }

  observe(value: number, ...values: string[]): void {
    this.record(this.state(values), value);
  }

  /** An observation made within trace `traceId` (32 hex digits): its bucket's exemplar. */
  observeTraced(value: number, traceId: string, ...values: string[]): void {
    const state = this.state(values);
    const bucket = this.record(state, value);
    state.exemplars ??= new Array(this.buckets.length + 1);
    state.exemplars[bucket] = { traceId, value, at: Date.now() };
  }

  /** Counts `value`; returns its bucket. */
  private record(state: HistogramState, value: number): number {
    let bucket = 0;
    while (bucket < this.buckets.length && value > (this.buckets[bucket] as number)) bucket++;
    (state.counts[bucket] as number)++;
    state.sum += value;
    state.count++;
    return bucket;
  }

  protected fresh(): HistogramState {
    return { counts: new Float64Array(this.buckets.length + 1), sum: 0, count: 0, exemplars: undefined };
  }

  protected lines(labels: string, state: HistogramState, out: string[], format: MetricsFormat): void {
    const open = format.openMetrics;
    const prefix = labels ? `${this.name}_bucket{${labels},le="` : `${this.name}_bucket{le="`;
    const exemplars = open ? state.exemplars : undefined;
    let cumulative = 0;
    for (let index = 0; index <= this.buckets.length; index++) {
      const bound = this.buckets[index];
      cumulative += state.counts[index] as number;
      const le = bound === undefined ? "+Inf" : open ? openMetricsNumber(bound) : String(bound);
      const line = `${prefix}${le}"} ${bound === undefined ? state.count : cumulative}`;
      const exemplar = exemplars?.[index];
      out.push(
        exemplar && TRACE_ID.test(exemplar.traceId)
          ? `${line} # {trace_id="${exemplar.traceId}"} ${exemplar.value} ${(exemplar.at / 1000).toFixed(3)}`
          : line,
      );
    }
    out.push(`${sample(`${this.name}_sum`, labels)} ${state.sum}`);
    out.push(`${sample(`${this.name}_count`, labels)} ${state.count}`);
  }
}

/** OpenMetrics writes bucket bounds as floats (`1.0`, not `1`), as its reference clients do. */
function openMetricsNumber(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/**
 * A gauge or counter whose samples are read from their owner when scraped (the sync's staleness,
 * the breakers' states). `collect` yields each series' label values (one per label name) and value.
 */
export class CollectedFamily implements RenderedFamily {
  readonly name: string;
  readonly type: "gauge" | "counter";
  readonly help: string;
  readonly labelNames: readonly string[];
  private readonly collect: () => Iterable<readonly [readonly string[], number]>;

  constructor(
    description: { name: string; type: "gauge" | "counter"; help: string; labelNames: readonly string[] },
    collect: () => Iterable<readonly [readonly string[], number]>,
  ) {
    this.name = description.name;
    this.type = description.type;
    this.help = description.help;
    this.labelNames = description.labelNames;
    this.collect = collect;
  }

  render(out: string[], format: MetricsFormat): void {
    writeHeader(out, format, this);
    for (const [values, value] of this.collect()) {
      const labels = this.labelNames.map((name, index) => `${name}="${escapeLabel(values[index] ?? "")}"`).join(",");
      out.push(`${sample(this.name, labels)} ${value}`);
    }
  }
}
