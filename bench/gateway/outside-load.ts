/**
 * Other people's processes on a shared machine: wait until they leave it quiet before timing
 * anything, and repeat a run during which they used more than a tenth of a core (keeping the
 * least disturbed one). Used by the hot path, the scale checks and the first-call timings.
 */
import { othersCpu, processTimes } from "./processes.ts";

/** Other processes using more than this share of a core during a run get the run repeated. */
const OUTSIDE_LOAD_LIMIT = 0.1;
/** Tries of a run disturbed by other processes (the first and three repeats). */
export const UNDISTURBED_ATTEMPTS = 4;

/**
 * Runs `measure` once the machine is quiet, until other processes (someone's test run, say) used
 * less than OUTSIDE_LOAD_LIMIT of a core meanwhile, at most `attempts` times; keeps the least
 * disturbed run.
 */
export async function undisturbed<T>(
  name: string,
  attempts: number,
  progress: (message: string) => void,
  measure: () => Promise<T>,
): Promise<{ value: T; others: number; repeated: number }> {
  let best: { value: T; others: number } | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempts > 1) await quiet(progress);
    const before = processTimes();
    const started = performance.now();
    const value = await measure();
    const others = othersCpu(before, processTimes());
    const cores = others.micros / ((performance.now() - started) * 1000);
    if (!best || cores < best.others) best = { value, others: cores };
    if (cores <= OUTSIDE_LOAD_LIMIT) return { ...best, repeated: attempt - 1 };
    const users = others.top.map((user) => `${user.command} ${Math.round((user.micros / others.micros) * 100)} %`);
    progress(
      `${name}: other processes used ${Math.round(cores * 100)} % of a core (${users.join("; ")})${attempt < attempts ? ": once more" : ": keeping the least disturbed run"}`,
    );
  }
  return { ...(best as { value: T; others: number }), repeated: attempts - 1 };
}

/** Waits (at most `maxWaitMs`) for two quiet seconds in a row: other processes under OUTSIDE_LOAD_LIMIT. */
export async function quiet(progress: (message: string) => void, maxWaitMs = 90_000): Promise<void> {
  const deadline = performance.now() + maxWaitMs;
  let quietSeconds = 0;
  let told = false;
  while (quietSeconds < 2 && performance.now() < deadline) {
    const before = processTimes();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const busy = othersCpu(before, processTimes()).micros / 1_000_000;
    quietSeconds = busy <= OUTSIDE_LOAD_LIMIT ? quietSeconds + 1 : 0;
    if (quietSeconds === 0 && !told) {
      progress(`waiting (at most ${maxWaitMs / 1000} s) for other processes to leave the machine quiet`);
      told = true;
    }
  }
}
