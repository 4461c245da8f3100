/**
 * Generated OpenAPI documents through the control plane's importer and into a gateway (fast-check,
 * see openapi-arbitraries.ts): 3.0 and 3.1, JSON and YAML, valid and hostile. The importer never
 * fails with anything but its coded refusal (OpenApiImportError), and whatever it accepts a
 * gateway loads: the Exposition passes the stream contract, every operation becomes a tool whose
 * schemas compile as written (no warning), and the tools/list answer is one an MCP client accepts.
 *
 * The import runs as the control plane runs it: in its import worker, under a time budget
 * (BUDGET_MS here; a document that overruns it is refused with OPENAPI_TOO_LARGE, as in
 * production, and counted). In this thread, one generated document once held the test for over
 * 15 minutes of synchronous work, past any test timeout. 10,000 documents by default, as the other
 * targets (≈ 14 ms of CPU each, import and gateway; 197 s in all on a loaded 2-core machine);
 * ATRIUM_FUZZ_RUNS sets another count. A failure prints the shrunk document and the seed that
 * replays it.
 */

import { OpenApiImportError, runImportInWorker } from "@atrium/control-plane/testing";
import { recordFigures } from "@atrium/reliability";
import { fuzzParameters } from "@atrium/reliability/fuzz";
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExpositionRegistry } from "../registry.ts";
import { exposition } from "./fixtures.ts";
import { documentTexts } from "./openapi-arbitraries.ts";

const { numRuns: runs, seed } = fuzzParameters(10_000);
/** Each import's budget: the control plane's is 60 s; a generated document needs far less unless it is pathological. */
const BUDGET_MS = 10_000;

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1e6);
}

describe("generated OpenAPI documents, imported and loaded by a gateway", () => {
  it("are refused with a coded error, or served with every operation as a tool", async () => {
    const before = rssMb();
    const started = performance.now();
    const outcomes = new Map<string, number>();
    const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    let tools = 0;
    await fc.assert(
      fc.asyncProperty(documentTexts, async (text) => {
        // A key named __proto__ in an earlier document must not have reached the shared prototype.
        expect(Object.keys(Object.prototype)).toEqual([]);
        let imported: Awaited<ReturnType<typeof runImportInWorker>>;
        try {
          imported = await runImportInWorker({ text }, BUDGET_MS);
        } catch (error) {
          if (!(error instanceof OpenApiImportError)) throw error; // a crash, not a refusal
          expect(error.message.length, error.code).toBeGreaterThan(20);
          count(error.code);
          return;
        }
        count("accepted");
        // As the change stream carries it: JSON, parsed by the gateway with the contract's schema.
        const record = JSON.parse(JSON.stringify(exposition({ operations: imported.operations })));
        const registry = new ExpositionRegistry();
        expect(registry.apply([record], [])).toEqual([]);
        const served = registry.byId(record.id);
        expect(served?.toolset.warnings).toEqual([]);
        expect(served?.toolset.tools).toHaveLength(imported.operations.length);
        expect(() => ListToolsResultSchema.parse({ tools: served?.toolset.tools })).not.toThrow();
        tools += served?.toolset.tools.length ?? 0;
      }),
      { numRuns: runs, seed },
    );
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const after = rssMb();
    const answers = [...outcomes].map(([outcome, n]) => `${outcome}×${n}`).join(" ");
    console.log(`${runs} documents in ${seconds} s, RSS ${before} MB → ${after} MB; ${tools} tools served; ${answers}`);
    recordFigures("fuzz-openapi-import", {
      tried: runs,
      unit: "generated documents",
      lost: 0,
      details: {
        accepted: outcomes.get("accepted") ?? 0,
        "tools served": tools,
        refused: runs - (outcomes.get("accepted") ?? 0),
        "RSS before (MB)": before,
        "RSS after (MB)": after,
        seconds,
      },
    });
  }, 3_600_000);
});
