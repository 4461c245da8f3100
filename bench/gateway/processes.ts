/**
 * Child processes of the gateway benchmark: each started under `taskset` on one core, its
 * output kept (the tail, for error messages), its CPU time and memory read from /proc, and
 * every one of them killed when the benchmark ends — normally, on an exception or on Ctrl-C.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { captureOutput } from "@atrium/reliability/secrets";

export const REPO_ROOT = join(import.meta.dirname, "..", "..");

/**
 * Core 0 runs the system under test; core 1 the backend, control plane and load generator.
 * A one-core machine (a small CI runner) puts everything on core 0: the smoke still runs.
 */
export const CONTESTANT_CORE = 0;
export const HARNESS_CORE = availableParallelism() >= 2 ? 1 : 0;

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
const OUTPUT_TAIL_CHARS = 16_000;

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  output(): string;
  /** Resolves with the first match of `pattern` in the child's output. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Child>();
/** Pids of the benchmark's helpers started by other code (adoptChild): its own, not other people's. */
const adopted = new Set<number>();
/** Scratch folders of this process (scratchFolder), removed when it exits. */
const scratchFolders = new Set<string>();

function cleanUpNow() {
  for (const child of running) child.process.kill("SIGKILL");
  for (const folder of scratchFolders) rmSync(folder, { recursive: true, force: true });
}
// Children and scratch folders must not outlive the benchmark, whatever ends it: the signal
// handlers below exit at once, so the exit handler (synchronous) is the one place that always runs.
process.on("exit", cleanUpNow);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    cleanUpNow();
    process.exit(130);
  });
}

/** A new folder in the system temp folder, removed when this process exits (a signal included). */
export function scratchFolder(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `atrium-${name}-`));
  scratchFolders.add(folder);
  return folder;
}

/** Pins this process (the load generator) and all its threads to `core`. */
export function pinSelf(core: number): void {
  execFileSync("taskset", ["-a", "-p", "-c", String(core), String(process.pid)], { stdio: "ignore" });
}

/** `node <args>` pinned to `core` with all its threads (`taskset -a` execs node: same pid). */
export function startPinned(name: string, core: number, nodeArgs: string[], env: Record<string, string> = {}): Child {
  return startPinnedCommand(name, core, process.execPath, nodeArgs, env);
}

/** `command <args>` pinned to `core` with all its threads: a contestant that is not a Node program. */
export function startPinnedCommand(
  name: string,
  core: number,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Child {
  const child = spawn("taskset", ["-a", "-c", String(core), command, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`${name}: could not start`);
  let tail = "";
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS);
    for (const listener of listeners) listener();
  };
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);
  // Under a test run (the smoke tests), to its logs too, for the secrets scan.
  captureOutput(`bench ${name}`, child.stdout, child.stderr);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      running.delete(handle);
      for (const listener of listeners) listener();
      resolve();
    }),
  );

  const handle: Child = {
    name,
    pid: child.pid,
    process: child,
    output: () => tail,
    waitForOutput: (pattern, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(tail);
          if (match) {
            done();
            resolve(match);
          } else if (exited) {
            done();
            reject(new Error(`${name} exited before printing ${pattern}:\n${tail}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms:\n${tail}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    stop: async (graceMs = 5_000) => {
      if (exited) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  return handle;
}

/**
 * A child of this process that other code started (the test collector, whose package spawns it):
 * found by its command name (`/proc/<pid>/comm`), pinned to `core` with all its threads, and
 * counted as the benchmark's own by othersCpu. Returns its pid.
 */
export function adoptChild(command: string, core: number): number {
  const pid = readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .find((candidate) => {
      try {
        const stat = readFileSync(`/proc/${candidate}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return parent === process.pid && readFileSync(`/proc/${candidate}/comm`, "utf8").trim() === command;
      } catch {
        return false; // exited meanwhile
      }
    });
  if (pid === undefined) throw new Error(`no child process of this one named ${command}`);
  execFileSync("taskset", ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
  adopted.add(pid);
  return pid;
}

/** Stops every child still running (the `finally` of the benchmark). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop(3_000)));
}

/** User + system CPU time of a process so far, in microseconds (/proc/<pid>/stat fields 14 and 15). */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may contain spaces; fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * The frame of a benchmark's main: pinned to the harness core, `work` given a scratch folder;
 * whatever ends it, every child is stopped and the folder removed. Exits 1 when `work` threw or
 * returned false (something could not be measured), else 0.
 */
export async function runMain(
  name: string,
  work: (scratchDir: string) => Promise<boolean | undefined>,
): Promise<never> {
  pinSelf(HARNESS_CORE);
  const scratchDir = scratchFolder(name);
  let ok = false;
  try {
    ok = (await work(scratchDir)) !== false;
  } catch (error) {
    process.stderr.write(`[${name}] FAILED: ${(error as Error).stack}\n`);
  } finally {
    await stopAll();
  }
  // The exit handler removes the scratch folder.
  process.exit(ok ? 0 : 1);
}

/** CPU time so far of every process on the machine (pid → µs), kernel threads included. */
export function processTimes(): Map<number, number> {
  const times = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      times.set(Number(entry), cpuMicros(Number(entry)));
    } catch {
      // exited meanwhile
    }
  }
  return times;
}

/**
 * CPU that processes other than this one and its children used between two `processTimes()`:
 * the total in µs and the biggest users (pid, command, µs) — other people's test runs on a
 * shared machine, typically.
 */
export function othersCpu(
  before: Map<number, number>,
  after: Map<number, number>,
): { micros: number; top: { pid: number; command: string; micros: number }[] } {
  const own = new Set([process.pid, ...adopted, ...[...running].map((child) => child.pid)]);
  const users: { pid: number; micros: number }[] = [];
  for (const [pid, micros] of after) {
    if (!own.has(pid)) users.push({ pid, micros: micros - (before.get(pid) ?? 0) });
  }
  users.sort((a, b) => b.micros - a.micros);
  const commandOf = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim().slice(0, 80) || `pid ${pid}`;
    } catch {
      return `pid ${pid} (exited)`;
    }
  };
  return {
    micros: users.reduce((sum, user) => sum + user.micros, 0),
    top: users.slice(0, 3).map((user) => ({ ...user, command: commandOf(user.pid) })),
  };
}

/** Per-core busy and total jiffies from /proc/stat (busy = everything but idle and iowait). */
export function coreTimes(): { busy: number; total: number }[] {
  return readFileSync("/proc/stat", "utf8")
    .split("\n")
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
      const busy = (user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0);
      return { busy, total: busy + (idle ?? 0) + (iowait ?? 0) };
    });
}

/** Busy share of each core between two `coreTimes()` readings, 0..1. */
export function coreBusy(
  before: { busy: number; total: number }[],
  after: { busy: number; total: number }[],
): number[] {
  return after.map((core, i) => {
    const start = before[i] ?? { busy: 0, total: 0 };
    return (core.busy - start.busy) / Math.max(1, core.total - start.total);
  });
}

/** Resident memory now and its peak, in MB (/proc/<pid>/status VmRSS, VmHWM). */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** A port free right now on 127.0.0.1 (for programs that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `condition` every 50 ms until it holds; throws with `what` after `timeoutMs`. */
export async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
