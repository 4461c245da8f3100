/**
 * TokenCache on its own, with a clock: one fetch for concurrent callers of a key, kept until
 * shortly before expiry, a failure not kept, a changed fingerprint fetching afresh, invalidation
 * of the refused token only, and the oldest key dropped past maxEntries (never one being fetched).
 */
import { describe, expect, it } from "vitest";
import { EXPIRY_MARGIN_MS, TokenCache } from "./token-cache.ts";
import type { IssuedToken, TokenFailure } from "./token-endpoint.ts";

function counter(lifetimeMs = 300_000) {
  const state = { fetches: 0 };
  const fetch = async (): Promise<IssuedToken> => {
    state.fetches += 1;
    return { kind: "token", token: `t${state.fetches}`, lifetimeMs };
  };
  return { state, fetch };
}

describe("TokenCache", () => {
  it("fetches once for concurrent callers, keeps the token until shortly before expiry", async () => {
    let now = 0;
    const cache = new TokenCache({ now: () => now });
    const { state, fetch } = counter();
    const got = await Promise.all(Array.from({ length: 5 }, () => cache.token("k", "f", fetch)));
    expect(new Set(got.map((g) => (g.kind === "token" ? g.token : g.kind)))).toEqual(new Set(["t1"]));
    now = 300_000 - EXPIRY_MARGIN_MS - 1;
    expect(await cache.token("k", "f", fetch)).toEqual({ kind: "token", token: "t1" });
    now += 1;
    expect(await cache.token("k", "f", fetch)).toEqual({ kind: "token", token: "t2" });
    expect(state.fetches).toBe(2);
  });

  it("keeps no failure, starts afresh on a changed fingerprint, and invalidates only the refused token", async () => {
    const cache = new TokenCache();
    const failure: TokenFailure = { kind: "error", forClient: "no", forLog: "no", details: {} };
    expect(await cache.token("k", "f", async () => failure)).toBe(failure);
    const { state, fetch } = counter();
    expect(await cache.token("k", "f", fetch)).toEqual({ kind: "token", token: "t1" });
    expect(await cache.token("k", "g", fetch)).toEqual({ kind: "token", token: "t2" });
    cache.invalidate("k", "t1"); // an older token: the current one stays
    expect(await cache.token("k", "g", fetch)).toEqual({ kind: "token", token: "t2" });
    cache.invalidate("k", "t2");
    expect(await cache.token("k", "g", fetch)).toEqual({ kind: "token", token: "t3" });
    expect(state.fetches).toBe(3);
  });

  it("drops the oldest key past maxEntries", async () => {
    const cache = new TokenCache({ maxEntries: 2 });
    const { state, fetch } = counter();
    await cache.token("a", "f", fetch);
    await cache.token("b", "f", fetch);
    await cache.token("c", "f", fetch); // drops a
    expect(state.fetches).toBe(3);
    await cache.token("b", "f", fetch);
    await cache.token("c", "f", fetch);
    expect(state.fetches).toBe(3);
    await cache.token("a", "f", fetch);
    expect(state.fetches).toBe(4);
  });
});
