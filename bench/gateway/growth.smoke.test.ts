/**
 * CI smoke of the cost-growth benchmark: `node bench/gateway/growth.ts --quick --out <dir>` runs
 * end to end at two small sizes of each dimension, prints both tables and the growth between the
 * sizes, and writes its report and an SVG plot per dimension to <dir>. The numbers are never
 * asserted, only that they are there.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBenchmark } from "../smoke.ts";

const out = mkdtempSync(join(tmpdir(), "atrium-growth-smoke-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("cost-growth benchmark (smoke)", () => {
  it("measures a fresh gateway at each size, prints the growth and draws the plots", async () => {
    // Exits non-zero when a size could not be measured, which rejects here.
    const stdout = await runBenchmark(join(import.meta.dirname, "growth.ts"), ["--quick", "--out", out]);
    for (const dimension of ["Expositions on one gateway", "tools in one Exposition"]) {
      expect(stdout).toContain(`#### ${dimension}`);
      for (const size of [5, 10]) {
        // size | start to ready (gateway CPU, control plane CPU) | RSS (peak) | live heap | change from the commit | from the write | tools/list | set-up
        expect(stdout).toMatch(
          new RegExp(
            `^\\| ${size} \\| [\\d,]+ \\([\\d,]+, [\\d,]+\\) \\| \\d+ \\(\\d+\\) \\| \\d+\\.\\d \\| -?\\d+\\.\\d`,
            "m",
          ),
        );
      }
    }
    expect(stdout).toMatch(/^- 5 → 10: start to ready ×\d+\.\d\d \(k = -?\d+\.\d\d, .* per Exposition\); RSS/m);
    expect(stdout).toMatch(/^- 5 → 10: start to ready ×\d+\.\d\d \(k = -?\d+\.\d\d, .* per tool\); RSS/m);

    const files = readdirSync(out).sort();
    expect(files).toEqual([
      expect.stringMatching(/^growth-\d{4}-\d\d-\d\d-expositions\.svg$/),
      expect.stringMatching(/^growth-\d{4}-\d\d-\d\d-tools\.svg$/),
      expect.stringMatching(/^growth-\d{4}-\d\d-\d\d\.md$/),
    ]);
    for (const svg of files.filter((file) => file.endsWith(".svg"))) {
      const text = readFileSync(join(out, svg), "utf8");
      expect(text.startsWith("<svg")).toBe(true);
      expect(text).toContain("Gateway start to ready (ms)");
      expect(text).toContain("Gateway memory (MB)");
      // A measured line and its dashed linear twin in each of the four panels, at least.
      expect(text.match(/stroke-dasharray/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
    }
    expect(readFileSync(join(out, files[2] ?? ""), "utf8")).toContain(`](${files[0]})`);
  }, 180_000);
});
