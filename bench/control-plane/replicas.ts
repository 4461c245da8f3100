/**
 * Control planes as real processes (`node control-plane/src/main.ts`, configured by its
 * environment as docs/operations.md says) for the control-plane benchmarks: on a PostgreSQL
 * database several replicas share (one encryption key and admin for all, as replicas of a
 * deployment must), or on PGlite in a data folder of their own. Each runs pinned to a core
 * (bench/gateway/processes.ts), so its CPU time and memory are read from /proc and it is killed
 * when the benchmark ends, whatever ends it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient, createTestDatabase, type TestDatabase } from "@atrium/control-plane/testing";
import { recordSecret, testLogLevel } from "@atrium/reliability/secrets";
import { type Child, freePort, REPO_ROOT, startPinned, waitUntil } from "../gateway/processes.ts";

const MAIN = join(REPO_ROOT, "control-plane", "src", "main.ts");

/**
 * The fleet connects from one address, where real gateways come from many: the per-address cap
 * (1,024 by default) is raised so that it does not refuse the simulation's streams.
 */
const MAX_CONNECTIONS_PER_ADDRESS = 16_384;

export interface Replica {
  name: string;
  url: string;
  child: Child;
}

export interface Deployment {
  /** `postgres` (a fresh database on the machine's server) or `pglite` (a data folder of its own). */
  kind: "postgres" | "pglite";
  /** Admin of the bootstrap organization, logged in through the first replica. */
  admin: ApiClient;
  replicas: Replica[];
  /** Starts one more replica on the same database (PostgreSQL only). */
  addReplica(core: number): Promise<Replica>;
  /** Stops every replica, drops the database, removes the data folder. */
  stop(): Promise<void>;
}

export async function startDeployment(kind: Deployment["kind"], core: number): Promise<Deployment> {
  const scratch = mkdtempSync(join(tmpdir(), "atrium-bench-cp-"));
  const database: TestDatabase | undefined = kind === "postgres" ? await createTestDatabase() : undefined;
  const admin = { organization: "default", username: "admin", password: randomBytes(12).toString("base64url") };
  const encryptionKey = randomBytes(32).toString("base64");
  recordSecret("bench admin password", admin.password);
  recordSecret("bench encryption key", encryptionKey);
  const replicas: Replica[] = [];

  const addReplica = async (replicaCore: number): Promise<Replica> => {
    if (kind === "pglite" && replicas.length > 0) throw new Error("PGlite serves one control plane only");
    const port = await freePort();
    const name = `control-plane-${replicas.length + 1}`;
    const child = startPinned(name, replicaCore, [MAIN], {
      ATRIUM_HOST: "127.0.0.1",
      ATRIUM_PORT: String(port),
      ATRIUM_DATA_DIR: join(scratch, "data"),
      ATRIUM_DATABASE_URL: database?.url ?? "",
      ATRIUM_ENCRYPTION_KEYS: `v1=${encryptionKey}`,
      ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "v1",
      ATRIUM_ADMIN_PASSWORD: admin.password,
      ATRIUM_LOG_LEVEL: testLogLevel("warn"),
      ATRIUM_MAX_CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTIONS_PER_ADDRESS),
    });
    const replica = { name, url: `http://127.0.0.1:${port}`, child };
    replicas.push(replica);
    const api = new ApiClient(replica.url);
    await waitUntil(
      async () => (await api.call("GET", "/q/health/ready")).status === 200,
      `${name} to be ready`,
      60_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${child.output()}`);
    });
    return replica;
  };

  const stop = async () => {
    await Promise.all(replicas.map((replica) => replica.child.stop()));
    await database?.drop();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const first = await addReplica(core);
    return { kind, admin: await new ApiClient(first.url).login(admin), replicas, addReplica, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
