/**
 * CI smoke of the benchmarks: each runs briefly and prints its ratio line. Not a timed test —
 * the numbers are not asserted, only that the benchmarks still run end to end.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBenchmark } from "./smoke.ts";

const bench = (...path: string[]) => join(import.meta.dirname, ...path);

describe("benchmarks (smoke)", () => {
  it("change-stream propagation runs and reports p99 against its target", async () => {
    const stdout = await runBenchmark(bench("change-stream", "propagation.ts"), ["--streams", "5", "--writes", "3"]);
    expect(stdout).toMatch(/p99 \/ target \(200 ms\) = \d+\.\d+/);
  }, 60_000);

  it("a fleet of gateways on one control plane, then on two replicas, runs and reports p99 against its target", async () => {
    const stdout = await runBenchmark(bench("control-plane", "fleet.ts"), ["--quick"]);
    expect(stdout).toMatch(/one control plane\n[\s\S]*?p99 \/ target \(1000 ms\) = \d+\.\d+/);
    expect(stdout).toMatch(/two replicas[\s\S]*control-plane-2: 10 streams/);
  }, 120_000);

  it("the control plane's API under load runs on PostgreSQL and PGlite and counts its errors", async () => {
    const stdout = await runBenchmark(bench("control-plane", "api-load.ts"), ["--quick", "--duration", "1"]);
    for (const kind of ["postgres", "pglite"]) {
      expect(stdout).toMatch(new RegExp(`${kind}: GET /expositions lists 20 Expositions`));
    }
    expect(stdout).toMatch(
      /POST \/configuration-plans: \d+ req\/s +p50 [\d.]+ ms +p99 [\d.]+ ms +non-2xx \d+ +errors \d+/,
    );
    expect(stdout).toMatch(/non-2xx answers and errors: \d+/);
  }, 180_000);

  it("OpenAPI import of 1,000 operations runs and reports its ratio to the target", async () => {
    const stdout = await runBenchmark(bench("openapi-import", "import-1000.ts"), ["1"]);
    expect(stdout).toMatch(/median: \d+ ms = \d+\.\d+ × the 2000 ms target/);
  }, 60_000);

  it("OpenAPI import of small documents runs and reports documents per second", async () => {
    const stdout = await runBenchmark(bench("openapi-import", "import-small.ts"), ["3"]);
    expect(stdout).toMatch(/3\.1: median \d+\.\d ms, p95 \d+\.\d ms per document/);
    expect(stdout).toMatch(/9 documents in \d+\.\d s: \d+ documents\/s/);
  }, 60_000);
});
