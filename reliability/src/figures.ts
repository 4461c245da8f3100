/**
 * What a reliability test measured, kept for the report: one JSON file per row under
 * `<cache>/reliability/figures/`, overwritten by each run of that row's test, so the table in
 * docs/reliability.md always shows each row's last run (with its date and revision).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { RowId } from "./rows.ts";

export { type ReliabilityRow, ROWS, type RowId } from "./rows.ts";

export interface Figures {
  /** How many inputs, calls or fault rounds were tried. */
  tried: number;
  /** What `tried` counts: "generated messages", "tool calls", "restarts". */
  unit: string;
  /** What went wrong that must not: failed calls, 5xx, crashes, lost writes. 0 is the target. */
  lost: number;
  /** Further measurements worth publishing (RSS before and after, p99, sockets left, …). */
  details?: Record<string, number | string>;
}

export interface RecordedFigures extends Figures {
  id: RowId;
  /** ISO time of the run. */
  at: string;
  /** Short git revision of the tree that ran (with "+changes" when it had uncommitted ones). */
  revision: string;
}

export function figuresDir(): string {
  const cache = process.env.ATRIUM_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "atrium");
  return join(cache, "reliability", "figures");
}

/** Keeps a row's figures from this run (atomically: a report never reads half a file). */
export function recordFigures(id: RowId, figures: Figures): RecordedFigures {
  const recorded: RecordedFigures = { id, ...figures, at: new Date().toISOString(), revision: revision() };
  const dir = figuresDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${id}.json`);
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify(recorded, null, 2)}\n`);
  renameSync(`${file}.${process.pid}`, file);
  return recorded;
}

/** The last recorded figures of each row that has any. */
export function readFigures(dir = figuresDir()): Map<string, RecordedFigures> {
  const figures = new Map<string, RecordedFigures>();
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  } catch {
    return figures;
  }
  for (const name of names) {
    const recorded = JSON.parse(readFileSync(join(dir, name), "utf8")) as RecordedFigures;
    figures.set(recorded.id, recorded);
  }
  return figures;
}

let cachedRevision: string | undefined;
function revision(): string {
  if (cachedRevision !== undefined) return cachedRevision;
  try {
    const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8", stdio: "pipe" }).trim();
    const head = git("rev-parse", "--short", "HEAD");
    cachedRevision = git("status", "--porcelain", "--untracked-files=no") === "" ? head : `${head}+changes`;
  } catch {
    cachedRevision = "unknown";
  }
  return cachedRevision;
}
