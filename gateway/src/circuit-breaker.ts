/**
 * Backend circuit breakers, one per plan and backend origin: one organization's failing backend
 * never opens another plan's breaker, even on the same origin. Each gateway replica keeps its own.
 *
 * Closed, calls go through and the failures to reach the backend (connection refused or reset,
 * timeout) are counted; an HTTP answer of any status resets the count. At `consecutiveFailures`
 * it opens: calls are refused at once, without touching the backend, for `coolDownSeconds`. Then
 * it is half-open: the next call is a trial and the calls during it are refused; the trial's
 * success closes it, its failure opens it again.
 *
 * Calls are in flight concurrently: an outcome only counts for the closed period it was admitted
 * in (calls admitted before an open that end after it change nothing), and only the trial's
 * outcome decides a half-open breaker.
 */
import { randomBytes } from "node:crypto";
import type { CircuitBreakerSettings } from "@atrium/crds";

export const CIRCUIT_STATES = ["closed", "open", "half_open"] as const;
export type CircuitState = (typeof CIRCUIT_STATES)[number];

/** What a call's outcome says of the backend: reached, not reached, or nothing (it was never sent). */
export type CallVerdict = "reached" | "unreachable" | "neutral";

/** A breaker's change, reported to the call that caused it (metrics, audit, log). */
export type CircuitTransition = "opened" | "closed";

/** An admitted call: the closed period it belongs to (the breaker's count of opens then), or TRIAL. */
export type Ticket = number;
export const TRIAL: Ticket = -1;

export interface Refusal {
  /** Whole seconds until a call may go through again (at least 1). */
  retryAfterSeconds: number;
  /** The id of the log line that recorded the open, with the backend and the last failure. */
  correlationId: string;
}

/** While a trial is in flight, the calls refused meanwhile are told to come back in a second. */
const DURING_TRIAL_SECONDS = 1;

/** Milliseconds on a monotonic clock (tests inject their own). */
export type Clock = () => number;

export class CircuitBreaker {
  private state: "closed" | "open" | "trial" = "closed";
  private failures = 0;
  /** Times it opened: the closed period a ticket belongs to. */
  private opens = 0;
  private openUntil = 0;
  /** A trial whose call was never sent (neutral) leaves the next call to be the trial. */
  private trialInFlight = false;
  private openedAs = "";
  /** Read only off the closed path: a closed breaker's calls never look at the time. */
  private readonly now: Clock;

  constructor(now: Clock) {
    this.now = now;
  }

  /** The state to report: an open breaker past its cool-down is half-open (its next call is the trial). */
  get current(): CircuitState {
    if (this.state === "closed") return "closed";
    return this.state === "open" && this.now() < this.openUntil ? "open" : "half_open";
  }

  admit(): Ticket | Refusal {
    if (this.state === "closed") return this.opens;
    const now = this.now();
    if (this.state === "open" && now < this.openUntil) {
      return {
        retryAfterSeconds: Math.max(1, Math.ceil((this.openUntil - now) / 1000)),
        correlationId: this.openedAs,
      };
    }
    if (this.trialInFlight) return { retryAfterSeconds: DURING_TRIAL_SECONDS, correlationId: this.openedAs };
    this.state = "trial";
    this.trialInFlight = true;
    return TRIAL;
  }

  /** Records an admitted call's verdict; returns the change it caused, if any. */
  record(ticket: Ticket, verdict: CallVerdict, settings: CircuitBreakerSettings): CircuitTransition | undefined {
    if (ticket === TRIAL) {
      this.trialInFlight = false;
      if (verdict === "reached") return this.close();
      if (verdict === "unreachable") return this.open(settings);
      return undefined;
    }
    if (this.state !== "closed" || ticket !== this.opens || verdict === "neutral") return undefined;
    if (verdict === "reached") {
      this.failures = 0;
      return undefined;
    }
    this.failures++;
    return this.failures >= settings.consecutiveFailures ? this.open(settings) : undefined;
  }

  /** The correlation id of the current open (its log line). */
  get correlationId(): string {
    return this.openedAs;
  }

  private open(settings: CircuitBreakerSettings): CircuitTransition {
    this.state = "open";
    this.opens++;
    this.openUntil = this.now() + settings.coolDownSeconds * 1000;
    this.openedAs = randomBytes(8).toString("hex");
    return "opened";
  }

  private close(): CircuitTransition {
    this.state = "closed";
    this.failures = 0;
    return "closed";
  }
}

/** The breakers of one gateway, by plan id, then backend origin (no key string built per call). */
export class CircuitBreakers {
  private readonly plans = new Map<string, Map<string, CircuitBreaker>>();
  private readonly now: Clock;

  constructor(now: Clock = () => performance.now()) {
    this.now = now;
  }

  of(planId: string, origin: string): CircuitBreaker {
    let origins = this.plans.get(planId);
    if (!origins) {
      origins = new Map();
      this.plans.set(planId, origins);
    }
    let breaker = origins.get(origin);
    if (!breaker) {
      breaker = new CircuitBreaker(this.now);
      origins.set(origin, breaker);
    }
    return breaker;
  }

  /** The state of a plan's breaker for an origin; closed when it has none yet. */
  stateOf(planId: string, origin: string): CircuitState {
    return this.plans.get(planId)?.get(origin)?.current ?? "closed";
  }

  /** Drops the breakers of plans and origins no longer served (called at scrape time, so they do not pile up). */
  keepOnly(served: Iterable<{ planId: string; origin: string }>): void {
    const kept = new Map<string, Set<string>>();
    for (const { planId, origin } of served) kept.set(planId, (kept.get(planId) ?? new Set()).add(origin));
    for (const [planId, origins] of this.plans) {
      const keep = kept.get(planId);
      for (const origin of origins.keys()) if (!keep?.has(origin)) origins.delete(origin);
      if (origins.size === 0) this.plans.delete(planId);
    }
  }
}

export function isRefusal(admission: Ticket | Refusal): admission is Refusal {
  return typeof admission !== "number";
}
