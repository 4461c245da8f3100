/**
 * The private PostgreSQL server of the fault tests: it serves, and one left behind by a test
 * process that died is stopped and removed by the next start.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.ts";

const started: PrivatePostgres[] = [];
afterAll(() => {
  for (const server of started) server.remove();
});

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return (await client.query("select 1 as one")).rows[0].one === 1;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe("a private PostgreSQL server", () => {
  it("serves, and is stopped and removed by the next start once its test process is gone", async () => {
    const orphan = await startPrivatePostgres();
    started.push(orphan);
    expect(await answers(orphan.url)).toBe(true);
    // As if its test process had been killed: the owner is a process that has ended.
    const ended = spawnSync("true").pid as number;
    writeFileSync(join(orphan.folder, "owner.pid"), String(ended));

    const next = await startPrivatePostgres();
    started.push(next);
    expect(existsSync(orphan.folder)).toBe(false);
    expect(await answers(orphan.url)).toBe(false);
    expect(await answers(next.url)).toBe(true);
  }, 120_000);
});
