/**
 * Migrations: two processes migrating one PostgreSQL database at once take turns on the
 * advisory lock, and the result is one applied set of migrations.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing.ts";

const run = promisify(execFile);
const migrateScript = join(import.meta.dirname, "..", "migrate.ts");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("migrations", () => {
  it("race safely from two processes", async () => {
    const env = { ...process.env, ATRIUM_DATABASE_URL: database.url };
    const results = await Promise.all([
      run(process.execPath, [migrateScript], { env }),
      run(process.execPath, [migrateScript], { env }),
    ]);
    expect(results.map((r) => r.stdout.trim())).toEqual([
      "migrations applied (postgres)",
      "migrations applied (postgres)",
    ]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
    const tables = await client.query(
      "select count(*)::int as n from information_schema.tables where table_name = 'expositions'",
    );
    await client.end();
    expect(applied.rows[0].n).toBeGreaterThan(0);
    expect(tables.rows[0].n).toBe(1);
  });
});
