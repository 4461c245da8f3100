/**
 * Writes the figures table of docs/reliability.md from each row's last recorded figures
 * (`npm run report --workspace @atrium/reliability` after a test run). The table sits between
 * two markers; the rest of the page is written by hand.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type RecordedFigures, readFigures } from "./figures.ts";
import { type ReliabilityRow, ROWS } from "./rows.ts";

export const TABLE_START = "<!-- figures:start (written by npm run report --workspace @atrium/reliability) -->";
export const TABLE_END = "<!-- figures:end -->";

export const DOC_PATH = fileURLToPath(new URL("../../docs/reliability.md", import.meta.url));

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function detailsText(details: RecordedFigures["details"]): string {
  if (!details) return "";
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === "number" ? value.toLocaleString("en-US") : value}`)
    .join("; ");
}

/** The table: one line per row, "not run yet" for a row without figures. */
export function renderTable(figures: Map<string, RecordedFigures>, rows: readonly ReliabilityRow[] = ROWS): string {
  const lines = ["| row | what | tried | lost | details | last run | reproduce |", "|---|---|---|---|---|---|---|"];
  for (const row of rows) {
    const recorded = figures.get(row.id);
    const tried = recorded ? `${recorded.tried.toLocaleString("en-US")} ${recorded.unit}` : "not run yet";
    const lost = recorded ? String(recorded.lost) : "";
    const last = recorded ? `${recorded.at.slice(0, 10)} (${recorded.revision})` : "";
    lines.push(
      `| \`${row.id}\` | ${cell(row.title)} | ${cell(tried)} | ${lost} | ${cell(detailsText(recorded?.details))} | ${last} | \`${cell(row.command)}\` |`,
    );
  }
  return lines.join("\n");
}

/** The page with its table replaced. */
export function withTable(page: string, table: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/reliability.md has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${page.slice(0, start + TABLE_START.length)}\n${table}\n${page.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = readFigures();
  writeFileSync(DOC_PATH, withTable(readFileSync(DOC_PATH, "utf8"), renderTable(figures)));
  const missing = ROWS.filter((row) => !figures.has(row.id)).map((row) => row.id);
  console.log(
    `docs/reliability.md: ${ROWS.length - missing.length} of ${ROWS.length} rows from recorded figures` +
      (missing.length > 0 ? `; not run yet: ${missing.join(", ")}` : ""),
  );
}
