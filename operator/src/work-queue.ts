/**
 * The per-key work queue between informers and reconciles (client-go's workqueue semantics):
 *
 * - a key is queued at most once (adding it again while it waits is a no-op);
 * - a key is handed to one worker at a time; added while in flight, it is queued again once
 *   that worker calls `done`, so the newest state is always reconciled, never concurrently;
 * - `addRateLimited` retries with per-key exponential backoff and a shared token bucket;
 *   `forget` resets a key's backoff after a success.
 */
import { type BackoffOptions, KeyedBackoff, TokenBucket } from "./backoff.ts";

export interface WorkQueueOptions extends BackoffOptions {
  /** Sustained retries per second across all keys, and the burst above it. */
  ratePerSecond: number;
  burst: number;
}

export class WorkQueue {
  /** Keys ready to be handed out, in arrival order (a Set keeps both order and uniqueness). */
  readonly #ready = new Set<string>();
  /** Keys needing a reconcile: waiting in #ready, or re-added while in flight. */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  readonly #waiters: ((key: string | undefined) => void)[] = [];
  readonly #backoff: KeyedBackoff;
  readonly #bucket: TokenBucket;
  #shutDown = false;

  constructor(options: WorkQueueOptions) {
    this.#backoff = new KeyedBackoff(options);
    this.#bucket = new TokenBucket(options.ratePerSecond, options.burst);
  }

  /** Keys waiting for a worker (not those in flight or delayed). */
  get depth(): number {
    return this.#ready.size;
  }

  /** Keys delayed for a retry. */
  get delayed(): number {
    return this.#delayed.size;
  }

  add(key: string): void {
    if (this.#shutDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    this.#push(key);
  }

  /** Adds `key` after `delayMs`; an earlier pending add of the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.#shutDown) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + delayMs;
    const pending = this.#delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.#delayed.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.#delayed.set(key, { at, timer });
  }

  /** Retries `key` after its backoff (or later, when retries across keys exceed the rate). Returns the delay. */
  addRateLimited(key: string): number {
    const delay = Math.max(this.#backoff.next(key), this.#bucket.reserve());
    this.addAfter(key, delay);
    return delay;
  }

  /** Resets the backoff of `key` (after a success). */
  forget(key: string): void {
    this.#backoff.forget(key);
  }

  /** How many times in a row `key` has been retried. */
  failures(key: string): number {
    return this.#backoff.failures(key);
  }

  /** The next key to reconcile; waits for one. `undefined` once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.#shutDown) return Promise.resolve(undefined);
    const key = this.#take();
    if (key !== undefined) return Promise.resolve(key);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Marks the reconcile of `key` finished; a key added meanwhile is queued again. */
  done(key: string): void {
    this.#processing.delete(key);
    if (this.#dirty.has(key) && !this.#shutDown) this.#push(key);
  }

  /** Drops every waiting and delayed key; keys in flight finish and are not queued again. */
  clear(): void {
    this.#ready.clear();
    this.#dirty.clear();
    for (const { timer } of this.#delayed.values()) clearTimeout(timer);
    this.#delayed.clear();
    this.#backoff.clear();
  }

  /** Stops handing out keys; waiting `get` calls resolve with undefined. */
  shutDown(): void {
    this.#shutDown = true;
    this.clear();
    for (const waiter of this.#waiters.splice(0)) waiter(undefined);
  }

  #push(key: string): void {
    const waiter = this.#waiters.shift();
    if (waiter) {
      this.#start(key);
      waiter(key);
      return;
    }
    this.#ready.add(key);
  }

  #take(): string | undefined {
    const next = this.#ready.values().next();
    if (next.done) return undefined;
    this.#ready.delete(next.value);
    this.#start(next.value);
    return next.value;
  }

  #start(key: string): void {
    this.#dirty.delete(key);
    this.#processing.add(key);
  }
}
