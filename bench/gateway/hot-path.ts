/**
 * The hot-path measurement of run.ts. All contestants are started first (each its own child
 * process on the contestant core; the ones not being loaded sit idle), checked and warmed up;
 * then the load runs in rounds, every contestant once per round, in an order rotated each
 * round. Neighbours on a shared (virtual) machine drift over minutes; interleaving puts each
 * atrium run next to a pass-through run, so a ratio is taken between runs seconds apart.
 *
 * Per contestant: throughput at N connections (the median round, and min–max), CPU µs per call
 * of its process over all rounds (/proc/<pid>/stat), busy share of each core, latency at 1
 * connection (pooled over the rounds), RSS idle and after load, non-2xx and errors.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, Contestant, RunningContestant } from "./contestants.ts";
import { type LoadResult, median, summarize } from "./load.ts";
import { UNDISTURBED_ATTEMPTS, undisturbed } from "./outside-load.ts";
import { coreBusy, coreTimes, cpuMicros, memoryMb } from "./processes.ts";
import { monotonicMicros, profileMarkdown, summarizeCpuProfile, type Window } from "./profile.ts";
import type { ContestantResult, RunSettings } from "./report.ts";

interface Tally {
  contestant: Contestant;
  kind: ContestantResult["kind"];
  running: RunningContestant | undefined;
  failure?: string;
  idleRssMb: number;
  rssMb: number;
  rounds: LoadResult[];
  latency: LoadResult[];
  cpuMicros: number;
  coreBusy: number[][];
  /** Cores' worth of CPU that other processes on the machine used, per round. */
  others: number[];
  /** Runs repeated because other processes loaded the machine. */
  repeated: number;
  windows: Window[];
}

/** Runs `step`; a failure marks the contestant failed (and stops it) instead of ending the benchmark. */
async function guarded(tally: Tally, what: string, progress: (m: string) => void, step: () => Promise<void>) {
  if (tally.failure) return;
  try {
    await step();
  } catch (error) {
    tally.failure = `${what}: ${(error as Error).message}`;
    progress(`${tally.contestant.name} FAILED (${what}): ${(error as Error).stack}`);
    await tally.running?.close().catch(() => undefined);
    tally.running = undefined;
  }
}

export async function measureHotPath(
  contestants: { contestant: Contestant; kind: ContestantResult["kind"] }[],
  context: BenchContext,
  settings: RunSettings,
  progress: (message: string) => void,
): Promise<ContestantResult[]> {
  // A smoke run measures nothing worth waiting for.
  const attempts = settings.quick ? 1 : (settings.attempts ?? UNDISTURBED_ATTEMPTS);
  const tallies: Tally[] = contestants.map(({ contestant, kind }) => ({
    contestant,
    kind,
    running: undefined,
    idleRssMb: Number.NaN,
    rssMb: Number.NaN,
    rounds: [],
    latency: [],
    cpuMicros: 0,
    coreBusy: [],
    others: [],
    repeated: 0,
    windows: [],
  }));
  try {
    for (const tally of tallies) {
      await guarded(tally, "start", progress, async () => {
        progress(`${tally.contestant.name}: starting`);
        tally.running = await tally.contestant.start(context);
        await tally.running.verify();
        tally.idleRssMb = memoryMb(tally.running.child.pid).rss;
      });
    }
    for (const tally of tallies) {
      await guarded(tally, "warm-up", progress, async () => {
        await tally.running?.load({ connections: settings.connections, seconds: settings.warmupSeconds });
      });
    }
    for (let round = 0; round < settings.rounds; round++) {
      const order = tallies.map((_, i) => tallies[(i + round) % tallies.length] as Tally);
      progress(
        `round ${round + 1}/${settings.rounds}: ${settings.connections} connections, ${settings.seconds} s each, then 1 connection, ${settings.latencySeconds} s each`,
      );
      for (const tally of order) {
        await guarded(tally, `throughput round ${round + 1}`, progress, async () => {
          const running = tally.running as RunningContestant;
          const measured = await undisturbed(tally.contestant.name, attempts, progress, async () => {
            const cpuBefore = cpuMicros(running.child.pid);
            const coresBefore = coreTimes();
            const fromUs = monotonicMicros();
            const result = await running.load({ connections: settings.connections, seconds: settings.seconds });
            return {
              result,
              window: { fromUs, toUs: monotonicMicros() },
              cpuMicros: cpuMicros(running.child.pid) - cpuBefore,
              cores: coreBusy(coresBefore, coreTimes()),
            };
          });
          tally.windows.push(measured.value.window);
          tally.cpuMicros += measured.value.cpuMicros;
          tally.coreBusy.push(measured.value.cores);
          tally.others.push(measured.others);
          tally.repeated += measured.repeated;
          tally.rssMb = memoryMb(running.child.pid).rss;
          tally.rounds.push({ ...measured.value.result, latencies: [] });
        });
      }
      for (const tally of order) {
        await guarded(tally, `latency round ${round + 1}`, progress, async () => {
          const running = tally.running as RunningContestant;
          const measured = await undisturbed(tally.contestant.name, attempts, progress, () =>
            running.load({ connections: 1, seconds: settings.latencySeconds }),
          );
          tally.repeated += measured.repeated;
          tally.latency.push(measured.value);
        });
      }
    }
    for (const tally of tallies) {
      // Still answering correctly after all that load.
      await guarded(tally, "final check", progress, async () => tally.running?.verify());
    }
  } finally {
    await Promise.all(tallies.map((tally) => tally.running?.close().catch(() => undefined)));
  }
  return tallies.map(resultOf);
}

