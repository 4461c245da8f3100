/**
 * `node vite-build.ts <outDir>`: the production build of the web UI (vite.config.ts) into outDir
 * (bundle.ts runs it in a child process with NODE_ENV=production). Vite's own cache goes to a temp folder, never
 * into the checkout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "vite";

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: node vite-build.ts <outDir>");
const cacheDir = mkdtempSync(join(tmpdir(), "atrium-ui-vite-"));
try {
  const root = join(import.meta.dirname, "..");
  await build({
    root,
    configFile: join(root, "vite.config.ts"),
    // Node imports the TypeScript config itself: Vite's default bundles it to a file in node_modules.
    configLoader: "native",
    cacheDir,
    mode: "production",
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, reportCompressedSize: false },
  });
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
