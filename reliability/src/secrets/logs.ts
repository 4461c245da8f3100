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
  return join(logs, `${component}-${process.pid}-${files}.${extension}`);
}

/** A test component's log settings: verbose to a file of its own during a run, silent otherwise. */
export function testLogging(component: string): { logLevel: string; logFile: string | undefined } {
  const logFile = testLogFile(component);
  return { logLevel: logFile ? CAPTURED_LOG_LEVEL : "silent", logFile };
}

/** Copies a child process's output stream (its log) to a file of the run dir too; nothing outside a run. */
export function captureOutput(component: string, stream: Readable | null | undefined): void {
  const file = stream ? testLogFile(component) : undefined;
  if (!stream || !file) return;
  const copy = createWriteStream(file, { flags: "a" });
  stream.on("data", (chunk: Buffer | string) => copy.write(chunk));
  stream.on("end", () => copy.end());
  stream.on("error", () => copy.end());
}

/** Appends `text` (e.g. an in-process command's standard error) to this process's log of `component` in the run dir. */
export function appendToLog(component: string, text: string): void {
  const dir = testRunDir();
  if (!dir || !text) return;
  mkdirSync(join(dir, "logs"), { recursive: true });
  appendFileSync(join(dir, "logs", `${component}-${process.pid}.log`), text.endsWith("\n") ? text : `${text}\n`);
}

/** Copies a folder of logs a test's processes wrote (a local stack's) into the run dir, before the test removes it. */
export function keepLogs(component: string, folder: string): void {
  const dir = testLogFile(component, "d");
  if (dir) cpSync(folder, dir, { recursive: true, force: true });
}
