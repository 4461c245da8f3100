/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`) against a
 * gateway serving the conformance fixture (fixture.ts), once per protocol version:
 *
 * - `latest`: the latest release (0.1.x), whole server suite (`--suite all`). Its client is the
 *   v1 SDK, which always negotiates 2025-11-25;
 * - `next-<version>`: the 0.2 pre-release (installed as `conformance-next`), `--suite all
 *   --spec-version <version>` for 2025-03-26, 2025-06-18, 2025-11-25 (legacy era: initialize and
 *   sessions, negotiated at that version) and 2026-07-28 (modern era: stateless, `_meta`).
 *
 * Each run takes `expected-failures-<suite>.yml` as its baseline: the CLI exits non-zero on a
 * failure that is not listed and on a listed entry that now passes (stale baseline). Results
 * (`checks.json` per scenario) go to a temporary directory and are counted here.
 *
 *   node gateway/conformance/run.ts [--suite <id>]… [--verbose] [--keep-results] [--update-docs]
 *
 * Exits 1 when any run fails. `--update-docs` rewrites the results table in docs/conformance.md.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startConformanceStack } from "./fixture.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, "../..");
export const DOCS_PATH = join(REPO_ROOT, "docs/conformance.md");
const TABLE_START = "<!-- conformance-results:start -->";
const TABLE_END = "<!-- conformance-results:end -->";

export interface Suite {
  /** Names the expected-failures file: `expected-failures-<id>.yml`. */
  id: string;
  /** npm package (or alias) of the CLI. */
  cli: "@modelcontextprotocol/conformance" | "conformance-next";
  /** The protocol version the scenarios negotiate. */
  protocolVersion: string;
  era: "legacy" | "modern";
  args: string[];
}

export const SUITES: Suite[] = [
  {
    id: "latest",
    cli: "@modelcontextprotocol/conformance",
    protocolVersion: "2025-11-25",
    era: "legacy",
    args: ["--suite", "all"],
  },
  ...(["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const).map(
    (version): Suite => ({
      id: `next-${version}`,
      cli: "conformance-next",
      protocolVersion: version,
      era: version.startsWith("2025") ? "legacy" : "modern",
      args: ["--suite", "all", "--spec-version", version],
    }),
  ),
];

export function expectedFailuresPath(suite: Suite): string {
  return join(HERE, `expected-failures-${suite.id}.yml`);
}

/**
 * `id → reason` of a baseline file: each `- <id>` entry with its YAML comment, on the same line or
 * in the comment block above it (a block covers the entries that follow it, up to the next block).
 */
export function readExpectedFailures(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  let block: string[] = [];
  let afterEntry = false;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const trimmed = line.trim();
    if (trimmed.startsWith("#")) {
      if (afterEntry) block = [];
      afterEntry = false;
      block.push(trimmed.replace(/^#\s?/, ""));
      continue;
    }
    const entry = /^-\s+(['"]?)([^\s#'"]+)\1\s*(?:#\s?(.*))?$/.exec(trimmed);
    if (entry) {
      entries.set(entry[2] ?? "", [...block, entry[3] ?? ""].filter(Boolean).join(" "));
      afterEntry = true;
    } else if (/^[a-z]+:/.test(trimmed)) {
      block = []; // a top-level key: the file's header comment is no entry's reason
      afterEntry = false;
    }
  }
  return entries;
}

function cliVersion(cli: Suite["cli"]): { version: string; bin: string } {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve(`${cli}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { version: string; bin: Record<string, string> };
  const bin = manifest.bin.conformance;
  if (!bin) throw new Error(`${cli} has no 'conformance' bin`);
  return { version: manifest.version, bin: join(dirname(manifestPath), bin) };
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
}

export interface SuiteResult {
  suite: Suite;
  cliVersion: string;
  exitCode: number;
  /** CLI output, colour codes removed. */
  output: string;
  scenarios: ScenarioResult[];
  /** Baseline report of the CLI: failures not in the baseline, and baseline entries that now pass. */
  unexpectedFailures: string[];
  staleEntries: string[];
  expectedFailures: number;
  durationMs: number;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Items of a section of the CLI's baseline report (`  ✗ id` lines after its heading). */
function reportSection(output: string, heading: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const item = /^\s+[✗✓~]\s+(\S+)/.exec(line);
    if (!item) break;
    items.push(item[1] ?? "");
  }
  return items;
}

/** Per-scenario counts from the `server-<scenario>-<timestamp>/checks.json` files of a results directory. */
export function readResults(directory: string): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const name = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry.name)?.[1];
    if (!entry.isDirectory() || !name) continue;
    let checks: { status: string }[];
    try {
      checks = JSON.parse(readFileSync(join(directory, entry.name, "checks.json"), "utf8"));
    } catch {
      continue; // a skipped scenario writes no checks
    }
    const count = (status: string) => checks.filter((check) => check.status === status).length;
    results.push({ scenario: name, passed: count("SUCCESS"), failed: count("FAILURE"), warnings: count("WARNING") });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** Runs one suite's CLI against `url` with its baseline; results are read from a temporary directory. */
