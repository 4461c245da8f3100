/**
 * CI smoke of the output filter's cost benchmark: `node bench/gateway/output-filter-cost.ts
 * --quick` runs end to end and prints the three plans' rows, both ratio lines and the in-process
 * figure. The numbers are never asserted, only that they are there.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";

describe("output filter cost benchmark (smoke)", () => {
  it("loads the filtered plans and the unfiltered one on one gateway, and prints the ratios", async () => {
    const script = join(import.meta.dirname, "output-filter-cost.ts");
    const stdout = await runBenchmark(script, ["--quick"]);
    for (const plan of ["filtered, JSON", "filtered, TOON", "unfiltered"]) {
      expect(stdout).toMatch(new RegExp(`^\\| ${plan} \\| [\\d,]+ \\| \\d+ \\| \\d+\\.\\d \\| 0 \\|$`, "m"));
    }
    for (const plan of ["filtered, JSON", "filtered, TOON"]) {
      expect(stdout).toMatch(
        new RegExp(`${plan}: CPU per call / unfiltered = \\d+\\.\\d{3} \\(target ≤ 1\\.15: (met|MISSED)\\)`),
      );
    }
    expect(stdout).toMatch(/the filter's own work \(JSON and TOON in turn\) in-process: \d+, \d+, \d+ ns per call/);
  }, 180_000);
});
