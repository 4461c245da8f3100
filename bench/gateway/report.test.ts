import { describe, expect, it } from "vitest";
import { type ContestantResult, ratioLines, tracingChecks } from "./report.ts";

/** A measured atrium contestant: its req/s per round and CPU per call, the rest left neutral. */
function result(
  name: string,
  roundsPerSecond: number[],
  cpuMicrosPerCall: number,
  extra: Partial<ContestantResult> = {},
) {
  return {
    name,
    description: "",
    kind: "atrium",
    auth: "none",
    era: "stateless",
    throughput: undefined,
    roundsPerSecond,
    latency: undefined,
    cpuMicrosPerCall,
    coresBusy: [],
    othersBusy: 0,
    repeatedRuns: 0,
    idleRssMb: 0,
    rssMb: 0,
    ...extra,
  } satisfies ContestantResult;
}

const off = result("atrium (no auth)", [100, 100], 10);
const traced = result("atrium (tracing 1 %)", [90, 98], 12, { tracingRatio: 0.01 });

describe("the tracing checks", () => {
  it("hold one traced process to one untraced, round by round", () => {
    const [throughput, cpu] = tracingChecks(traced, 0.01, off, [off, traced]);
    // Rounds 0.90 and 0.98: their median 0.94 is under the 0.95 target.
    expect(throughput).toEqual([
      "atrium (tracing 1 %): throughput / atrium (no auth) = 0.94 (target ≥ 0.95: MISSED)",
      false,
    ]);
    expect(cpu?.[0]).toBe(
      "atrium (tracing 1 %): CPU per call / atrium (no auth) = 1.20 (12 µs against 10 µs) (for comparison, no target)",
    );
  });

  it("compare the medians of each side's processes with --replicas, and no replica gets lines of its own", () => {
    const offCopies = [result("atrium (no auth) #2", [80, 80], 14), result("atrium (no auth) #3", [120, 120], 8)].map(
      (copy) => ({ ...copy, replicaOf: off.name }),
    );
    const tracedCopies = [
      result("atrium (tracing 1 %) #2", [97, 97], 11, { tracingRatio: 0.01 }),
      result("atrium (tracing 1 %) #3", [70, 70], 15, { tracingRatio: 0.01 }),
    ].map((copy) => ({ ...copy, replicaOf: traced.name }));
    const measured = [off, traced, ...offCopies, ...tracedCopies];
    const [throughput, cpu] = tracingChecks(traced, 0.01, off, measured);
    // Medians per round: traced 90 then 97, untraced 100 both: 0.90 and 0.97, median 0.935.
    expect(throughput).toEqual([
      "atrium (tracing 1 %): throughput / atrium (no auth) = 0.94 (medians of 3 and 3 processes) (target ≥ 0.95: MISSED)",
      false,
    ]);
    // CPU: the median of 12, 11, 15 against that of 10, 14, 8.
    expect(cpu?.[0]).toContain("= 1.20 (12 µs against 10 µs) (medians of 3 and 3 processes)");

    const { lines } = ratioLines(measured);
    expect(lines.filter((line) => line.includes("#"))).toEqual([]);
    expect(lines.filter((line) => line.startsWith("atrium (tracing 1 %): throughput"))).toHaveLength(1);
  });

  it("say n/a, not a ratio, without the untraced side", () => {
    const [throughput] = tracingChecks(traced, 0.01, undefined, [traced]);
    expect(throughput).toEqual([
      "atrium (tracing 1 %): throughput / atrium (no auth) = n/a (target ≥ 0.95: MISSED)",
      false,
    ]);
  });
});
