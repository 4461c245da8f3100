/**
 * What client authentication costs, measured inside ONE gateway process: it serves the pets
 * Exposition three times — open, behind an API key, behind OAuth (one cached token) — and the
 * runner loads each in turn, in rounds, reading that process's CPU time around every run. The
 * hot-path table compares separate gateway processes, and on a shared VM two processes running
 * the same code differ by up to ± 20 % in CPU per call; here that difference is gone, so what is
 * left is the credential's own cost.
 */
import type { ApiClient } from "@atrium/control-plane/testing";
import { type AtriumAuth, type BenchContext, startAtriumGateway } from "./contestants.ts";
import { autocannonLoad, type HttpTarget } from "./load.ts";
import { type ClientCredential, modernHeaders, toolCallBody } from "./mcp.ts";
import { UNDISTURBED_ATTEMPTS, undisturbed } from "./outside-load.ts";
import { cpuMicros } from "./processes.ts";
import { createExposition, createGroup } from "./setup.ts";

const ROLE = "auth-cost";
const PET_ID = 7;

export interface AuthCostOptions {
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Wait for a quiet machine and repeat disturbed runs (not in a smoke run). */
  waitForQuiet: boolean;
}

export interface AuthCostMode {
  auth: AtriumAuth;
  /** req/s of each round, in round order. */
  roundsPerSecond: number[];
  cpuMicrosPerCall: number;
  non2xx: number;
}

export interface AuthCostResult {
  rounds: number;
  seconds: number;
  connections: number;
  modes: AuthCostMode[];
  /** Cores' worth of CPU other processes used meanwhile (the most disturbed run kept). */
  othersBusy: number;
}

/** One Exposition per mode, in a group of their own that the auth-cost gateway serves. */
export async function createAuthCostExpositions(
  admin: ApiClient,
  plans: Record<AtriumAuth, string>,
): Promise<Record<AtriumAuth, string>> {
  const groupId = await createGroup(admin, ROLE);
  return {
    none: await createExposition(admin, "pets-cost-open", plans.none, groupId),
    apiKey: await createExposition(admin, "pets-cost-keyed", plans.apiKey, groupId),
    oauth: await createExposition(admin, "pets-cost-oauth", plans.oauth, groupId),
  };
}

export async function measureAuthCost(
  context: BenchContext,
  expositions: Record<AtriumAuth, string>,
  credentials: Record<AtriumAuth, ClientCredential>,
  options: AuthCostOptions,
  progress: (message: string) => void,
): Promise<AuthCostResult> {
  const gateway = await startAtriumGateway(context, { id: "gw-auth-cost", role: ROLE, expectedExpositions: 3 });
  try {
    const modes = (["none", "apiKey", "oauth"] as const).map((auth) => ({
      auth,
      target: {
        url: `${gateway.url}/mcp/${expositions[auth]}`,
        method: "POST",
        headers: modernHeaders("getPet", credentials[auth]),
        body: toolCallBody("[<id>]", PET_ID, "getPet", true),
      } satisfies HttpTarget,
      roundsPerSecond: [] as number[],
      cpuMicros: 0,
      calls: 0,
      non2xx: 0,
    }));
    for (const mode of modes) await autocannonLoad(mode.target, { ...options, seconds: options.warmupSeconds });
    let othersBusy = 0;
    for (let round = 0; round < options.rounds; round++) {
      progress(`auth cost on one gateway: round ${round + 1}/${options.rounds}`);
      // Rotated like the hot path, so no mode always runs first.
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[(i + round) % modes.length] as (typeof modes)[0];
        const attempts = options.waitForQuiet ? UNDISTURBED_ATTEMPTS : 1;
        const measured = await undisturbed(`auth cost (${mode.auth})`, attempts, progress, async () => {
          const before = cpuMicros(gateway.child.pid);
          const result = await autocannonLoad(mode.target, options);
          return { result, cpu: cpuMicros(gateway.child.pid) - before };
        });
        mode.roundsPerSecond[round] = measured.value.result.perSecond;
        mode.cpuMicros += measured.value.cpu;
        mode.calls += measured.value.result.calls;
        mode.non2xx += measured.value.result.non2xx + measured.value.result.errors;
        othersBusy = Math.max(othersBusy, measured.others);
      }
    }
    return {
      rounds: options.rounds,
      seconds: options.seconds,
      connections: options.connections,
      modes: modes.map((mode) => ({
        auth: mode.auth,
        roundsPerSecond: mode.roundsPerSecond,
        cpuMicrosPerCall: mode.calls > 0 ? mode.cpuMicros / mode.calls : Number.NaN,
        non2xx: mode.non2xx,
      })),
      othersBusy,
    };
  } finally {
    await gateway.child.stop();
  }
}