function resultOf(tally: Tally): ContestantResult {
  const { contestant } = tally;
  const roundsPerSecond = tally.rounds.map((r) => r.perSecond);
  const calls = tally.rounds.reduce((sum, r) => sum + r.calls, 0);
  const throughput = tally.rounds.length
    ? {
        ...summarize(
          [],
          tally.rounds.reduce((sum, r) => sum + r.seconds, 0),
          tally.rounds.reduce((sum, r) => sum + r.non2xx, 0),
          tally.rounds.reduce((sum, r) => sum + r.errors, 0),
        ),
        calls,
        perSecond: median(roundsPerSecond),
      }
    : undefined;
  const latency = tally.latency.length
    ? summarize(
        tally.latency.flatMap((r) => r.latencies),
        tally.latency.reduce((sum, r) => sum + r.seconds, 0),
        tally.latency.reduce((sum, r) => sum + r.non2xx, 0),
        tally.latency.reduce((sum, r) => sum + r.errors, 0),
      )
    : undefined;
  const cores = tally.coreBusy[0]?.map((_, core) => median(tally.coreBusy.map((busy) => busy[core] ?? Number.NaN)));
  const result: ContestantResult = {
    name: contestant.name,
    description: contestant.description,
    kind: tally.kind,
    ...(contestant.auth ? { auth: contestant.auth } : {}),
    ...(contestant.era ? { era: contestant.era } : {}),
    ...(contestant.protocol ? { protocol: contestant.protocol } : {}),
    ...(contestant.backendToken ? { backendToken: contestant.backendToken } : {}),
    ...(contestant.tracingRatio !== undefined ? { tracingRatio: contestant.tracingRatio } : {}),
    ...(contestant.replicaOf ? { replicaOf: contestant.replicaOf } : {}),
    ...(tally.failure ? { failure: tally.failure } : {}),
    throughput,
    roundsPerSecond,
    latency: latency && { ...latency, latencies: [] },
    cpuMicrosPerCall: calls > 0 ? tally.cpuMicros / calls : Number.NaN,
    coresBusy: cores ?? [],
    othersBusy: median(tally.others),
    repeatedRuns: tally.repeated,
    idleRssMb: tally.idleRssMb,
    rssMb: tally.rssMb,
  };
  // A profiled process writes its profile when it exits (closed above).
  const profileDir = tally.running?.profileDir;
  const file = profileDir && readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
  if (profileDir && file) {
    result.profile = profileMarkdown(contestant.name, summarizeCpuProfile(join(profileDir, file), tally.windows));
  }
  return result;
}
