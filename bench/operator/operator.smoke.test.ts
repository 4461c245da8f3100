/**
 * CI smoke of the operator benchmark: a small working set, to keep it running end to end. Not a
 * timed test: the numbers are printed, not asserted.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";

describe("operator benchmark (smoke)", () => {
  it("brings a small working set to READY and reports time and memory", async () => {
    const stdout = await runBenchmark(join(import.meta.dirname, "ready-500.ts"), ["20"]);
    expect(stdout).toMatch(/operator: 20 resources READY/);
    expect(stdout).toMatch(/operator memory: RSS idle \d+ MB, peak \d+ MB/);
    expect(stdout).toMatch(/time \/ target \(60 s\) = \d+\.\d+/);
  }, 180_000);
});
