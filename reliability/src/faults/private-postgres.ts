/**
 * A PostgreSQL server of the test's own, for faults that stop and restart the database: the
 * machine's server at 5432 is shared by every test and must never be stopped. initdb refuses to
 * run as root, so the server runs as the `postgres` user (runuser) in a temp folder it owns, on a
 * free 127.0.0.1 port, with its socket in that folder. `remove()` stops it and deletes the folder;
 * call it in a finally/afterAll so a failed test leaves nothing behind. A test process killed before
 * that leaves its server running: the next start stops and removes the servers whose test process
 * is gone (the folder names its owner).
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@atrium/control-plane/testing";
import { isAlive } from "@atrium/kube-testenv/processes";

export type StopMode = "fast" | "immediate";

export interface PrivatePostgres {
  /** Its folder (data, socket, server log, owner). */
  folder: string;
  /** A superuser URL of the server (database `postgres`, trust authentication). */
  url: string;
  port: number;
  /** `pg_ctl stop -m <mode>`: fast ends sessions cleanly, immediate kills the server (crash recovery on start). */
  stop(mode: StopMode): void;
  /** Starts it again on the same port and folder; resolves once it accepts connections. */
  start(): void;
  /** Stops it (immediately) and removes its folder; safe to call twice. */
  remove(): void;
}

const BIN_ROOT = "/usr/lib/postgresql";

function binDir(): string {
  const versions = readdirSync(BIN_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL server under ${BIN_ROOT}: apt-get install postgresql`);
  return join(BIN_ROOT, versions[0] as string, "bin");
}

/** Runs a PostgreSQL program as the postgres user (as root), or as ourselves otherwise. */
function run(program: string, args: string[]): string {
  const command = join(binDir(), program);
  const [file, argv] =
    process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
}

const FOLDER_PREFIX = "atrium-private-pg-";
const OWNER_FILE = "owner.pid";

/** Stops and removes the servers of test processes that ended without removing them. */
function removeOrphans(): void {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(FOLDER_PREFIX))) {
    const folder = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number.parseInt(readFileSync(join(folder, OWNER_FILE), "utf8"), 10);
    } catch {
      continue; // being created right now, or not ours
    }
    if (isAlive(owner)) continue;
    if (existsSync(join(folder, "data", "postmaster.pid"))) {
      try {
        run("pg_ctl", ["stop", "-D", join(folder, "data"), "-m", "immediate", "-w", "-t", "30"]);
      } catch {
        // Not running any more.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  removeOrphans();
  const folder = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
  writeFileSync(join(folder, OWNER_FILE), String(process.pid));
  const data = join(folder, "data");
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(folder, uid, gid);
  }
  const port = await freePort();
  let running = false;
  const start = () => {
    run("pg_ctl", [
      "start",
      "-D",
      data,
      "-w",
      "-t",
      "60",
      "-l",
      join(folder, "server.log"),
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c fsync=off -c max_connections=50`,
    ]);
    running = true;
  };
  const stop = (mode: StopMode) => {
    run("pg_ctl", ["stop", "-D", data, "-m", mode, "-w", "-t", "60"]);
    running = false;
  };
  const remove = () => {
    if (running) {
      try {
        stop("immediate");
      } catch {
        // Already gone: nothing to stop.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
    start();
  } catch (error) {
    remove();
    throw error;
  }
  return { folder, url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop, start, remove };
}
