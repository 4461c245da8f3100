/**
 * CI smoke of the gateway hot-path benchmark: `node bench/gateway/run.ts --quick` runs end to
 * end (every contestant, the first-call timings, the scale checks) and prints its table and
 * ratio lines. Not a timed test — the numbers are never asserted, only that every row and ratio
 * line is there.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";

describe("gateway benchmark (smoke)", () => {
  it("runs every contestant and the scale checks, and reports the ratios to the targets", async () => {
    // Exits non-zero when a contestant or check could not run, which rejects here.
    const stdout = await runBenchmark(join(import.meta.dirname, "run.ts"), ["--quick"], 16 * 1024 * 1024);
    for (const contestant of [
      "direct",
      "pass-through",
      "atrium (no auth)",
      "atrium (API key)",
      "atrium (OAuth)",
      "@ivotoby/openapi-mcp-server",
      "official SDK",
    ]) {
      // The name, then its req/s (a harness-bound row carries a ‡ after the number).
      expect(stdout).toMatch(new RegExp(`^\\| ${contestant.replace(/[().]/g, "\\$&")} \\| [\\d,]+[^|\\d]*\\|`, "m"));
    }
    expect(stdout).toMatch(/atrium \(no auth\): throughput \/ pass-through = \d+\.\d+ \(target ≥ 0\.8: (met|MISSED)\)/);
    expect(stdout).toMatch(
      /atrium \(OAuth\): throughput \/ atrium \(no auth\) = \d+\.\d+ \(target ≥ 0\.85: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium \(OAuth\): CPU per call \/ atrium \(no auth\) = \d+\.\d+ \(target ≤ 1\.15: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(/OAuth on one gateway: CPU per call \/ no auth = \d+\.\d+ \(target ≤ 1\.15: (met|MISSED)\)/);
    // The first call with a token fetched the key set; later new tokens did not.
    expect(stdout).toMatch(/\| first call with a token, key set not fetched yet .* \| \d+\.\d+ \| 1 \|/);
    expect(stdout).toMatch(/key-set fetches: 1 for 1 fresh gateway/);
    expect(stdout).toMatch(/tools\/list, 200 tools .* p50 \d+\.\d+ ms, p99 \d+\.\d+ ms/);
    expect(stdout).toMatch(/gateway RSS with 50 Expositions loaded/);
    expect(stdout).toMatch(/sessions never cross: atrium .* \| \d+ of \d+ answers/);
  }, 120_000);
});
