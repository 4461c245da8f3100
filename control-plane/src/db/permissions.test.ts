/**
 * The embedded database's files are private (0600, folders 0700) even when the process was
 * started with a permissive umask, and files an older start left open are closed down.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";

function modes(path: string, found: { path: string; mode: number; directory: boolean }[] = []) {
  const stat = statSync(path);
  found.push({ path, mode: stat.mode & 0o777, directory: stat.isDirectory() });
  if (stat.isDirectory()) for (const entry of readdirSync(path)) modes(join(path, entry), found);
  return found;
}

describe("embedded database files", () => {
  const umask = process.umask();
  afterEach(() => {
    process.umask(umask);
  });

  it("are 0600 in 0700 folders however the process was started", async () => {
    const root = mkdtempSync(join(tmpdir(), "atrium-perm-"));
    try {
      const dataDir = join(root, "data");
      // As if an older version had run under umask 0.
      mkdirSync(dataDir, { mode: 0o777 });
      chmodSync(dataDir, 0o777);
      writeFileSync(join(dataDir, "left-over"), "x", { mode: 0o666 });
      chmodSync(join(dataDir, "left-over"), 0o666);
      process.umask(0);
      const database = await openDatabase({ dataDir });
      await database.migrate();
      await database.close();
      const all = modes(dataDir);
      expect(all.length).toBeGreaterThan(10);
      const open = all.filter((entry) => entry.mode !== (entry.directory ? 0o700 : 0o600));
      expect(open).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
