/**
 * How many cases a fuzz target tries, and from which seed. CI replays the same cases on every run
 * (a fixed seed): a red CI then means a regression, reproducible from the log, never a new case
 * found by chance. New cases come from exploring: `ATRIUM_FUZZ_SEED=random` (or any number)
 * draws others, as the long runs behind docs/reliability.md do; what they find is fixed, with a
 * regression test beside the code.
 */

/** The seed CI replays. Changing it is a deliberate act: the new cases must pass first. */
export const CI_FUZZ_SEED = 20_261_124;

export type FuzzParameters = { numRuns: number; seed: number };

/** `ATRIUM_FUZZ_RUNS` (default `defaultRuns`) and `ATRIUM_FUZZ_SEED` (default the CI seed; `random` for a fresh one), printed so a run can be replayed. */
export function fuzzParameters(defaultRuns: number, env: NodeJS.ProcessEnv = process.env): FuzzParameters {
  const numRuns = env.ATRIUM_FUZZ_RUNS === undefined ? defaultRuns : Number(env.ATRIUM_FUZZ_RUNS);
  if (!Number.isSafeInteger(numRuns) || numRuns < 1) {
    throw new Error(`ATRIUM_FUZZ_RUNS must be a positive integer, got ${JSON.stringify(env.ATRIUM_FUZZ_RUNS)}`);
  }
  const asked = env.ATRIUM_FUZZ_SEED;
  const seed =
    asked === undefined || asked === ""
      ? CI_FUZZ_SEED
      : asked === "random"
        ? Math.floor(Math.random() * 2 ** 31)
        : Number(asked);
  if (!Number.isSafeInteger(seed)) {
    throw new Error(`ATRIUM_FUZZ_SEED must be an integer or "random", got ${JSON.stringify(asked)}`);
  }
  console.log(`fuzz: ${numRuns} runs from seed ${seed} (ATRIUM_FUZZ_SEED=${seed} replays them)`);
  return { numRuns, seed };
}
