/**
 * `npm run generate -w @atrium/charts`: writes every generated chart file (see generated-files.ts)
 * and removes stale CRD copies.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { chartsDir, generatedFiles, whollyGeneratedDirs } from "./generated-files.ts";

const files = generatedFiles();
for (const dir of whollyGeneratedDirs) {
  mkdirSync(join(chartsDir, dir), { recursive: true });
  for (const name of readdirSync(join(chartsDir, dir))) {
    if (!files.has(`${dir}/${name}`)) rmSync(join(chartsDir, dir, name));
  }
}
for (const [path, content] of files) {
  mkdirSync(dirname(join(chartsDir, path)), { recursive: true });
  writeFileSync(join(chartsDir, path), content);
  console.log(`wrote charts/${path}`);
}
