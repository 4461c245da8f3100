/**
 * Retry pacing shared by the gateway (change stream, reports) and the operator (work queue,
 * informer restarts): exponential, capped, with jitter so that many clients failing together
 * (a control plane or API server restart) do not come back together.
 *
 * A function, not a retry loop: its callers schedule their own timers or queue delays, which
 * retry libraries (p-retry, exponential-backoff) that drive the call themselves do not fit.
 */

export interface BackoffPolicy {
  /** The delay after the first failure (attempt 0), before jitter. */
  baseMs: number;
  /** No delay exceeds this. */
  maxMs: number;
  /** Where jitter comes from; tests pass `() => 1` for the exact, unjittered delays. */
  random?: () => number;
}

/**
 * The delay before retrying after `attempt` earlier failures: base · 2^attempt, capped at max,
 * then "equal jitter" — between half of it and all of it.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy): number {
  // 2^30 already exceeds any sane cap; stop the exponent growing without bound.
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return ceiling * (0.5 + (policy.random ?? Math.random)() / 2);
}
