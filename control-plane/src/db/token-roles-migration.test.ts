/**
 * Migration 0003 gives tokens made before roles the narrowest role that keeps them working:
 * `operator` for the operator's (named like it), `gateway` for the rest.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../testing.ts";
import { type Database, openDatabase } from "./database.ts";

const migrationsFolder = join(import.meta.dirname, "..", "..", "migrations");
const ROLES_MIGRATION = "0003_api_token_roles";

/** The migrations folder as it was before `tag`: its files and a journal that ends before it. */
function migrationsBefore(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), "atrium-migrations-"));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(cut).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return folder;
}

describe.each(DATABASE_KINDS)("API token roles migration on %s", (kind) => {
  let testDatabase: TestDatabase | undefined;
  let database: Database;
  let before: string;

  beforeAll(async () => {
    testDatabase = kind === "postgres" ? await createTestDatabase() : undefined;
    database = await openDatabase({ url: testDatabase?.url });
    before = migrationsBefore(ROLES_MIGRATION);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
    rmSync(before, { recursive: true, force: true });
  });

  it("makes the operator's tokens operator tokens and every other one a gateway token", async () => {
    const { db } = database;
    if (kind === "postgres") await migrateNodePg(db as never, { migrationsFolder: before });
    else await migratePglite(db as never, { migrationsFolder: before });
    await db.execute(sql`insert into organizations (name) values ('acme')`);
    for (const name of ["k8s-operator", "Operator", "gateways", "ci"]) {
      await db.execute(
        sql`insert into api_tokens (organization_id, name, token_hash, expires_at)
            select id, ${name}, ${`hash-${name}`}, now() + interval '1 day' from organizations`,
      );
    }
    await database.migrate();
    const result = await db.execute(sql`select name, role from api_tokens order by name`);
    const rows = (result as unknown as { rows: { name: string; role: string }[] }).rows;
    expect(Object.fromEntries(rows.map((row) => [row.name, row.role]))).toEqual({
      "k8s-operator": "operator",
      Operator: "operator",
      gateways: "gateway",
      ci: "gateway",
    });
  });
});
