/**
 * What one plan setting costs, measured inside ONE gateway process: it serves the same pets
 * Exposition several times, each under a plan that differs by that setting (client auth, the
 * circuit breaker, ...), and the runner loads each in turn, in rounds rotated so that no variant
 * always runs first, reading that process's CPU time around every run. Separate gateway processes
 * running the same code differ by up to ± 20 % in CPU per call on a shared VM; here that
 * difference is gone, so what is left is the setting's own cost.
 */
import { type BenchContext, startAtriumGateway } from "./contestants.ts";
import { autocannonLoad, type HttpTarget } from "./load.ts";
import { type ClientCredential, modernHeaders, toolCallBody } from "./mcp.ts";
import { UNDISTURBED_ATTEMPTS, undisturbed } from "./outside-load.ts";
import { cpuMicros } from "./processes.ts";

const PET_ID = 7;

export interface OneGatewayOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Wait for a quiet machine and repeat disturbed runs (not in a smoke run). */
  waitForQuiet: boolean;
}

/** One Exposition the gateway serves, and the credential its calls carry. */
export interface Variant<Label extends string> {
  label: Label;
  expositionId: string;
  credential: ClientCredential;
}

export interface VariantCost<Label extends string> {
  label: Label;
  /** req/s of each round, in round order. */
  roundsPerSecond: number[];
  cpuMicrosPerCall: number;
  non2xx: number;
}

export interface OneGatewayResult<Label extends string> {
  rounds: number;
  seconds: number;
  connections: number;
  variants: VariantCost<Label>[];
  /** Cores' worth of CPU other processes used meanwhile (the most disturbed run kept). */
  othersBusy: number;
}

/** Loads each variant's getPet call on one gateway (labelled `role=<role>`, serving exactly these Expositions). */
export async function measureOnOneGateway<Label extends string>(
  context: BenchContext,
  role: string,
  variants: Variant<Label>[],
  options: OneGatewayOptions,
  progress: (message: string) => void,
): Promise<OneGatewayResult<Label>> {
  const gateway = await startAtriumGateway(context, {
    id: `gw-${role}`,
    role,
    expectedExpositions: variants.length,
  });
  try {
    const runs = variants.map((variant) => ({
      label: variant.label,
      target: {
        url: `${gateway.url}/mcp/${variant.expositionId}`,
        method: "POST",
        headers: modernHeaders("getPet", variant.credential),
        body: toolCallBody("[<id>]", PET_ID, "getPet", true),
      } satisfies HttpTarget,
      roundsPerSecond: [] as number[],
      cpuMicros: 0,
      calls: 0,
      non2xx: 0,
    }));
    for (const run of runs) await autocannonLoad(run.target, { ...options, seconds: options.warmupSeconds });
    let othersBusy = 0;
    for (let round = 0; round < options.rounds; round++) {
      progress(`${role} on one gateway: round ${round + 1}/${options.rounds}`);
      for (let i = 0; i < runs.length; i++) {
        const run = runs[(i + round) % runs.length] as (typeof runs)[0];
        const attempts = options.waitForQuiet ? UNDISTURBED_ATTEMPTS : 1;
        const measured = await undisturbed(`${role} (${run.label})`, attempts, progress, async () => {
          const before = cpuMicros(gateway.child.pid);
          const result = await autocannonLoad(run.target, options);
          return { result, cpu: cpuMicros(gateway.child.pid) - before };
        });
        run.roundsPerSecond[round] = measured.value.result.perSecond;
        run.cpuMicros += measured.value.cpu;
        run.calls += measured.value.result.calls;
        run.non2xx += measured.value.result.non2xx + measured.value.result.errors;
        othersBusy = Math.max(othersBusy, measured.others);
      }
    }
    return {
      rounds: options.rounds,
      seconds: options.seconds,
      connections: options.connections,
      variants: runs.map((run) => ({
        label: run.label,
        roundsPerSecond: run.roundsPerSecond,
        cpuMicrosPerCall: run.calls > 0 ? run.cpuMicros / run.calls : Number.NaN,
        non2xx: run.non2xx,
      })),
      othersBusy,
    };
  } finally {
    await gateway.child.stop();
  }
}
