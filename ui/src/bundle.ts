/**
 * The web UI's built bundle, made on demand: `vite build` into the cache
 * (`~/.cache/atrium/ui/<hash>`, ATRIUM_CACHE_DIR and XDG_CACHE_HOME honoured), keyed by a hash of
 * the UI's sources and of the build tools' versions, so a clean clone builds it once (a few
 * seconds) and nothing is written into the repository. The control plane serves the folder
 * given as ATRIUM_UI_DIR.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The ui/ folder: index.html, src/app (the browser code), src/api/generated (the REST types) and the build. */
export const uiRoot = join(import.meta.dirname, "..");
const SOURCES = ["index.html", "package.json", "vite.config.ts", "src/vite-build.ts", "src/app", "src/api/generated"];
/** Their versions are part of the hash: another React or Vite builds another bundle. */
const TOOLS = ["vite", "@vitejs/plugin-react", "react", "react-dom", "openapi-fetch"];

/** Where the control-plane image carries the bundle (the Containerfile's ui stage); ATRIUM_UI_DIR names it to serve it. */
export const IMAGE_UI_DIR = "/app/ui/dist";

export function uiCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.ATRIUM_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "atrium");
  return join(cache, "ui");
}

function filesUnder(path: string): string[] {
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile())
    .sort();
}

/** The installed version of `name`, found as Node finds it (ui/node_modules, then upwards). */
function installedVersion(name: string): string {
  for (let dir = uiRoot; ; dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).version;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed: run npm ci`);
  }
}

/** 16 hex digits over the sources' paths and contents and the tools' versions. */
export function uiSourceHash(): string {
  const hash = createHash("sha256");
  for (const source of SOURCES) {
    for (const file of filesUnder(join(uiRoot, source))) {
      // Test files beside the sources are not part of the bundle.
      if (file.endsWith(".test.ts")) continue;
      hash.update(relative(uiRoot, file).split(sep).join("/")).update("\0").update(readFileSync(file)).update("\0");
    }
  }
  for (const tool of TOOLS) hash.update(`${tool}@${installedVersion(tool)}\0`);
  return hash.digest("hex").slice(0, 16);
}

export interface UiBundleDir {
  /** The folder to serve (ATRIUM_UI_DIR): index.html and assets/. */
  dir: string;
  /** Whether this call built it (false: it was in the cache). */
  built: boolean;
}

/** The bundle of the current sources, built first when the cache lacks it. */
export async function ensureUiBundle(options: { onBuild?: (dir: string) => void } = {}): Promise<UiBundleDir> {
  const dir = join(uiCacheDir(), uiSourceHash());
  if (existsSync(join(dir, "index.html"))) return { dir, built: false };
  options.onBuild?.(dir);
  // Built beside its final place and renamed: a reader never sees half a bundle, and two
  // processes building at once both end with the same complete folder.
  const staging = `${dir}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
  mkdirSync(dirname(dir), { recursive: true });
  try {
    await viteBuild(staging);
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(join(dir, "index.html"))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  pruneOldBundles(dir);
  return { dir, built: true };
}

/** Bundles of other sources, untouched for a week, go: the cache holds what checkouts still use. */
function pruneOldBundles(current: string): void {
  const cache = dirname(current);
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    // Another process may remove it first.
    const old = path !== current && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) < weekAgo;
    if (old) rmSync(path, { recursive: true, force: true });
  }
}

/** Runs vite-build.ts in a child process: NODE_ENV must be "production" there (a test's is "test"). */
async function viteBuild(outDir: string): Promise<void> {
  try {
    await run(process.execPath, [join(import.meta.dirname, "vite-build.ts"), outDir], {
      env: { ...process.env, NODE_ENV: "production" },
      timeout: 5 * 60_000,
    });
  } catch (error) {
    const { stderr } = error as { stderr?: string };
    throw new Error(`Building the web UI failed: ${stderr?.trim() || String(error)}`);
  }
}
