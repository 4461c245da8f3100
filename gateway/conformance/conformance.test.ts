/**
 * The official MCP conformance suite against the gateway (run.ts): every CLI run must pass its
 * expected-failures baseline (no unexpected failure, no stale entry), every baseline entry must
 * give its reason, and the results must be those docs/conformance.md reports.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  documentedTable,
  expectedFailuresPath,
  readExpectedFailures,
  resultsTable,
  runConformance,
  SUITES,
  type SuiteResult,
  totals,
} from "./run.ts";

let results: SuiteResult[] = [];

beforeAll(async () => {
  results = await runConformance();
}, 150_000);
afterAll(() => {
  // The CLI output explains a failed run; print it only then.
  for (const result of results.filter((r) => r.exitCode !== 0)) {
    console.log(`===== ${result.suite.id} =====\n${result.output}`);
  }
});

describe.each(SUITES)("conformance suite $id ($protocolVersion, $cli)", (suite) => {
  const result = () => {
    const found = results.find((r) => r.suite.id === suite.id);
    if (!found) throw new Error(`suite ${suite.id} did not run`);
    return found;
  };

  it("passes its expected-failures baseline (CLI exit code 0)", () => {
    const { exitCode, unexpectedFailures, staleEntries } = result();
    expect({ unexpectedFailures, staleEntries }).toEqual({ unexpectedFailures: [], staleEntries: [] });
    expect(exitCode).toBe(0);
  });

  it("passes scenarios and checks", () => {
    const t = totals(result());
    expect(t.scenariosPassed).toBeGreaterThan(0);
    expect(t.checksPassed).toBeGreaterThan(0);
  });

  it("gives a reason for every expected failure", () => {
    const entries = readExpectedFailures(expectedFailuresPath(suite));
    for (const [id, reason] of entries) {
      expect(reason, `${id} in expected-failures-${suite.id}.yml`).toMatch(/\w{3,}/);
    }
    // Every entry is one the CLI matched against a failure (its baseline report lists them).
    expect(entries.size).toBe(result().expectedFailures);
  });
});

it("reports in docs/conformance.md the results of this run (update with run.ts --update-docs)", () => {
  expect(documentedTable()).toBe(resultsTable(results));
});
