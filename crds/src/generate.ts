/**
 * `npm run generate`: writes crds/generated/<plural>.atrium.dev.yaml for every kind.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { customResourceDefinitionYaml, generatedDir, generatedFileName } from "./crd.ts";
import { kinds } from "./kinds.ts";

mkdirSync(generatedDir, { recursive: true });
const written = new Set(kinds.map(generatedFileName));
for (const stale of readdirSync(generatedDir).filter((file) => !written.has(file))) {
  rmSync(join(generatedDir, stale));
}
for (const kind of kinds) {
  writeFileSync(join(generatedDir, generatedFileName(kind)), customResourceDefinitionYaml(kind));
  console.log(`wrote crds/generated/${generatedFileName(kind)}`);
}
