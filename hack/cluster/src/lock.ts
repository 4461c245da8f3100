/**
 * One cluster per machine: the network namespace is the lock. A run that finds it taken waits for
 * its owner (a live process) to stop, or tears down what a dead owner left behind.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { NETNS, ownerFile } from "./layout.ts";
import { teardown } from "./teardown.ts";

const run = promisify(execFile);
const POLL_MS = 2_000;

export interface Owner {
  pid: number;
  dir: string;
}

export async function readOwner(): Promise<Owner | undefined> {
  const text = await readFile(ownerFile(), "utf8").catch(() => "");
  const [pid, dir] = text.trim().split(" ");
  return pid && dir ? { pid: Number(pid), dir } : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Creates the namespace for the run in `dir`, waiting up to `timeoutMs` for another run to end. */
export async function acquireCluster(dir: string, timeoutMs: number, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waitingFor: number | undefined;
  for (;;) {
    try {
      await run("ip", ["netns", "add", NETNS]);
      break;
    } catch (error) {
      const owner = await readOwner();
      if (owner && owner.pid !== process.pid && alive(owner.pid)) {
        if (Date.now() > deadline) {
          throw new Error(
            `the test cluster of process ${owner.pid} (${owner.dir}) is still running after ${timeoutMs / 1000} s: one cluster runs at a time; stop it or run hack/cluster/down.sh`,
          );
        }
        if (waitingFor !== owner.pid) log(`cluster: waiting for the cluster of process ${owner.pid} to stop`);
        waitingFor = owner.pid;
        await sleep(POLL_MS);
        continue;
      }
      if (!owner) {
        const stderr = (error as { stderr?: string }).stderr ?? String(error);
        // No owner file but a namespace: a run died between the two steps; clean its namespace only.
        if (!stderr.includes("exists")) throw new Error(`ip netns add ${NETNS} failed: ${stderr.trim()}`);
        log(`cluster: removing the network namespace ${NETNS} that no run owns`);
        await run("ip", ["netns", "del", NETNS]);
        continue;
      }
      log(`cluster: tearing down what the dead process ${owner.pid} left in ${owner.dir}`);
      await teardown(owner.dir);
    }
  }
  await mkdir(dirname(ownerFile()), { recursive: true });
  await writeFile(ownerFile(), `${process.pid} ${dir}\n`);
}

/** Forgets the owner once teardown.sh deleted the namespace (teardown.sh does this itself too). */
export async function releaseOwner(dir: string): Promise<void> {
  const owner = await readOwner();
  if (owner?.dir === dir) await rm(ownerFile(), { force: true });
}
