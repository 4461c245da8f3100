/**
 * Drift test: every generated chart file (values.yaml, values.schema.json, README values tables,
 * shared template helpers, the controllers chart's CRDs) is exactly what the sources generate.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chartsDir, generatedFiles, whollyGeneratedDirs } from "./generated-files.ts";

const files = generatedFiles();

describe("generated chart files", () => {
  it.each([...files.keys()])("charts/%s is up to date", (path) => {
    const file = join(chartsDir, path);
    const stale = `charts/${path} is stale: run \`npm run generate -w @atrium/charts\``;
    expect(existsSync(file), stale).toBe(true);
    expect(readFileSync(file, "utf8"), stale).toBe(files.get(path));
  });

  it.each(whollyGeneratedDirs)("charts/%s holds generated files only", (dir) => {
    const present = readdirSync(join(chartsDir, dir)).map((name) => `${dir}/${name}`);
    expect(present.filter((path) => !files.has(path))).toEqual([]);
  });

  it("the controllers chart carries all eight CRDs", () => {
    expect(readdirSync(join(chartsDir, "controllers/crds")).sort()).toEqual(
      [
        "configurationplans",
        "customtools",
        "expositions",
        "gatewaygroups",
        "prompts",
        "resources",
        "secretsources",
        "services",
      ].map((plural) => `${plural}.atrium.dev.yaml`),
    );
  });
});
