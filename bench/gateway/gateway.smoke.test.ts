/**
 * CI smoke of the gateway hot-path benchmark: `node bench/gateway/run.ts --quick` runs end to
 * end (every contestant, GraphQL, gRPC, token-exchange and traced ones included, the first-call timings, the scale checks) and prints its table and
 * ratio lines. Not a timed test — the numbers are never asserted, only that every row and ratio
 * line is there. The Go SDK contestant is built first, in its own hook (a cold build takes
 * about a minute; a warm cache, nothing).
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";
import { buildGoSdkServer } from "./go-sdk-build.ts";

describe("gateway benchmark (smoke)", () => {
  beforeAll(() => buildGoSdkServer((line) => process.stderr.write(`[go-sdk build] ${line}\n`)), 300_000);

  it("runs every contestant and the scale checks, and reports the ratios to the targets", async () => {
    // Exits non-zero when a contestant or check could not run, which rejects here.
    const stdout = await runBenchmark(join(import.meta.dirname, "run.ts"), ["--quick"], 16 * 1024 * 1024);
    for (const contestant of [
      "direct",
      "pass-through",
      "atrium (no auth)",
      "atrium (tracing 1 %)",
      "atrium (tracing 100 %)",
      "atrium (API key)",
      "atrium (OAuth)",
      "atrium (token exchange)",
      "atrium (2025 session)",
      "atrium (2025 session over SSE)",
      "@ivotoby/openapi-mcp-server",
      "official SDK",
      "official Go SDK",
      "GraphQL pass-through",
      "atrium GraphQL (no auth)",
      "gRPC pass-through",
      "atrium gRPC (no auth)",
    ]) {
      // The name, then its req/s (a harness-bound row carries a ‡ after the number).
      expect(stdout).toMatch(new RegExp(`^\\| ${contestant.replace(/[().]/g, "\\$&")} \\| [\\d,]+[^|\\d]*\\|`, "m"));
    }
    expect(stdout).toMatch(
      /atrium \(no auth\): throughput \/ pass-through = \d+\.\d+ \(target ≥ 0\.95: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium GraphQL \(no auth\): throughput \/ GraphQL pass-through = \d+\.\d+ \(target ≥ 0\.9: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium GraphQL \(no auth\): CPU per call \/ GraphQL pass-through = \d+\.\d+ \([\d,]+ µs against [\d,]+ µs\)/,
    );
    expect(stdout).toMatch(
      /atrium gRPC \(no auth\): throughput \/ gRPC pass-through = \d+\.\d+ \(target ≥ 0\.9: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium gRPC \(no auth\): CPU per call \/ gRPC pass-through = \d+\.\d+ \([\d,]+ µs against [\d,]+ µs\)/,
    );
    expect(stdout).toMatch(/atrium \(OAuth\): CPU per call \/ pass-through = \d+\.\d+ \(target ≤ 1\.1: (met|MISSED)\)/);
    expect(stdout).toMatch(
      /atrium \(2025 session\): throughput \/ atrium \(no auth\) = \d+\.\d+ \(target ≥ 0\.85: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium \(2025 session over SSE\): throughput \/ atrium \(no auth\) = \d+\.\d+ \(target ≥ 0\.85: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(/atrium \(API key\): throughput \/ official Go SDK = \d+\.\d+ \(target ≥ 1: (met|MISSED)\)/);
    expect(stdout).toMatch(
      /atrium \(OAuth\): throughput \/ atrium \(no auth\) = \d+\.\d+ \(target ≥ 0\.85: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium \(OAuth\): CPU per call \/ atrium \(no auth\) = \d+\.\d+ \(target ≤ 1\.15: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium \(token exchange\): throughput \/ atrium \(OAuth\) = \d+\.\d+ \(target ≥ 0\.9: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium \(token exchange\): CPU per call \/ atrium \(OAuth\) = \d+\.\d+ \([\d,]+ µs against [\d,]+ µs\)/,
    );
    // Tracing (issue 24), each traced contestant checked to reach the collector before its load.
    expect(stdout).toMatch(
      /atrium \(tracing 1 %\): throughput \/ atrium \(no auth\) = \d+\.\d+ \(target ≥ 0\.95: (met|MISSED)\)/,
    );
    expect(stdout).toMatch(
      /atrium \(tracing 1 %\): CPU per call \/ atrium \(no auth\) = \d+\.\d+ \([\d,]+ µs against [\d,]+ µs\) \(for comparison, no target\)/,
    );
    expect(stdout).toMatch(
      /atrium \(tracing 100 %\): throughput \/ atrium \(no auth\) = \d+\.\d+ \(for comparison, no target\)/,
    );
    expect(stdout).toMatch(
      /atrium \(tracing 100 %\): CPU per call \/ atrium \(no auth\) = \d+\.\d+ \([\d,]+ µs against [\d,]+ µs\) \(for comparison, no target\)/,
    );
    expect(stdout).toMatch(/OAuth on one gateway: CPU per call \/ no auth = \d+\.\d+ \(target ≤ 1\.15: (met|MISSED)\)/);
    // The first call with a token fetched the key set; later new tokens did not.
    expect(stdout).toMatch(/\| first call with a token, key set not fetched yet .* \| \d+\.\d+ \| 1 \|/);
    expect(stdout).toMatch(/key-set fetches: 1 for 1 fresh gateway/);
    // The exchange's first call, timed apart: each new caller exchanged once, a cached one not again.
    expect(stdout).toMatch(/\| first exchange of a fresh gateway, a new caller .* \| \d+\.\d+ \| 1 \|/);
    expect(stdout).toMatch(/\| first call of a new caller, exchange plan .* \| \d+\.\d+ \(.*\) \| 5 \|/);
    expect(stdout).toMatch(/a token exchange \(the exchange's first call\) costs -?\d+\.\d+ ms more than a new token/);
    expect(stdout).toMatch(/token exchanges: 6 for 6 new caller\(s\) on 1 fresh gateway/);
    expect(stdout).toMatch(/tools\/list, 200 tools .* p50 \d+\.\d+ ms, p99 \d+\.\d+ ms/);
    expect(stdout).toMatch(/gateway RSS with 50 Expositions loaded/);
    expect(stdout).toMatch(
      /gateway start to ready with all of them .* \| [\d,]+ ms \(CPU: gateway [\d,]+ ms, control plane [\d,]+ ms\) \| < 3,000 ms: (met|MISSED) \|/,
    );
    expect(stdout).toMatch(
      /one Exposition's change served, from the control plane's commit .* \| -?\d+\.\d \/ -?\d+\.\d ms .* \| < 100 ms: (met|MISSED) \|/,
    );
    expect(stdout).toMatch(/sessions never cross: atrium .* \| \d+ of \d+ answers/);
    // About 90 s on a quiet 2-core machine; twice that when others load it.
  }, 240_000);
});
