/** The shared retry pacing: exponential up to the cap, jittered between half and all of it. */
import { describe, expect, it } from "vitest";
import { backoffDelay } from "./backoff.ts";

describe("backoffDelay", () => {
  it("doubles from the base up to the cap", () => {
    const policy = { baseMs: 10, maxMs: 80, random: () => 1 };
    expect([0, 1, 2, 3, 4, 50, 5000].map((attempt) => backoffDelay(attempt, policy))).toEqual([
      10, 20, 40, 80, 80, 80, 80,
    ]);
  });

  it("is jittered between half and all of the exponential delay", () => {
    expect(backoffDelay(2, { baseMs: 100, maxMs: 1000, random: () => 0 })).toBe(200);
    const delays = Array.from({ length: 200 }, () => backoffDelay(2, { baseMs: 100, maxMs: 1000 }));
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(200);
      expect(delay).toBeLessThanOrEqual(400);
    }
    // Jitter spreads the retries: not all the same.
    expect(new Set(delays).size).toBeGreaterThan(100);
  });
});