export async function runSuite(
  suite: Suite,
  url: string,
  options: { keepResults?: boolean; timeoutMs?: number } = {},
): Promise<SuiteResult> {
  const { version, bin } = cliVersion(suite.cli);
  const outputDir = mkdtempSync(join(tmpdir(), `mcp-conformance-${suite.id}-`));
  const args = [
    bin,
    "server",
    "--url",
    url,
    ...suite.args,
    "--expected-failures",
    expectedFailuresPath(suite),
    "-o",
    outputDir,
  ];
  const started = performance.now();
  const { exitCode, output } = await new Promise<{ exitCode: number; output: string }>((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const timer = setTimeout(() => {
      text += `\n[run.ts] ${suite.id}: killed after ${options.timeoutMs ?? 120_000} ms\n`;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 120_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ exitCode: code ?? 1, output: text.replace(ANSI, "") });
    });
  });
  const durationMs = performance.now() - started;
  const scenarios = readResults(outputDir);
  if (options.keepResults) console.log(`${suite.id}: results kept in ${outputDir}`);
  else rmSync(outputDir, { recursive: true, force: true });
  return {
    suite,
    cliVersion: version,
    exitCode,
    output,
    scenarios,
    unexpectedFailures: reportSection(output, "Unexpected failures"),
    staleEntries: reportSection(output, "Stale baseline entries"),
    expectedFailures: reportSection(output, "Expected failures").length,
    durationMs,
  };
}

export interface Totals {
  scenarios: number;
  /** Scenarios without a failed check or a warning (the CLI's baseline counts warnings as failures). */
  scenariosPassed: number;
  checksPassed: number;
  checksFailed: number;
  warnings: number;
}

export function totals(result: SuiteResult): Totals {
  const sum = (pick: (s: ScenarioResult) => number) => result.scenarios.reduce((n, s) => n + pick(s), 0);
  return {
    scenarios: result.scenarios.length,
    scenariosPassed: result.scenarios.filter((s) => s.failed === 0 && s.warnings === 0).length,
    checksPassed: sum((s) => s.passed),
    checksFailed: sum((s) => s.failed),
    warnings: sum((s) => s.warnings),
  };
}

/** The results as the Markdown table docs/conformance.md shows. */
export function resultsTable(results: SuiteResult[]): string {
  const rows = results.map((result) => {
    const t = totals(result);
    const { suite } = result;
    return `| ${suite.protocolVersion} | ${suite.era} | \`${suite.cli}\` ${result.cliVersion} | \`${suite.id}\` | ${t.scenariosPassed}/${t.scenarios} | ${t.checksPassed} | ${t.checksFailed} | ${t.warnings} |`;
  });
  return [
    "| Protocol version | Era | CLI | Suite (baseline) | Scenarios passed | Checks passed | Checks failed | Warnings |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** The results table currently in docs/conformance.md. */
export function documentedTable(): string {
  const docs = readFileSync(DOCS_PATH, "utf8");
  const start = docs.indexOf(TABLE_START);
  const end = docs.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${DOCS_PATH} has no ${TABLE_START} … ${TABLE_END} section`);
  return docs.slice(start + TABLE_START.length, end).trim();
}

export function updateDocs(results: SuiteResult[]): void {
  const docs = readFileSync(DOCS_PATH, "utf8");
  const start = docs.indexOf(TABLE_START);
  const end = docs.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${DOCS_PATH} has no ${TABLE_START} … ${TABLE_END} section`);
  writeFileSync(
    DOCS_PATH,
    `${docs.slice(0, start + TABLE_START.length)}\n${resultsTable(results)}\n${docs.slice(end)}`,
  );
}

/** Starts the fixture stack, runs the suites one after the other, stops the stack. */
export async function runConformance(
  options: { suites?: Suite[]; keepResults?: boolean; logLevel?: string } = {},
): Promise<SuiteResult[]> {
  const stack = await startConformanceStack({ logLevel: options.logLevel ?? "silent" });
  try {
    const results: SuiteResult[] = [];
    for (const suite of options.suites ?? SUITES) {
      results.push(await runSuite(suite, stack.mcpUrl, { keepResults: options.keepResults ?? false }));
    }
    return results;
  } finally {
    await stack.close();
  }
}

/** One line per run: exit code, counts, baseline problems. */
export function summary(results: SuiteResult[]): string {
  const lines = [resultsTable(results), ""];
  for (const result of results) {
    const verdict = result.exitCode === 0 ? "ok" : `FAILED (exit ${result.exitCode})`;
    lines.push(
      `${result.suite.id}: ${verdict} in ${(result.durationMs / 1000).toFixed(1)} s, ${result.expectedFailures} expected failure(s)`,
    );
    for (const id of result.unexpectedFailures) lines.push(`  unexpected failure: ${id}`);
    for (const id of result.staleEntries) lines.push(`  stale baseline entry (now passes, remove it): ${id}`);
  }
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const chosen = argv.flatMap((arg, i) => (argv[i - 1] === "--suite" ? [arg] : []));
  const unknown = chosen.filter((id) => !SUITES.some((suite) => suite.id === id));
  if (unknown.length > 0) {
    console.error(`unknown suite ${unknown.join(", ")}; choose from ${SUITES.map((suite) => suite.id).join(", ")}`);
    return 2;
  }
  const suites = chosen.length > 0 ? SUITES.filter((suite) => chosen.includes(suite.id)) : SUITES;
  const results = await runConformance({ suites, keepResults: argv.includes("--keep-results") });
  for (const result of results) {
    if (argv.includes("--verbose") || result.exitCode !== 0) {
      console.log(`\n===== ${result.suite.id} (${result.suite.cli} ${result.cliVersion}) =====\n${result.output}`);
    }
  }
  console.log(`\n${summary(results)}`);
  if (argv.includes("--update-docs")) {
    if (suites.length !== SUITES.length) {
      console.error("--update-docs needs every suite: run without --suite");
      return 2;
    }
    updateDocs(results);
    console.log(`\nupdated ${DOCS_PATH}`);
  }
  return results.every((result) => result.exitCode === 0) ? 0 : 1;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
