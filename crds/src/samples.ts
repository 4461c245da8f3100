/**
 * The sample resources of crds/samples: a valid working set and invalid ones, each of which
 * names, in the annotation `atrium.dev/expected-error`, the field its error must mention.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export const samplesDir = join(import.meta.dirname, "..", "samples");

export interface Sample {
  file: string;
  document: {
    apiVersion: string;
    kind: string;
    metadata: { name: string; annotations?: Record<string, string> };
    [field: string]: unknown;
  };
}

function load(folder: "valid" | "invalid"): Sample[] {
  const dir = join(samplesDir, folder);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => ({ file: `${folder}/${file}`, document: parse(readFileSync(join(dir, file), "utf8")) }));
}

export const EXPECTED_ERROR_ANNOTATION = "atrium.dev/expected-error";

export function validSamples(): Sample[] {
  return load("valid");
}

export function invalidSamples(): (Sample & { expectedError: string })[] {
  return load("invalid").map((sample) => {
    const expectedError = sample.document.metadata.annotations?.[EXPECTED_ERROR_ANNOTATION];
    if (!expectedError) throw new Error(`${sample.file} lacks the ${EXPECTED_ERROR_ANNOTATION} annotation`);
    return { ...sample, expectedError };
  });
}
