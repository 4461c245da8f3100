/**
 * `node vite-build.ts <outDir>`: the production build of the web UI into outDir (bundle.ts runs it
 * in a child process with NODE_ENV=production). Vite's own cache goes to a temp folder, never
 * into the checkout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { build } from "vite";

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: node vite-build.ts <outDir>");
const cacheDir = mkdtempSync(join(tmpdir(), "atrium-ui-vite-"));
try {
  await build({
    root: join(import.meta.dirname, ".."),
    configFile: false,
    cacheDir,
    mode: "production",
    logLevel: "warn",
    plugins: [react()],
    build: { outDir, emptyOutDir: true, reportCompressedSize: false },
  });
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
