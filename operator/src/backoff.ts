/**
 * Retry pacing: an exponential backoff per key (the shared, jittered `backoffDelay`) and a token
 * bucket shared by every retry, so a control-plane outage does not turn into a retry storm.
 */
import { backoffDelay } from "@atrium/contract/backoff";

export interface BackoffOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Where jitter comes from (tests pass `() => 1` for exact delays). */
  random?: () => number;
}

/** Exponential backoff remembered per key until `forget`. */
export class KeyedBackoff {
  readonly #options: BackoffOptions;
  readonly #failures = new Map<string, number>();

  constructor(options: BackoffOptions) {
    this.#options = options;
  }

  /** The delay before the next attempt for `key`, counting this failure. */
  next(key: string): number {
    const failures = this.#failures.get(key) ?? 0;
    this.#failures.set(key, failures + 1);
    const { baseDelayMs, maxDelayMs, random } = this.#options;
    return Math.round(backoffDelay(failures, { baseMs: baseDelayMs, maxMs: maxDelayMs, random }));
  }

  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  forget(key: string): void {
    this.#failures.delete(key);
  }

  clear(): void {
    this.#failures.clear();
  }
}

/** A token bucket handing out reservations: the delay until the reserved token is available. */
export class TokenBucket {
  readonly #ratePerSecond: number;
  readonly #burst: number;
  #tokens: number;
  #updatedAt: number;
  readonly #now: () => number;

  constructor(ratePerSecond: number, burst: number, now: () => number = Date.now) {
    this.#ratePerSecond = ratePerSecond;
    this.#burst = burst;
    this.#tokens = burst;
    this.#now = now;
    this.#updatedAt = now();
  }

  /** Takes a token (possibly one not yet refilled) and returns how long to wait for it, in ms. */
  reserve(): number {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#updatedAt) / 1000) * this.#ratePerSecond);
    this.#updatedAt = now;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.#ratePerSecond) * 1000);
  }
}
