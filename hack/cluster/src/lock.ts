/**
 * One cluster per machine. The lock is an flock(1) on ~/.cache/atrium/cluster/lock, held by a
 * small `flock … cat` process for as long as its run lives: it reads from a pipe only this process
 * holds, so the kernel releases the lock when the run stops or dies, however it dies. The run
 * holding the lock first tears down whatever a dead run left (its watchdog may be at it too:
 * teardown.sh is idempotent), then creates the network namespace and records itself as owner.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import type { Socket } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { isAlive } from "@atrium/kube-testenv";
import { clusterCacheDir, NETNS, ownerFile } from "./layout.ts";
import { teardown } from "./teardown.ts";

const run = promisify(execFile);

export interface Owner {
  pid: number;
  dir: string;
}

export async function readOwner(): Promise<Owner | undefined> {
  const text = await readFile(ownerFile(), "utf8").catch(() => "");
  const [pid, dir] = text.trim().split(" ");
  return pid && dir ? { pid: Number(pid), dir } : undefined;
}

/** Releases the lock (idempotent). */
export type Release = () => void;

/**
 * Takes the machine's cluster lock for the run in `dir` (waiting up to `timeoutMs` for another run
 * to stop), clears what a dead run left, and creates the network namespace.
 */
export async function acquireCluster(dir: string, timeoutMs: number, log: (line: string) => void): Promise<Release> {
  await mkdir(clusterCacheDir(), { recursive: true });
  const holder = await lock(join(clusterCacheDir(), "lock"), timeoutMs, log);
  const release: Release = () => {
    holder.stdin?.destroy();
    holder.kill();
  };
  try {
    // A live owner without the lock is a run of an older checkout (before this lock): let it finish.
    const deadline = Date.now() + timeoutMs;
    for (
      let owner = await readOwner();
      owner && isAlive(owner.pid) && owner.pid !== process.pid;
      owner = await readOwner()
    ) {
      if (Date.now() > deadline) throw new Error(`the test cluster of process ${owner.pid} still runs (${owner.dir})`);
      await sleep(2_000);
    }
    const stale = await readOwner();
    if (stale) {
      log(`cluster: tearing down what the run of process ${stale.pid} left in ${stale.dir}`);
      await teardown(stale.dir);
    }
    // A namespace without an owner: a run died between creating it and recording itself.
    await run("ip", ["netns", "del", NETNS]).catch(() => {});
    await run("ip", ["netns", "add", NETNS]);
    await writeFile(ownerFile(), `${process.pid} ${dir}\n`);
    return release;
  } catch (error) {
    release();
    throw error;
  }
}

async function lock(file: string, timeoutMs: number, log: (line: string) => void): Promise<ChildProcess> {
  const seconds = String(Math.ceil(timeoutMs / 1000));
  const holder = spawn("flock", ["--exclusive", "--wait", seconds, file, "sh", "-c", "echo locked && exec cat"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  holder.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const waitingNote = setTimeout(async () => {
    const owner = await readOwner();
    log(`cluster: waiting for the cluster of process ${owner?.pid ?? "?"} to stop (one cluster per machine)`);
  }, 1_000);
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: holder.stdout as NodeJS.ReadableStream }).once("line", () => resolve());
      holder.once("error", (error) => reject(new Error(`flock could not start (util-linux): ${error.message}`)));
      holder.once("exit", (code) =>
        reject(
          new Error(
            code === 1
              ? `another test cluster still runs after ${seconds} s (one per machine): stop it, or run hack/cluster/down.sh`
              : `flock ${file} failed (${code}): ${stderr.trim()}`,
          ),
        ),
      );
    });
  } finally {
    clearTimeout(waitingNote);
  }
  // The holder must not keep this process alive on its own.
  holder.unref();
  (holder.stdin as Socket).unref();
  (holder.stdout as Socket).unref();
  (holder.stderr as Socket).unref();
  return holder;
}
