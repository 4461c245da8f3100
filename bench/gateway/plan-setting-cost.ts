/**
 * The runner of the benchmarks that price one plan setting per call (breaker-cost.ts,
 * limits-cost.ts, output-filter-cost.ts): the pets
 * Service served by one gateway under plans with the setting (one or more variants of it) and one
 * without, loaded in turn in rotated rounds (one-gateway-cost.ts); a table of req/s and CPU µs per
 * call of that gateway process, the ratio of each variant to the plan without against a target,
 * and the setting's own work timed in this process. The backend and control plane run on the harness core, the gateway on the
 * contestant core, as in run.ts.
 *
 * Flags: --duration 10 --rounds 5 --connections 32 --warmup 2; --busy: no waiting for a quiet
 * machine, no repeated runs (the report says how busy it was); --quick (CI smoke): one round of
 * 2 s, and a tenth of the in-process work; implies --busy.
 */
import { parseArgs } from "node:util";
import { startBenchContext } from "./contestants.ts";
import { median } from "./load.ts";
import { measureOnOneGateway } from "./one-gateway-cost.ts";
import { runMain } from "./processes.ts";
import { createExposition, createGroup, createPlan, createService, petsOpenApi } from "./setup.ts";

type PlanFields = Omit<Parameters<typeof createPlan>[1], "name" | "serviceId" | "backendUrl" | "apiKey">;

export interface SettingCostOptions {
  /** Names the benchmark in its progress lines, gateway label and scratch folder (`limits-cost`). */
  role: string;
  /** What the first line of the report says is measured. */
  title: string;
  /** The variants with the setting, then the one without (last); labels are the table's first column. */
  variants: [...{ label: string; plan: PlanFields }[], { label: string; plan: PlanFields }];
  /** Put after the backend's address in every plan (`/large`: the 10 KB pet of backend.ts); none when absent. */
  backendPath?: string;
  /** Largest CPU per call with the setting / without it. */
  target: number;
  /** The setting's own work for one call, in this process (a fresh state per run of a million calls). */
  workOfOneCall: () => () => void;
  /** What that work is, for its report line. */
  inProcessLabel: string;
}

/** Nanoseconds per call of `work`, over `calls` calls after a tenth as many to warm up. */
function nanosPerCall(workOfOneCall: () => () => void, calls: number): number {
  const work = workOfOneCall();
  const run = (count: number) => {
    for (let i = 0; i < count; i++) work();
  };
  run(calls / 10); // warm-up: optimized before timing
  const started = process.hrtime.bigint();
  run(calls);
  return Number(process.hrtime.bigint() - started) / calls;
}

/** Runs the benchmark, prints its report and exits: 1 when a call failed or the gateway could not run. */
export async function runSettingCost(options: SettingCostOptions): Promise<never> {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "10" },
      rounds: { type: "string", default: "5" },
      connections: { type: "string", default: "32" },
      warmup: { type: "string", default: "2" },
      busy: { type: "boolean", default: false },
      quick: { type: "boolean", default: false },
    },
  });
  const quick = values.quick;
  const progress = (message: string) => process.stderr.write(`[${options.role}] ${message}\n`);
  return runMain(options.role, async (scratchDir) => {
    let failed = false;
    const inProcess = [1, 2, 3].map(() => nanosPerCall(options.workOfOneCall, quick ? 100_000 : 1_000_000));
    const { context, admin } = await startBenchContext({ scratchDir, gatewayNodeArgs: [] });
    const serviceId = await createService(admin, "pets", petsOpenApi());
    const groupId = await createGroup(admin, options.role);
    const variants = [];
    for (const [index, { label, plan: fields }] of options.variants.entries()) {
      const name = `pets-${options.role}-${index}`;
      const plan = await createPlan(admin, {
        name,
        serviceId,
        backendUrl: `${context.backendUrl}${options.backendPath ?? ""}`,
        apiKey: false,
        ...fields,
      });
      variants.push({ label, expositionId: await createExposition(admin, name, plan.id, groupId), credential: {} });
    }
    const result = await measureOnOneGateway(
      context,
      options.role,
      variants,
      {
        rounds: quick ? 1 : Number(values.rounds),
        seconds: quick ? 2 : Number(values.duration),
        warmupSeconds: quick ? 0.5 : Number(values.warmup),
        connections: Number(values.connections),
        waitForQuiet: !quick && !values.busy,
      },
      progress,
    );
    const without = result.variants.at(-1);
    if (!without || result.variants.some((variant) => variant.non2xx > 0)) {
      failed = true;
      progress(`calls failed: ${JSON.stringify(result.variants)}`);
    }
    const ratioLines = result.variants.slice(0, -1).map((withSetting) => {
      const ratio = withSetting.cpuMicrosPerCall / (without?.cpuMicrosPerCall ?? Number.NaN);
      return `${withSetting.label}: CPU per call / ${without?.label} = ${ratio.toFixed(3)} (target ≤ ${options.target.toFixed(2)}: ${ratio <= options.target ? "met" : "MISSED"})`;
    });
    console.log(
      [
        `${options.title}, ${result.rounds} round(s) of ${result.seconds} s at ${result.connections} connections on one gateway (others used up to ${result.othersBusy.toFixed(2)} cores meanwhile):`,
        "",
        "| plan | req/s (median) | req/s per round | CPU µs/call | non-2xx |",
        "|---|---|---|---|---|",
        ...result.variants.map(
          (cost) =>
            `| ${cost.label} | ${Math.round(median(cost.roundsPerSecond)).toLocaleString("en-US")} | ${cost.roundsPerSecond.map((r) => Math.round(r)).join(", ")} | ${cost.cpuMicrosPerCall.toFixed(1)} | ${cost.non2xx} |`,
        ),
        "",
        ...ratioLines,
        `${options.inProcessLabel} in-process: ${inProcess.map((ns) => ns.toFixed(0)).join(", ")} ns per call (three runs)`,
      ].join("\n"),
    );
    return !failed;
  });
}
