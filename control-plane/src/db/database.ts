/**
 * Opens the control plane's database: embedded PGlite by default, PostgreSQL when a URL is
 * given. Both expose the same drizzle API, a way to run migrations under a lock, and
 * LISTEN/NOTIFY, which wakes up the change streams of every replica.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema.ts";
import { traceDatabasePool, traceEmbeddedDatabase } from "./traced-queries.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /** Applies pending migrations; replicas starting together take turns on an advisory lock. */
  migrate(): Promise<void>;
  /** Calls `onNotify` for every NOTIFY on `channel`; resolves once listening. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = join(import.meta.dirname, "..", "..", "migrations");
/** Arbitrary but fixed: every replica must use the same key. */
const MIGRATION_LOCK_KEY = 0x61747269; // "atri"

export async function openDatabase(options: { url?: string; dataDir?: string }): Promise<Database> {
  return options.url ? openPostgres(options.url) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) keepPrivate(dataDir);
  const client = await PGlite.create(dataDir ? { dataDir } : {});
  // Files made before this start (or by an older version) are made private too.
  if (dataDir) chmodTree(dataDir);
  traceEmbeddedDatabase(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    // One process owns an embedded database, so there is nobody to race with.
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    listen: async (channel, onNotify) => {
      await client.listen(channel, onNotify);
    },
    close: () => client.close(),
  };
}

/**
 * The embedded database holds password hashes and encrypted secrets: its folders are 0700 and
 * its files 0600 however the process was started. The umask covers what PGlite creates later.
 */
function keepPrivate(dataDir: string): void {
  try {
    process.umask(process.umask() | 0o077);
  } catch {
    // Worker threads cannot set the umask; chmodTree still covers what exists at start.
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    chmodSync(dataDir, 0o700);
  } catch (error) {
    // Else PGlite fails later with an error that has no message (a container volume owned by root).
    throw new Error(
      `the embedded database's folder ${dataDir} (ATRIUM_DATA_DIR) must belong to the user the control plane ` +
        `runs as (uid ${process.getuid?.()}): ${(error as Error).message}`,
    );
  }
}

function chmodTree(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(path, 0o700);
    for (const entry of readdirSync(path)) chmodTree(join(path, entry));
  } else {
    chmodSync(path, 0o600);
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // Nor may a client a request holds (mid-transaction, or mid-query): node-postgres emits the lost
  // connection as an 'error' on it, fatal without a listener. The request fails (503), and the
  // pool drops the client when it is released.
  pool.on("connect", (client) => client.on("error", () => {}));
  traceDatabasePool(pool);
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  const listeners = new Set<pg.Client>();
  let closed = false;
  return {
    kind: "postgres",
    db,
    migrate: async () => {
      const lock = await pool.connect();
      try {
        await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        await migrateNodePg(db as never, { migrationsFolder });
      } finally {
        await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
        lock.release();
      }
    },
    listen: async (channel, onNotify) => {
      // A dedicated connection, re-opened when lost; streams also poll, so a gap only delays.
      const connect = async (): Promise<void> => {
        const client = new pg.Client({ connectionString: url });
        let reconnecting = false;
        const reconnect = () => {
          if (reconnecting || closed) return;
          reconnecting = true;
          listeners.delete(client);
          setTimeout(() => connect().catch(reconnect), 1000).unref();
        };
        client.on("error", reconnect);
        client.on("end", reconnect);
        client.on("notification", (message) => {
          if (message.channel === channel) onNotify(message.payload ?? "");
        });
        await client.connect();
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
        listeners.add(client);
      };
      await connect();
    },
    close: async () => {
      closed = true;
      await Promise.all([...listeners].map((client) => client.end().catch(() => {})));
      await pool.end();
    },
  };
}

/** Whether the database answers and every migration is applied (readiness). */
export async function isMigrated(database: Database): Promise<boolean> {
  try {
    const result = await database.db.execute(sql`select count(*)::int as applied from drizzle.__drizzle_migrations`);
    const applied = (result as unknown as { rows: { applied: number }[] }).rows[0]?.applied ?? 0;
    return applied >= migrationCount();
  } catch {
    return false;
  }
}

let cachedMigrationCount: number | undefined;
function migrationCount(): number {
  cachedMigrationCount ??= (
    JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }
  ).entries.length;
  return cachedMigrationCount;
}
