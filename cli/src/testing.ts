/**
 * Test support: `atrium` run in-process (runCli with captured streams) or as a child process
 * (`node cli/src/main.ts`, as a user runs it), always with its own config folder; and the stack
 * the command tests run against (a real control plane and gateway, logged in).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { TEST_ADMIN, type TestControlPlane } from "@atrium/control-plane/testing";
import type { Gateway } from "@atrium/gateway";
import { FIXTURE_OPENAPI, type Stack, startStack } from "@atrium/gateway/testing";
import { appendToLog, captureOutput, recordCredentialsIn, recordSecret } from "@atrium/reliability/secrets";
import { afterAll, beforeAll, expect } from "vitest";
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
  // Standard error is the CLI's log, scanned at the end of the run; standard output is the
  // command's answer, where a new token or key is shown once by design.
  appendToLog("cli", stderr.text());
  recordRun(options.stdin, stdout.text());
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * A run's secrets for the end-of-run log scan: a one-line standard input (how the CLI takes
 * passwords and secret values), and the tokens and keys its answer shows once.
 */
function recordRun(stdin: string | undefined, stdout: string): void {
  const line = stdin?.trim();
  if (line && !line.includes("\n")) recordSecret("CLI standard input (a password or secret value)", line);
  recordCredentialsIn(stdout);
}

/** `node cli/src/main.ts <args>` as a child process, stdin piped. */
export function spawnAtrium(args: string[], options: { env: NodeJS.ProcessEnv; stdin?: string }): Promise<AtriumRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    captureOutput("cli", child.stderr);
    child.on("error", reject);
    child.on("close", (code) => {
      recordRun(options.stdin, stdout);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? "");
  });
}

/** The run succeeded (the message shows stderr when it did not). */
export function ok(run: AtriumRun): AtriumRun {
  expect(run.code, `stderr: ${run.stderr}\nstdout: ${run.stdout}`).toBe(0);
  return run;
}

/** The run failed with exit code `code` and said `message` on stderr (a string it contains, or a pattern). */
export function fails(run: AtriumRun, code: number, message: string | RegExp): AtriumRun {
  expect(run.code, `stderr: ${run.stderr}\nstdout: ${run.stdout}`).toBe(code);
  if (typeof message === "string") expect(run.stderr).toContain(message);
  else expect(run.stderr).toMatch(message);
  return run;
}

/** What a successful run printed, parsed as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the CLI printed
export function json(run: AtriumRun): any {
  return JSON.parse(ok(run).stdout);
}

/** The value of a row of a key/value table, e.g. `ID   123` → "123". */
export function row(run: AtriumRun, header: string): string | undefined {
  return new RegExp(`^${header}\\s{2,}(.*)$`, "m").exec(run.stdout)?.[1]?.trim();
}

/** `atrium login` as the test admin, the password on stdin. */
export function login(into: NodeJS.ProcessEnv, controlPlane: TestControlPlane | string): Promise<AtriumRun> {
  const url = typeof controlPlane === "string" ? controlPlane : controlPlane.url;
  return runAtrium(["login", "--control-plane", url, "--username", TEST_ADMIN.username], {
    env: into,
    stdin: `${TEST_ADMIN.password}\n`,
  });
}

export interface CliStack {
  /** A control plane with the fixture Service, plan and Exposition, and its gateway group. */
  stack: Stack;
  gateway: Gateway;
  /** Logged in to the stack's control plane as the test admin. */
  env: NodeJS.ProcessEnv;
  /** An OpenAPI document served on loopback, for `service import <url>`. */
  documentUrl: string;
  /** A port nothing listens on. */
  closedPort: number;
  /** `atrium <args>` with `env`. */
  atrium(args: string[], stdin?: string): Promise<AtriumRun>;
  /** Another config folder (removed by `close`). */
  newEnv(): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** A real control plane and gateway, and a CLI logged in to them. */
export async function startCliStack(): Promise<CliStack> {
  // `service import <url>` reads from a listener on loopback, which the SSRF policy refuses
  // unless an operator opens it; the in-process control plane reads this at start.
  process.env.ATRIUM_IMPORT_ALLOW_HOSTS = "127.0.0.1";
  const envs: NodeJS.ProcessEnv[] = [];
  const newEnv = () => {
    const created = testEnv();
    envs.push(created);
    return created;
  };
  const stack = await startStack();
  const documentServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(FIXTURE_OPENAPI);
  });
  const close = async () => {
    await stack.close();
    documentServer.closeAllConnections();
    await new Promise((resolve) => documentServer.close(resolve));
    for (const each of envs) rmSync(each.ATRIUM_CONFIG_DIR as string, { recursive: true, force: true });
  };
  try {
    const gateway = await stack.startGateway();
    await new Promise<void>((resolve) => documentServer.listen(0, "127.0.0.1", resolve));
    const documentUrl = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}/openapi.json`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const env = newEnv();
    ok(await login(env, stack.controlPlane));
    return {
      stack,
      gateway,
      env,
      documentUrl,
      closedPort,
      atrium: (args, stdin) => runAtrium(args, { env, ...(stdin === undefined ? {} : { stdin }) }),
      newEnv,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A CLI stack for the tests of one file: started before them, closed after them. `ready` gets it
 * (to keep what the tests read); the answer runs `atrium <args>` logged in.
 */
export function withCliStack(ready: (cli: CliStack) => void = () => {}) {
  let cli: CliStack | undefined;
  beforeAll(async () => {
    cli = await startCliStack();
    ready(cli);
  });
  afterAll(async () => {
    await cli?.close();
  });
  return (args: string[], stdin?: string): Promise<AtriumRun> => {
    if (!cli) throw new Error("the CLI stack has not started");
    return cli.atrium(args, stdin);
  };
}
