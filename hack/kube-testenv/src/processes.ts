/**
 * Child processes of a test environment: spawn with captured output, graceful stop (SIGTERM, then
 * SIGKILL), and two safety nets so no etcd or kube-apiserver outlives the test process: a
 * synchronous 'exit' hook, and a watchdog shell for deaths by signal, when Node runs no hooks.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

export { isAlive } from "@atrium/contract/process-lifecycle";

/** A spawned binary whose stderr is kept for error messages. */
export interface ManagedProcess {
  readonly name: string;
  /** Undefined when the binary could not be started. */
  readonly pid: number | undefined;
  /** Resolves once the process is gone, with e.g. "exit code 1" or "signal SIGKILL". */
  readonly exited: Promise<string>;
  /** The exit description once the process is gone, else undefined. */
  exitStatus(): string | undefined;
  /** The last `count` lines written to stderr. */
  stderrTail(count: number): string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs: number): Promise<void>;
  /** SIGKILL without waiting: for the synchronous 'exit' hook. */
  killNow(): void;
}

const STDERR_LINES_KEPT = 200;

/** Spawns `command`; every output line goes to `log` prefixed with `[name]`. */
export function startProcess(
  name: string,
  command: string,
  args: string[],
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): ManagedProcess {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const stderrLines: string[] = [];
  let status: string | undefined;
  const exited = new Promise<string>((resolve) => {
    // 'close' rather than 'exit': it waits for stdio to drain, so the stderr tail is complete.
    child.once("close", (code, signal) => {
      status ??= signal ? `signal ${signal}` : `exit code ${code}`;
      resolve(status);
    });
    child.once("error", (error) => {
      status ??= `failed to start: ${error.message}`;
      resolve(status);
    });
  });
  createInterface({ input: child.stdout }).on("line", (line) => log(`[${name}] ${line}`));
  createInterface({ input: child.stderr }).on("line", (line) => {
    stderrLines.push(line);
    if (stderrLines.length > STDERR_LINES_KEPT) stderrLines.shift();
    log(`[${name}] ${line}`);
  });
  return {
    name,
    pid: child.pid,
    exited,
    exitStatus: () => status,
    stderrTail: (count) => stderrLines.slice(-count),
    async stop(graceMs) {
      if (status !== undefined) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
    killNow() {
      if (status === undefined) child.kill("SIGKILL");
    },
  };
}

/** "1.2 s" */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

const exitCleanups = new Set<() => void>();

/** Runs `cleanup` (synchronous only) if the test process exits; returns the unregister function. */
export function onProcessExit(cleanup: () => void): () => void {
  if (exitCleanups.size === 0) process.on("exit", runExitCleanups);
  exitCleanups.add(cleanup);
  return () => {
    exitCleanups.delete(cleanup);
    if (exitCleanups.size === 0) process.off("exit", runExitCleanups);
  };
}

function runExitCleanups(): void {
  for (const cleanup of exitCleanups) {
    try {
      cleanup();
    } catch {
      // Best effort: one failing cleanup must not keep the others from running.
    }
  }
}

/** Kills the tracked processes and removes a folder when the test process dies, however it dies. */
export interface Watchdog {
  track(pid: number): void;
  /** Normal shutdown: the watchdog goes away without killing anything. */
  dispose(): void;
}

// Reads one pid a line until its stdin closes. Only the test process holds the pipe's write end
// (Node opens it close-on-exec), so EOF means that process is gone: even SIGKILL is noticed.
// With a cleanup command, that command does the killing and removing instead.
const WATCHDOG_SCRIPT = `dir=$1; shift
pids=
while read -r pid; do pids="$pids $pid"; done
if [ $# -gt 0 ]; then exec "$@"; fi
kill -KILL $pids 2>/dev/null
sleep 1
rm -rf -- "$dir"`;

/**
 * Starts the watchdog of `dir`. By default it kills the tracked pids and removes `dir`; with
 * `cleanup` (a command and its arguments) it runs that command instead.
 */
export function startWatchdog(dir: string, cleanup: string[] = []): Watchdog {
  // detached: its own session, so the Ctrl-C that kills the test process group spares it.
  const child = spawn("sh", ["-c", WATCHDOG_SCRIPT, "kube-testenv-watchdog", dir, ...cleanup], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  // Neither the watchdog nor its pipe may keep the test process's event loop alive.
  child.unref();
  (child.stdin as Socket).unref();
  child.on("error", () => {}); // a missing `sh` only loses the safety net
  child.stdin.on("error", () => {});
  let disposed = false;
  return {
    track(pid) {
      if (!disposed) child.stdin.write(`${pid}\n`);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      // Kill before closing stdin: EOF alone would make it kill pids that may since be reused.
      child.kill("SIGKILL");
      child.stdin.destroy();
    },
  };
}

/** Binaries running out of a temp dir of their own; see {@link startInTempDir}. */
export interface TempDirProcesses {
  dir: string;
  /** Starts a binary; its pid goes to the watchdog. */
  launch(name: string, command: string, args: string[], env?: NodeJS.ProcessEnv): ManagedProcess;
  /** Stops the binaries (reverse start order), runs `beforeRemove`, removes the dir; idempotent. */
  stop(): Promise<void>;
}

/**
 * A temp dir `<tmp>/atrium-<name>-…` for binaries that `launch` starts. `stop()` ends them
 * gracefully, removes the dir and logs `<name>: stopped in …`; if the test process exits first,
 * the exit hook kills them and removes it, and on a death by signal the watchdog does.
 */
export async function startInTempDir(options: {
  name: string;
  graceMs: number;
  log: (line: string) => void;
  /** After the binaries stopped, before the dir goes (e.g. keeping files for the secrets scan). */
  beforeRemove?: (dir: string) => Promise<void>;
}): Promise<TempDirProcesses> {
  const dir = await mkdtemp(join(tmpdir(), `atrium-${options.name}-`));
  const watchdog = startWatchdog(dir);
  const children: ManagedProcess[] = [];
  const removeExitHook = onProcessExit(() => {
    for (const child of children) child.killNow();
    watchdog.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  let stopping: Promise<void> | undefined;
  return {
    dir,
    launch(name, command, args, env) {
      const child = startProcess(name, command, args, options.log, env);
      children.push(child);
      if (child.pid !== undefined) watchdog.track(child.pid);
      return child;
    },
    stop() {
      stopping ??= (async () => {
        const startedAt = Date.now();
        for (const child of children.toReversed()) await child.stop(options.graceMs);
        watchdog.dispose();
        await options.beforeRemove?.(dir);
        await rm(dir, { recursive: true, force: true });
        removeExitHook();
        options.log(`${options.name}: stopped in ${seconds(Date.now() - startedAt)}`);
      })();
      return stopping;
    },
  };
}
