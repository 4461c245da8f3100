import { describe, expect, it } from "vitest";
import { CI_FUZZ_SEED, fuzzParameters } from "./fuzz.ts";

describe("fuzzParameters", () => {
  it("replays CI's seed by default, draws one on request, and refuses what is no count or seed", () => {
    expect(fuzzParameters(10, {})).toEqual({ numRuns: 10, seed: CI_FUZZ_SEED });
    expect(fuzzParameters(10, { ATRIUM_FUZZ_RUNS: "5", ATRIUM_FUZZ_SEED: "42" })).toEqual({ numRuns: 5, seed: 42 });
    const drawn = [1, 2, 3, 4].map(() => fuzzParameters(1, { ATRIUM_FUZZ_SEED: "random" }).seed);
    expect(new Set(drawn).size).toBeGreaterThan(1);
    expect(() => fuzzParameters(10, { ATRIUM_FUZZ_RUNS: "many" })).toThrow(
      /ATRIUM_FUZZ_RUNS must be a positive integer/,
    );
    expect(() => fuzzParameters(10, { ATRIUM_FUZZ_SEED: "1.5" })).toThrow(
      /ATRIUM_FUZZ_SEED must be an integer or "random"/,
    );
  });
});
