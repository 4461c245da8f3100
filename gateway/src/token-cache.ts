/**
 * Backend tokens kept on this replica, by key (a plan, or a plan and a caller): each until shortly
 * before it expires (its lifetime minus a margin), with one request at most in flight per key,
 * every caller needing the token meanwhile waiting on the same promise. A failed request is not
 * kept: the next call tries again. A changed fingerprint (the plan's settings or secret) starts
 * afresh. Past `maxEntries` keys, the oldest entry goes.
 */
import type { IssuedToken, TokenFailure, TokenOutcome } from "./token-endpoint.ts";

/** A token is refreshed this long before it expires (a tenth of its lifetime when that is shorter). */
export const EXPIRY_MARGIN_MS = 30_000;

interface Entry {
  fingerprint: string;
  token?: string;
  /** When the token is due for refresh (ms, the clock given). */
  refreshAt: number;
  pending?: Promise<TokenOutcome>;
}

export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
  }

  /** A valid token for `key`: the cached one, the one being fetched, or one `fetch` gets. */
  token(key: string, fingerprint: string, fetch: () => Promise<IssuedToken | TokenFailure>): Promise<TokenOutcome> {
    let entry = this.entries.get(key);
    if (entry?.fingerprint !== fingerprint) {
      entry = { fingerprint, refreshAt: 0 };
      this.entries.delete(key);
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.evictOldest();
    }
    if (entry.token !== undefined && this.now() < entry.refreshAt)
      return Promise.resolve({ kind: "token", token: entry.token });
    if (entry.pending) return entry.pending;
    const current = entry;
    current.pending = fetch().then((outcome) => {
      current.pending = undefined;
      if (outcome.kind === "token") {
        current.token = outcome.token;
        current.refreshAt = this.now() + outcome.lifetimeMs - Math.min(EXPIRY_MARGIN_MS, outcome.lifetimeMs / 10);
        return { kind: "token", token: outcome.token };
      }
      current.token = undefined;
      return outcome;
    });
    return current.pending;
  }

  /** The backend refused `token`: the next call for the key gets a new one (unless one is already coming). */
  invalidate(key: string, token: string): void {
    const entry = this.entries.get(key);
    if (entry?.token === token) entry.token = undefined;
  }

  /** The oldest entry not waiting for its token (a waiting one's callers hold it anyway). */
  private evictOldest(): void {
    for (const [key, entry] of this.entries) {
      if (entry.pending) continue;
      this.entries.delete(key);
      return;
    }
  }
}
