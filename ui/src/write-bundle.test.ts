/**
 * `npm run bundle --workspace @atrium/ui -- <folder>`: the real script through npm, writing the
 * bundle the control plane serves (the cache's) into a new folder, and refusing a folder that
 * holds anything.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ensureUiBundle, uiRoot } from "./bundle.ts";

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "atrium-ui-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The script as npm runs it, started in the scratch folder (npm runs it in ui/, INIT_CWD the folder it was started in). */
async function bundle(args: string[]) {
  try {
    const npmArgs = ["--prefix", join(uiRoot, ".."), "run", "--silent", "bundle", "--workspace", "@atrium/ui"];
    const { stdout, stderr } = await run("npm", [...npmArgs, "--", ...args], { cwd: scratch, timeout: 300_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("npm run bundle", () => {
  it("writes the served bundle into a new folder, a relative one taken from where npm started", async () => {
    const result = await bundle(["site/atrium"]);
    const target = join(scratch, "site/atrium");
    expect(result.stdout).toContain(`wrote the web UI's bundle to ${target}`);
    expect(result.code).toBe(0);
    const { dir } = await ensureUiBundle();
    expect(readdirSync(target, { recursive: true }).sort()).toEqual(readdirSync(dir, { recursive: true }).sort());
    const index = readFileSync(join(target, "index.html"), "utf8");
    expect(index).toBe(readFileSync(join(dir, "index.html"), "utf8"));
    expect(index).toMatch(/src="\/assets\/index-[\w-]+\.js"/);
  }, 300_000);

  it("refuses a folder that holds anything, and leaves it as it was", async () => {
    const busy = join(scratch, "busy");
    mkdirSync(busy);
    writeFileSync(join(busy, "keep.txt"), "mine");
    const result = await bundle([busy]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${busy} is not an empty folder: name a new or empty one (nothing was written)`);
    expect(readdirSync(busy)).toEqual(["keep.txt"]);
  }, 60_000);

  it("says how to use it without a folder", async () => {
    const result = await bundle([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("usage: npm run bundle --workspace @atrium/ui -- <folder>");
  }, 60_000);
});
