/**
 * Benchmark: importing small documents back to back (a 2.0, a 3.0 and a 3.1 petstore of eight
 * operations, in turn), as a busy control plane or the importer's fuzz test does: where the fixed
 * cost of an import (validating against the OpenAPI meta-schema, dereferencing) shows. Prints the
 * median and 95th percentile per document and version, and documents per second. Not a test: run
 * it with `node bench/openapi-import/import-small.ts [documents per version]`.
 */
import { performance } from "node:perf_hooks";
import { importOpenApi } from "@atrium/control-plane/testing";

const perVersion = Number(process.argv[2] ?? 100);

const pet = {
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "integer", format: "int64" }, name: { type: "string" }, tag: { type: "string" } },
};
const error = { type: "object", properties: { code: { type: "integer" }, message: { type: "string" } } };
const resources = ["pets", "owners", "visits", "vets"];

function document30(version: "3.0.3" | "3.1.0"): Record<string, unknown> {
  const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
  const paths: Record<string, unknown> = {};
  for (const resource of resources) {
    paths[`/${resource}`] = {
      get: {
        operationId: `list_${resource}`,
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 100 } }],
        responses: {
          "200": { description: "A page", ...json({ type: "array", items: { $ref: "#/components/schemas/Pet" } }) },
          default: { description: "Error", ...json({ $ref: "#/components/schemas/Error" }) },
        },
      },
      post: {
        operationId: `create_${resource}`,
        requestBody: { required: true, ...json({ $ref: "#/components/schemas/Pet" }) },
        responses: { "201": { description: "Created", ...json({ $ref: "#/components/schemas/Pet" }) } },
      },
    };
  }
  return {
    openapi: version,
    info: { title: "Petstore", version: "1.0.0" },
    servers: [{ url: "https://api.example.com/v1" }],
    paths,
    components: { schemas: { Pet: pet, Error: error } },
  };
}

function document20(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const resource of resources) {
    paths[`/${resource}`] = {
      get: {
        operationId: `list_${resource}`,
        produces: ["application/json"],
        parameters: [{ name: "limit", in: "query", type: "integer", maximum: 100 }],
        responses: {
          "200": { description: "A page", schema: { type: "array", items: { $ref: "#/definitions/Pet" } } },
          default: { description: "Error", schema: { $ref: "#/definitions/Error" } },
        },
      },
      post: {
        operationId: `create_${resource}`,
        consumes: ["application/json"],
        parameters: [{ name: "body", in: "body", required: true, schema: { $ref: "#/definitions/Pet" } }],
        responses: { "201": { description: "Created", schema: { $ref: "#/definitions/Pet" } } },
      },
    };
  }
  return {
    swagger: "2.0",
    info: { title: "Petstore", version: "1.0.0" },
    host: "api.example.com",
    basePath: "/v1",
    schemes: ["https"],
    paths,
    definitions: { Pet: pet, Error: error },
  };
}

const texts = {
  "2.0": JSON.stringify(document20()),
  "3.0": JSON.stringify(document30("3.0.3")),
  "3.1": JSON.stringify(document30("3.1.0")),
};
const timings: Record<string, number[]> = { "2.0": [], "3.0": [], "3.1": [] };

// The first import of each version also pays for starting the worker and JIT warm-up: not counted.
for (const text of Object.values(texts)) await importOpenApi({ text });
const started = performance.now();
for (let round = 0; round < perVersion; round++) {
  for (const [version, text] of Object.entries(texts)) {
    const begun = performance.now();
    const imported = await importOpenApi({ text });
    timings[version]?.push(performance.now() - begun);
    if (imported.operations.length !== 2 * resources.length) throw new Error(`${version}: operations missing`);
  }
}
const seconds = (performance.now() - started) / 1000;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
for (const [version, values] of Object.entries(timings)) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(
    `${version}: median ${quantile(sorted, 0.5)?.toFixed(1)} ms, p95 ${quantile(sorted, 0.95)?.toFixed(1)} ms per document`,
  );
}
const documents = perVersion * Object.keys(texts).length;
console.log(`${documents} documents in ${seconds.toFixed(1)} s: ${(documents / seconds).toFixed(0)} documents/s`);
