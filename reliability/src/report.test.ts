import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFigures, recordFigures } from "./figures.ts";
import { DOC_PATH, renderTable, TABLE_END, TABLE_START, withTable } from "./report.ts";
import { ROWS } from "./rows.ts";

describe("the reliability report", () => {
  const cache = mkdtempSync(join(tmpdir(), "atrium-reliability-"));
  const previous = process.env.ATRIUM_CACHE_DIR;
  afterAll(() => {
    if (previous === undefined) delete process.env.ATRIUM_CACHE_DIR;
    else process.env.ATRIUM_CACHE_DIR = previous;
    rmSync(cache, { recursive: true, force: true });
  });

  it("shows each row's last recorded figures, and 'not run yet' for the others", () => {
    process.env.ATRIUM_CACHE_DIR = cache;
    recordFigures("fuzz-mcp-endpoint", { tried: 10, unit: "messages", lost: 3 });
    recordFigures("fuzz-mcp-endpoint", {
      tried: 20_000,
      unit: "messages",
      lost: 0,
      details: { "RSS after (MiB)": 91 },
    });
    const table = renderTable(readFigures());
    const line = table.split("\n").find((text) => text.includes("`fuzz-mcp-endpoint`"));
    expect(line).toContain("| 20,000 messages | 0 | RSS after (MiB): 91 |");
    const other = table.split("\n").find((text) => text.includes("`fuzz-request-building`"));
    expect(other).toContain("| not run yet |");
  });

  it("replaces only the table between the markers, and refuses a page without them", () => {
    const page = `# Title\n\nintro\n\n${TABLE_START}\nold\n${TABLE_END}\n\nafter\n`;
    expect(withTable(page, "new")).toBe(`# Title\n\nintro\n\n${TABLE_START}\nnew\n${TABLE_END}\n\nafter\n`);
    expect(() => withTable("# no markers", "new")).toThrow(/markers/);
  });

  it("docs/reliability.md has a line for every row, each with its command", () => {
    const page = readFileSync(DOC_PATH, "utf8");
    const table = page.slice(page.indexOf(TABLE_START), page.indexOf(TABLE_END));
    for (const row of ROWS) {
      const line = table.split("\n").find((text) => text.includes(`\`${row.id}\``));
      expect(line, `row ${row.id} in docs/reliability.md (run the report)`).toBeDefined();
      expect(line).toContain(row.command);
    }
  });
});
