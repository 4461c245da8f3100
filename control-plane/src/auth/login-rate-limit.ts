/**
 * Login rate limits: failed logins are counted per user (organization + user name) and per
 * source address in fixed windows; past the limit, every login attempt for that user or from
 * that address is answered 429 with Retry-After until the window ends, even with the right
 * password. A success clears the user's count. Counts live in each replica's memory, bounded
 * in size: with n replicas behind a balancer an attacker gets at most n times the limit.
 */
import { errors } from "../errors.ts";

export interface Limit {
  failures: number;
  windowSeconds: number;
}

const WINDOW_SECONDS = 15 * 60;

/** The limits for `ATRIUM_LOGIN_MAX_FAILURES_PER_USER` / `_PER_ADDRESS` (defaults 10 and 50). */
export function loginLimits(maxFailures: { perUser: number; perAddress: number }) {
  return {
    perUser: { failures: maxFailures.perUser, windowSeconds: WINDOW_SECONDS },
    perAddress: { failures: maxFailures.perAddress, windowSeconds: WINDOW_SECONDS },
  };
}

/** Enough for a busy control plane; beyond it the oldest windows are forgotten first. */
const MAX_TRACKED_KEYS = 100_000;

interface Window {
  failures: number;
  endsAt: number;
}

export class LoginRateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly limits: { perUser: Limit; perAddress: Limit };

  constructor(limits: { perUser: Limit; perAddress: Limit }) {
    this.limits = limits;
  }

  /** Throws a 429 when the user or the address is over its limit. */
  check(user: string, address: string, now = Date.now()): void {
    const waits = [
      this.waitSeconds(userKey(user), this.limits.perUser, now),
      this.waitSeconds(addressKey(address), this.limits.perAddress, now),
    ];
    const wait = Math.max(...waits);
    if (wait > 0) throw errors.tooManyLoginAttempts(wait);
  }

  recordFailure(user: string, address: string, now = Date.now()): void {
    this.count(userKey(user), this.limits.perUser, now);
    this.count(addressKey(address), this.limits.perAddress, now);
  }

  recordSuccess(user: string): void {
    this.windows.delete(userKey(user));
  }

  private waitSeconds(key: string, limit: Limit, now: number): number {
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now || window.failures < limit.failures) return 0;
    return Math.ceil((window.endsAt - now) / 1000);
  }

  private count(key: string, limit: Limit, now: number): void {
    const current = this.windows.get(key);
    if (current && current.endsAt > now) {
      current.failures += 1;
      return;
    }
    this.windows.delete(key);
    if (this.windows.size >= MAX_TRACKED_KEYS) this.forgetOldest(now);
    this.windows.set(key, { failures: 1, endsAt: now + limit.windowSeconds * 1000 });
  }

  /** Expired windows first; if none, the oldest (Map keeps insertion order). */
  private forgetOldest(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    if (this.windows.size < MAX_TRACKED_KEYS) return;
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}

const userKey = (user: string) => `user ${user}`;
const addressKey = (address: string) => `address ${address}`;
