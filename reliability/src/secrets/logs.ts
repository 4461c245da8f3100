/**
 * Where components started by tests log during a run with a run dir: each instance to a file of
 * its own under `<run dir>/logs/`, at the most verbose level the suite can afford, for the
 * end-of-run scan. Outside such a run, test components stay silent, as before.
 */
import { appendFileSync, cpSync, createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { testRunDir } from "./ledger.ts";

/** `debug` costs little more than `info` (docs/reliability.md, "Secrets never logged") and logs more. */
export const CAPTURED_LOG_LEVEL = "debug";

let files = 0;

/** A new file under the run dir's logs for one instance of `component`; undefined outside a run. */
export function testLogFile(component: string, extension = "log"): string | undefined {
  const dir = testRunDir();
  if (!dir) return undefined;
  const logs = join(dir, "logs");
  mkdirSync(logs, { recursive: true });
  files += 1;
  return join(logs, `${fileName(component)}-${process.pid}-${files}.${extension}`);
}

/** A test component's log settings: verbose to a file of its own during a run, silent otherwise. */
export function testLogging(component: string): { logLevel: string; logFile: string | undefined } {
  const logFile = testLogFile(component);
  return { logLevel: logFile ? CAPTURED_LOG_LEVEL : "silent", logFile };
}

/** The log level for a child process whose output `captureOutput` copies: verbose during a run, `otherwise` outside. */
export function testLogLevel(otherwise: string): string {
  return testRunDir() ? CAPTURED_LOG_LEVEL : otherwise;
}

/**
 * Copies a child process's output streams (its log: stdout, stderr) to files of the run dir,
 * one each, so a line of one is never cut by the other. Outside a run it only drains them, so a
 * child whose output nobody else reads never blocks on a full pipe.
 */
export function captureOutput(component: string, ...streams: (Readable | null | undefined)[]): void {
  for (const stream of streams) {
    if (!stream) continue;
    const file = testLogFile(component);
    if (!file) {
      stream.resume();
      continue;
    }
    const copy = createWriteStream(file, { flags: "a" });
    stream.on("data", (chunk: Buffer | string) => copy.write(chunk));
    stream.on("end", () => copy.end());
    stream.on("error", () => copy.end());
  }
}

/**
 * Appends `text` to this process's log of `component` in the run dir: e.g. an in-process
 * command's standard error, or the logs of a container or pod the test collects before it goes.
 */
export function appendToLog(component: string, text: string): void {
  const dir = testRunDir();
  if (!dir || !text) return;
  mkdirSync(join(dir, "logs"), { recursive: true });
  const file = join(dir, "logs", `${fileName(component)}-${process.pid}.log`);
  appendFileSync(file, text.endsWith("\n") ? text : `${text}\n`);
}

/** Copies a folder of logs a test's processes wrote (a local stack's) into the run dir, before the test removes it. */
export function keepLogs(component: string, folder: string): void {
  const dir = testLogFile(component, "d");
  if (dir) cpSync(folder, dir, { recursive: true, force: true });
}

/** A component's name as part of a file name, e.g. a benchmark's child "gateway atrium-1". */
function fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_");
}
