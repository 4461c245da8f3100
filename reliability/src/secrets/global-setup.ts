/**
 * Vitest global setup (root vitest.config.ts): every test run gets a run dir in the system temp
 * folder (ATRIUM_TEST_RUN_DIR, inherited by the workers), where test support writes components'
 * logs (logs.ts) and the ledger of secrets (ledger.ts). At the end of the run every log is
 * scanned for every secret (scan.ts): a hit fails the run, and the run dir is kept for
 * inspection (the next run removes it); a clean run removes it. The figures go to the
 * reliability report, row `secrets-in-logs`.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive } from "@atrium/kube-testenv/processes";
import { recordFigures } from "../figures.ts";
import { RUN_DIR_VARIABLE } from "./ledger.ts";
import { formatHits, type ScanResult, scanRunDir } from "./scan.ts";

export const RUN_DIR_PREFIX = "atrium-test-run-";
/** The process that owns a run dir; a dir whose owner is gone is a finished (or killed) run's. */
export const OWNER_FILE = "owner.pid";

export function setup(): () => void {
  removeFinishedRuns(tmpdir());
  const runDir = mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
  writeFileSync(join(runDir, OWNER_FILE), String(process.pid));
  process.env[RUN_DIR_VARIABLE] = runDir;
  return () => teardown(runDir);
}

function teardown(runDir: string): void {
  // Logs and ledger entries written before the removal are gone: a scan now would pass on too little.
  if (!existsSync(join(runDir, OWNER_FILE)))
    throw new Error(`the run dir ${runDir} was removed during the test run: its logs cannot be scanned for secrets`);
  const started = performance.now();
  const result = scanRunDir(runDir);
  console.log(
    `secrets in logs: ${result.secrets} secrets (${result.needles} forms) searched in ${result.logLines} lines of ` +
      `${result.logFiles} log files, ${result.hits.length} found`,
  );
  // A run that started nothing that logs (unit tests alone) keeps the last real run's figures.
  if (result.logFiles > 0)
    recordFigures("secrets-in-logs", {
      tried: result.secrets,
      unit: "secrets, each searched in every log line",
      lost: result.hits.length,
      details: {
        "forms searched": result.needles,
        "log files": result.logFiles,
        "log lines": result.logLines,
        "log MB": Math.round(result.logBytes / 1e5) / 10,
        "scan ms": Math.round(performance.now() - started),
      },
    });
  concludeRun(runDir, result);
}

/** Fails the run on a hit, keeping the run dir to inspect; removes it after a clean scan. */
export function concludeRun(runDir: string, result: ScanResult): void {
  if (result.hits.length > 0) {
    throw new Error(
      `${result.hits.length} secret(s) found in the logs of this test run; run dir kept for inspection: ${runDir}\n${formatHits(result.hits)}`,
    );
  }
  rmSync(runDir, { recursive: true, force: true });
}

/** Removes the run dirs of runs that have ended: clean ones that were killed, and kept ones. */
export function removeFinishedRuns(parent: string): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(RUN_DIR_PREFIX)) continue;
    const dir = join(parent, name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(dir, OWNER_FILE), "utf8"));
    } catch {
      continue; // being created, or not one of ours
    }
    if (!isAlive(owner)) rmSync(dir, { recursive: true, force: true });
  }
}
