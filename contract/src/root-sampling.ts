/**
 * Sampling a request that continues no trace, decided before the SDK is asked (issue 24).
 *
 * At a low ratio the SDK's sampler drops most roots, yet asking the SDK for their spans costs
 * every request: a span id and a trace id drawn, the sampler run, a span object and the SDK's
 * own bookkeeping. The benchmark measured that at 1 % as most of tracing's cost. So Atrium draws
 * a root's trace id itself and runs the ratio sampler's own test on it (the one
 * `TraceIdRatioBasedSampler` runs: the four 32-bit words of the trace id XORed, below
 * ratio × 2³²−1):
 * - dropped: the request gets the `traceparent` of that trace id and a span id of its own, flagged
 *   unsampled, and the SDK is never called: no span object, no context. That header still goes to
 *   the backend (W3C asks to pass the context on).
 * - kept: the SDK's next span gets that very trace id (Atrium is the SDK's id generator), so the
 *   SDK's sampler, built from the same variables, comes to the same answer and records it.
 *
 * Only the samplers whose root decision is that test (or none) are decided here:
 * `traceidratio`, `parentbased_traceidratio`, `always_off` and `parentbased_always_off`. With any
 * other `OTEL_TRACES_SAMPLER` (or none: the SDK's default samples every root) the SDK decides.
 */
import { getNumberFromEnv, getStringFromEnv } from "@opentelemetry/core";

/** What the SDK takes as its `idGenerator`. */
export interface IdGenerator {
  generateTraceId(): string;
  generateSpanId(): string;
}

export class RootSampling {
  /** Roots whose trace id's test value is below this are kept; undefined when the SDK decides each root. */
  readonly #bound: number | undefined;
  /** The trace id of a root kept here, for the SDK's span started next. */
  #kept: string | undefined;

  /** The sampler is read once, from the variables the SDK reads (`OTEL_TRACES_SAMPLER`, `_ARG`). */
  constructor() {
    this.#bound = rootBound();
  }

  /** The SDK's id generator: random ids, except the trace id of a root kept by `dropped()`. */
  readonly ids: IdGenerator = {
    generateTraceId: () => {
      const kept = this.#kept;
      this.#kept = undefined;
      if (kept) return kept;
      randomWords(0, 4);
      return WORDS.toString("hex", 0, 16);
    },
    generateSpanId: () => {
      randomWords(0, 2);
      return WORDS.toString("hex", 0, 8);
    },
  };

  /**
   * For a request that continues no trace: the `traceparent` of its trace, flagged unsampled,
   * when the sampler drops it; else undefined, and then the caller starts the SDK's span right
   * away (synchronously), which takes the trace id drawn here.
   */
  dropped(): string | undefined {
    const bound = this.#bound;
    if (bound === undefined) return undefined;
    const test = randomWords(0, 4);
    randomWords(4, 2);
    const hex = WORDS.toString("hex", 0, 24);
    if (test < bound) {
      this.#kept = hex.slice(0, 32);
      return undefined;
    }
    return `00-${hex.slice(0, 32)}-${hex.slice(32)}-00`;
  }
}

/**
 * The bound of the sampler's root test, as the SDK builds its sampler from the environment
 * (sdk-node's createSamplerFromEnv, TraceIdRatioBasedSampler): a blank or out-of-range ratio is 1.
 */
function rootBound(): number | undefined {
  switch (getStringFromEnv("OTEL_TRACES_SAMPLER")) {
    case "always_off":
    case "parentbased_always_off":
      return 0;
    case "traceidratio":
    case "parentbased_traceidratio": {
      const ratio = getNumberFromEnv("OTEL_TRACES_SAMPLER_ARG");
      // A ratio of 1 (or one the SDK reads as 1) keeps every root: nothing to decide before it.
      if (ratio === undefined || ratio < 0 || ratio >= 1) return undefined;
      return Math.floor(ratio * 0xffffffff);
    }
    default:
      return undefined;
  }
}

/** A trace id's four 32-bit words, then a span id's two: hex-encoded in one call (the cheapest way measured). */
const WORDS = Buffer.allocUnsafe(24);

/**
 * Writes `count` random 32-bit words into WORDS from word `first` (4: a trace id, 2: a span id),
 * never all zero (W3C). Returns their XOR: for a trace id, the ratio sampler's test value.
 */
function randomWords(first: number, count: number): number {
  let test = 0;
  let any = 0;
  for (let i = first; i < first + count; i++) {
    const word = (Math.random() * 2 ** 32) >>> 0;
    WORDS.writeUInt32BE(word, i * 4);
    test = (test ^ word) >>> 0;
    any |= word;
  }
  if (any === 0) {
    WORDS.writeUInt32BE(1, (first + count - 1) * 4);
    test = (test ^ 1) >>> 0;
  }
  return test;
}
