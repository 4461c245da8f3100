/**
 * The verification cache: a token verified once is not checked again until it expires, the
 * cache is bounded with the least recently used token dropped first, and discovery that fails
 * is not retried on every request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BearerVerifier } from "./bearer.ts";
import { IssuerKeys } from "./issuer-keys.ts";
import { AuthRefusal } from "./refusals.ts";
import { startAuthorizationServer, type TestAuthorizationServer } from "./testing.ts";

let as: TestAuthorizationServer;
beforeAll(async () => {
  as = await startAuthorizationServer();
});
afterAll(async () => {
  await as?.close();
});

/** A verifier whose key lookups (one per signature check) are counted. */
function countingVerifier(cacheSize: number) {
  const keys = new IssuerKeys(as.issuer, as.jwksUri, { cooldownMs: 0, maxAgeMs: 60_000, timeoutMs: 2_000 });
  const counter = { checks: 0 };
  const getKey = keys.getKey.bind(keys);
  keys.getKey = () => {
    counter.checks += 1;
    return getKey();
  };
  return { verifier: new BearerVerifier(keys, cacheSize), counter };
}

describe("BearerVerifier", () => {
  it("checks a token's signature once, then answers from the cache until it expires", async () => {
    const { verifier, counter } = countingVerifier(10);
    const token = await as.mint({ aud: "x" });
    const first = await verifier.verify(token);
    expect(await verifier.verify(token)).toBe(first);
    expect(counter.checks).toBe(1);
    expect(first).toMatchObject({ issuer: as.issuer, subject: "alice", audiences: ["x"] });
    expect([...first.scopes]).toContain("tools:read");
  });

  it("drops the least recently used token when full", async () => {
    const { verifier, counter } = countingVerifier(2);
    const [a, b, c] = await Promise.all([as.mint({ sub: "a" }), as.mint({ sub: "b" }), as.mint({ sub: "c" })]);
    await verifier.verify(a as string);
    await verifier.verify(b as string);
    await verifier.verify(a as string); // a is now the most recently used
    await verifier.verify(c as string); // evicts b
    expect(counter.checks).toBe(3);
    await verifier.verify(a as string);
    expect(counter.checks).toBe(3);
    await verifier.verify(b as string);
    expect(counter.checks).toBe(4);
  });

  it("refuses a cached token once it has expired (past the clock tolerance)", async () => {
    const { verifier } = countingVerifier(10);
    const exp = Math.floor(Date.now() / 1000) - 58;
    const token = await as.mint({ exp });
    await verifier.verify(token);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 401, reason: "invalid_token" });
  });

  it("does not ask an unreachable issuer again on every request while discovery fails", async () => {
    const keys = new IssuerKeys("http://127.0.0.1:9", undefined, { cooldownMs: 0, maxAgeMs: 1, timeoutMs: 500 });
    const verifier = new BearerVerifier(keys, 10);
    const token = await as.mint({ iss: "http://127.0.0.1:9" });
    const first = await verifier.verify(token).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(AuthRefusal);
    expect(first).toMatchObject({ status: 503, reason: "keys_unavailable" });
    expect(keys.problem).toMatch(/no usable authorization server metadata/);
    const started = performance.now();
    await expect(verifier.verify(token)).rejects.toMatchObject({ status: 503 });
    expect(performance.now() - started).toBeLessThan(50);
  });
});
