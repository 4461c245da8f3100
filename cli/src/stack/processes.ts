/**
 * Background processes of the local stack: started detached (they outlive the CLI), logging to
 * files, stopped with SIGTERM (graceful: the control plane flushes its database) and SIGKILL
 * only if they do not exit in time.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "@atrium/contract/process-lifecycle";
import { request } from "undici";

export { isAlive };

export interface StackProcess {
  name: string;
  pid: number;
  /** Base URL it serves. */
  url: string;
  log: string;
}

export function startDetached(
  name: string,
  script: string,
  env: Record<string, string>,
  logDir: string,
  url: string,
): StackProcess {
  mkdirSync(logDir, { recursive: true });
  const log = join(logDir, `${name}.log`);
  const out = openSync(log, "a");
  const child = spawn(process.execPath, [script], {
    detached: true,
    stdio: ["ignore", out, out],
    env: { ...process.env, ...env },
  });
  closeSync(out);
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start the ${name}`);
  return { name, pid: child.pid, url, log };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopProcess(pid: number, graceMs = 15_000): Promise<"stopped" | "killed" | "gone"> {
  if (!isAlive(pid)) return "gone";
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return "stopped";
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(pid, "SIGKILL");
  return "killed";
}

export interface Health {
  live: boolean;
  ready: boolean;
  version: string | undefined;
}

export async function health(url: string): Promise<Health> {
  const get = async (path: string) => {
    try {
      const response = await request(`${url}${path}`, { headersTimeout: 2000, bodyTimeout: 2000 });
      const body = (await response.body.json().catch(() => ({}))) as { version?: string };
      return { ok: response.statusCode === 200, version: body.version };
    } catch {
      return { ok: false, version: undefined };
    }
  };
  const [live, ready] = await Promise.all([get("/q/health/live"), get("/q/health/ready")]);
  return { live: live.ok, ready: ready.ok, version: live.version };
}

/** Waits until `url` is ready, failing early (with the log's tail) if the process dies. */
export async function waitReady(process_: StackProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await health(process_.url)).ready) return;
    if (!isAlive(process_.pid) || Date.now() > deadline) {
      const why = isAlive(process_.pid) ? `not ready after ${timeoutMs / 1000} s` : "exited";
      throw new Error(`The ${process_.name} ${why}. Last lines of ${process_.log}:\n${tail(process_.log, 15)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
