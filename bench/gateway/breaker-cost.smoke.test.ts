/**
 * CI smoke of the circuit breaker's cost benchmark: `node bench/gateway/breaker-cost.ts --quick`
 * runs end to end and prints both plans' rows, the ratio line and the in-process figure. The
 * numbers are never asserted, only that they are there.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";

describe("circuit breaker cost benchmark (smoke)", () => {
  it("loads the plan with the breaker and the one without on one gateway, and prints the ratio", async () => {
    // Exits non-zero when a call failed or the gateway could not run, which rejects here.
    const stdout = await runBenchmark(join(import.meta.dirname, "breaker-cost.ts"), ["--quick"]);
    for (const plan of ["breaker on", "breaker off"]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${plan} \\| [\\d,]+ \\| \\d+ \\| \\d+\\.\\d \\| 0 \\|$`, "m"));
    }
    expect(stdout).toMatch(/breaker on: CPU per call \/ breaker off = \d+\.\d{3} \(target ≤ 1\.05: (met|MISSED)\)/);
    expect(stdout).toMatch(/the breaker's own work in-process: \d+, \d+, \d+ ns per call/);
  }, 120_000);
});
