/**
 * `npm run bundle --workspace @atrium/ui -- <folder>`: the web UI's static bundle (index.html and
 * assets/) written into a folder of your choice, to serve behind any web server (docs/ui.md). The
 * files are those `atrium run --ui` serves (ensureUiBundle: from the cache, built when missing).
 * The folder must be new or empty: a mistyped path never loses anything.
 */
import { cpSync, existsSync, readdirSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ensureUiBundle } from "./bundle.ts";

export class WriteBundleError extends Error {
  override readonly name = "WriteBundleError";
}

/** Copies the bundle into `folder`; its absolute path. */
export async function writeUiBundle(folder: string): Promise<string> {
  const target = resolve(folder);
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new WriteBundleError(`${target} is not an empty folder: name a new or empty one (nothing was written)`);
  }
  const { dir } = await ensureUiBundle();
  cpSync(dir, target, { recursive: true });
  return target;
}

if (import.meta.main) {
  const folder = process.argv[2];
  if (!folder || process.argv.length > 3) {
    process.stderr.write("usage: npm run bundle --workspace @atrium/ui -- <folder>\n");
    process.exit(2);
  }
  try {
    // npm runs the script in ui/: a relative folder means the one npm was started in.
    const target = await writeUiBundle(resolve(process.env.INIT_CWD ?? process.cwd(), folder));
    process.stdout.write(`wrote the web UI's bundle to ${target} (serve it at /, /api/v1 to the control plane)\n`);
  } catch (error) {
    if (!(error instanceof WriteBundleError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
