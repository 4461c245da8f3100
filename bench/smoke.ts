/**
 * Running a benchmark script as the CI smoke tests do (`*.smoke.test.ts`): `node <script> <args>`,
 * its stdout (the report) returned to match; a non-zero exit rejects. Under a test run its output
 * is also copied to the run's logs, as its children's are (gateway/processes.ts), for the
 * end-of-run secrets scan.
 */
import { execFile } from "node:child_process";
import { basename } from "node:path";
import { promisify } from "node:util";
import { captureOutput } from "@atrium/reliability/secrets";

export async function runBenchmark(script: string, args: string[], maxBuffer = 1024 * 1024): Promise<string> {
  const running = promisify(execFile)(process.execPath, [script, ...args], { maxBuffer });
  captureOutput(`bench ${basename(script, ".ts")}`, running.child.stdout, running.child.stderr);
  return (await running).stdout;
}
