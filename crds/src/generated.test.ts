/**
 * Drift test: the committed CRD YAML must be exactly what the Zod schemas generate.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { customResourceDefinitionYaml, generatedDir, generatedFileName } from "./crd.ts";
import { kinds } from "./kinds.ts";

describe("crds/generated", () => {
  it("holds one file per kind and nothing else", () => {
    expect(readdirSync(generatedDir).sort()).toEqual(kinds.map(generatedFileName).sort());
  });

  it.each(kinds.map((kind) => [kind.kind, kind] as const))("%s matches the Zod schemas", (_, kind) => {
    const committed = readFileSync(join(generatedDir, generatedFileName(kind)), "utf8");
    expect(committed, `crds/generated/${generatedFileName(kind)} is stale: run \`npm run generate\``).toBe(
      customResourceDefinitionYaml(kind),
    );
  });
});
