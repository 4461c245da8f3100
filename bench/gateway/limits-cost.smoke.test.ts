/**
 * CI smoke of the limits' cost benchmark: `node bench/gateway/limits-cost.ts --quick` runs end to
 * end (no call refused: the limits are far above the load) and prints both plans' rows, the ratio
 * line and the in-process figure. The numbers are never asserted, only that they are there.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";

describe("limits cost benchmark (smoke)", () => {
  it("loads the plan with limits and the one without on one gateway, and prints the ratio", async () => {
    // Exits non-zero when a call failed (a 429 included) or the gateway could not run, which rejects here.
    const script = join(import.meta.dirname, "limits-cost.ts");
    const stdout = await runBenchmark(script, ["--quick"]);
    for (const plan of ["limits on", "no limits"]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${plan} \\| [\\d,]+ \\| \\d+ \\| \\d+\\.\\d \\| 0 \\|$`, "m"));
    }
    expect(stdout).toMatch(/limits on: CPU per call \/ no limits = \d+\.\d{3} \(target ≤ 1\.05: (met|MISSED)\)/);
    expect(stdout).toMatch(/the limiter's own work in-process: \d+, \d+, \d+ ns per call/);
  }, 120_000);
});
