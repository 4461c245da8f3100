/**
 * Writes the metric catalogue (catalogue.ts) to docs/metrics.md and docs/metrics.json.
 * Run: `node hack/metrics/src/generate.ts` (also part of `npm run generate`).
 */
import { writeFileSync } from "node:fs";
import { catalogueFiles } from "./files.ts";

for (const [path, content] of await catalogueFiles()) {
  writeFileSync(path, content);
  console.log(`wrote ${path}`);
}
