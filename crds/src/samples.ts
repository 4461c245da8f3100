/**
 * The sample resources of crds/samples: a valid working set and invalid ones. Each invalid one
 * says, in annotations, the field its error names (`atrium.dev/expected-error`, a Kubernetes field
 * path), the message every Zod entry point gives (`atrium.dev/expected-message`), and what refuses
 * it first on a cluster (`atrium.dev/refused-by`).
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
const EXPECTED_MESSAGE_ANNOTATION = "atrium.dev/expected-message";
const REFUSED_BY_ANNOTATION = "atrium.dev/refused-by";

/**
 * What refuses an invalid resource first on a cluster: `schema`, the API server's structural
 * schema (its own wording, the same field); `cel`, the API server's CEL rules (the same field and
 * message as Zod); `webhook`, only the admission webhook (a rule CEL cannot say).
 */
export const REFUSERS = ["schema", "cel", "webhook"] as const;
export type Refuser = (typeof REFUSERS)[number];

export interface InvalidSample extends Sample {
  expectedError: string;
  expectedMessage: string;
  refusedBy: Refuser;
}

export function validSamples(): Sample[] {
  return load("valid");
}

/**
 * The Pet Store OpenAPI document of the working set's Service (`petstore`), as text. By name:
 * the samples hold GraphQL and gRPC Services too, whose documents are no OpenAPI.
 */
export function petstoreOpenApi(): string {
  const service = validSamples().find(
    (sample) => sample.document.kind === "Service" && sample.document.metadata.name === "petstore",
  );
  const inline = (service?.document.spec as { openapi?: { inline?: string } } | undefined)?.openapi?.inline;
  if (!inline) throw new Error("crds/samples/valid has no Service petstore with an inline OpenAPI document");
  return inline;
}

export function invalidSamples(): InvalidSample[] {
  return load("invalid").map((sample) => {
    const annotation = (name: string) => {
      const value = sample.document.metadata.annotations?.[name];
      if (!value) throw new Error(`${sample.file} lacks the ${name} annotation`);
      return value;
    };
    const refusedBy = annotation(REFUSED_BY_ANNOTATION) as Refuser;
    if (!REFUSERS.includes(refusedBy)) {
      throw new Error(`${sample.file}: ${REFUSED_BY_ANNOTATION} must be one of ${REFUSERS.join(", ")}`);
    }
    return {
      ...sample,
      expectedError: annotation(EXPECTED_ERROR_ANNOTATION),
      expectedMessage: annotation(EXPECTED_MESSAGE_ANNOTATION),
      refusedBy,
    };
  });
}
