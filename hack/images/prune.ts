/**
 * `node prune.ts <root> <workspace name>`: run in an image's build stage after `npm ci`. Keeps in
 * <root>/node_modules only what the workspace runs — its `dependencies` (and optional and peer
 * dependencies) followed through the workspaces it depends on, resolved as Node resolves them — and
 * deletes the rest: `npm ci --omit=dev -w` still installs the devDependencies of every workspace
 * (npm marks only the root's as dev), which doubled the gateway image. Prints the folders of the
 * workspaces the component needs (relative to <root>), one a line, so the Containerfile copies
 * just their sources. Generic on purpose: a new workspace dependency needs no edit here.
 * It also deletes the files Node never loads from node_modules — TypeScript sources and
 * declarations (Node does not strip types there), source maps, read-me and change logs; licences
 * stay — which took the gateway's node_modules from 53 to about 30 MB.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { dirname, join, relative } from "node:path";

interface Manifest {
  name?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/** Node's lookup: <dir>/node_modules/<name>, then each parent's, up to the root. */
function resolvePackage(fromDir: string, name: string, root: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

/** Real paths of every package the workspace needs at run time, workspaces included. */
export function runtimeClosure(root: string, workspace: string): { packages: Set<string>; workspaces: string[] } {
  const workspaceDirs = new Map<string, string>();
  for (const pattern of readManifest(root).workspaces ?? []) {
    if (pattern.includes("*")) throw new Error(`prune.ts: workspace globs are not supported (${pattern})`);
    // A workspace left out of the build context (charts, e2e) cannot be a run-time dependency.
    if (!existsSync(join(root, pattern, "package.json"))) continue;
    const dir = realpathSync(join(root, pattern));
    const name = readManifest(dir).name;
    if (name) workspaceDirs.set(name, dir);
  }
  const start = workspaceDirs.get(workspace);
  if (!start) throw new Error(`prune.ts: no workspace named ${workspace} in ${root}/package.json`);
  const packages = new Set<string>([start]);
  const queue = [start];
  for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
    const manifest = readManifest(dir);
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ];
    for (const name of names) {
      const found = resolvePackage(dir, name, root);
      if (!found) {
        // An optional or peer dependency that was not installed (another platform, not wanted).
        if (manifest.dependencies?.[name]) throw new Error(`prune.ts: ${name} (needed by ${dir}) is not installed`);
        continue;
      }
      if (!packages.has(found)) {
        packages.add(found);
        queue.push(found);
      }
    }
  }
  const workspaces = [...workspaceDirs.values()].filter((dir) => packages.has(dir)).map((dir) => relative(root, dir));
  return { packages, workspaces };
}

/** Deletes from a node_modules folder (and those nested in kept packages) what is not kept. */
function prune(nodeModules: string, keep: Set<string>): void {
  if (!existsSync(nodeModules)) return;
  for (const entry of readdirSync(nodeModules)) {
    const path = join(nodeModules, entry);
    if (entry.startsWith("@") && lstatSync(path).isDirectory()) {
      prune(path, keep);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      continue;
    }
    const real = existsSync(path) ? realpathSync(path) : path;
    if (keep.has(real) && entry !== ".bin") {
      if (!lstatSync(path).isSymbolicLink()) prune(join(path, "node_modules"), keep);
    } else {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/** TypeScript files, source maps, and read-mes / change logs (licences and notices are kept). */
const UNUSED_AT_RUN_TIME = /(\.[cm]?ts|\.map|^(readme|changelog|history)[^/]*\.(md|markdown|txt))$/i;

/** Deletes the files Node never loads; symbolic links (the workspaces) are not followed. */
function dropUnusedFiles(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) dropUnusedFiles(path);
    else if (entry.isFile() && UNUSED_AT_RUN_TIME.test(entry.name)) rmSync(path);
  }
}

if (import.meta.main) {
  const [root, workspace] = process.argv.slice(2);
  if (!root || !workspace) {
    console.error("usage: node prune.ts <root> <workspace name>");
    process.exit(2);
  }
  const { packages, workspaces } = runtimeClosure(realpathSync(root), workspace);
  prune(join(realpathSync(root), "node_modules"), packages);
  for (const dir of workspaces) prune(join(root, dir, "node_modules"), packages);
  for (const dir of ["", ...workspaces]) {
    const nodeModules = join(root, dir, "node_modules");
    if (existsSync(nodeModules)) dropUnusedFiles(nodeModules);
  }
  process.stdout.write(`${workspaces.join("\n")}\n`);
}
