/**
 * Test support: `atrium` run in-process (runCli with captured streams) or as a child process
 * (`node cli/src/main.ts`, as a user runs it), always with its own config folder.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { runCli } from "./program.ts";

export interface AtriumRun {
  code: number;
  stdout: string;
  stderr: string;
}

export const MAIN = join(import.meta.dirname, "main.ts");

/** An environment whose ATRIUM_CONFIG_DIR is a new temporary folder. */
export function testEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: "1",
    ATRIUM_CONFIG_DIR: mkdtempSync(join(tmpdir(), "atrium-cli-test-")),
    ...extra,
  };
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/** `atrium <args>` in this process; `stdin` is piped (not a terminal). */
export async function runAtrium(
  args: string[],
  options: { env: NodeJS.ProcessEnv; stdin?: string },
): Promise<AtriumRun> {
  const stdout = collector();
  const stderr = collector();
  const code = await runCli(["node", "atrium", ...args], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
    env: options.env,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** `node cli/src/main.ts <args>` as a child process, stdin piped. */
export function spawnAtrium(args: string[], options: { env: NodeJS.ProcessEnv; stdin?: string }): Promise<AtriumRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
