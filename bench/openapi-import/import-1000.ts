/**
 * Benchmark: importing a 1,000-operation OpenAPI 3.0 document (parse, validate, dereference,
 * normalize), as JSON and as YAML text. Prints the median and maximum over several runs and their
 * ratio to the 2 s target. Not a test: run it with `node bench/openapi-import/import-1000.ts [runs]`.
 */
import { performance } from "node:perf_hooks";
import { importOpenApi } from "@atrium/control-plane/testing";
import { stringify } from "yaml";

const targetMs = 2_000;
const resourceCount = 200; // five operations each
const schemaVariants = 100;
const runs = Number(process.argv[2] ?? 7);

/** A realistic document: shared component schemas and parameters by $ref, bodies, a recursive schema. */
function generateDocument(): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const schemas: Record<string, unknown> = {
    Money: {
      type: "object",
      required: ["amount", "currency"],
      properties: {
        amount: { type: "string", pattern: "^-?\\d+(\\.\\d+)?$" },
        currency: { type: "string", minLength: 3, maxLength: 3 },
      },
    },
    Address: {
      type: "object",
      properties: {
        line1: { type: "string" },
        line2: { type: "string", nullable: true },
        city: { type: "string" },
        postalCode: { type: "string" },
        country: { type: "string", enum: ["FR", "DE", "US", "GB", "JP"] },
      },
    },
    Audit: {
      type: "object",
      readOnly: true,
      properties: {
        createdAt: { type: "string", format: "date-time" },
        updatedAt: { type: "string", format: "date-time" },
        createdBy: { type: "string" },
      },
    },
    Tag: { type: "object", properties: { key: { type: "string" }, value: { type: "string" } } },
    Category: {
      type: "object",
      properties: {
        name: { type: "string" },
        parent: { allOf: [ref("Category")], nullable: true },
        children: { type: "array", items: ref("Category") },
      },
    },
    Pagination: {
      type: "object",
      properties: { nextPageToken: { type: "string" }, total: { type: "integer", minimum: 0 } },
    },
    Error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: { type: "array", items: {} } },
    },
  };
  for (let variant = 0; variant < schemaVariants; variant++) {
    schemas[`Resource${variant}Input`] = {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", maxLength: 200, example: `resource ${variant}` },
        description: { type: "string", nullable: true },
        price: ref("Money"),
        address: ref("Address"),
        tags: { type: "array", items: ref("Tag"), maxItems: 50 },
        category: ref("Category"),
        quantity: { type: "integer", minimum: 0, exclusiveMinimum: true },
        status: { type: "string", enum: ["draft", "active", "archived"] },
        [`field${variant}`]: { type: "number" },
      },
    };
    schemas[`Resource${variant}`] = {
      allOf: [
        ref(`Resource${variant}Input`),
        {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string", format: "uuid" }, audit: ref("Audit") },
        },
      ],
    };
  }

  const paths: Record<string, unknown> = {};
  const error = (description: string) => ({ description, content: { "application/json": { schema: ref("Error") } } });
  for (let index = 0; index < resourceCount; index++) {
    const name = `Resource${index % schemaVariants}`;
    const json = (schema: unknown) => ({ "application/json": { schema } });
    paths[`/resources${index}`] = {
      get: {
        operationId: `list${index}`,
        tags: [`resources${index}`],
        summary: `List resources of family ${index}`,
        parameters: [
          { $ref: "#/components/parameters/PageSize" },
          { $ref: "#/components/parameters/PageToken" },
          { name: "q", in: "query", schema: { type: "string" }, description: "Full-text filter" },
          { name: "sort", in: "query", schema: { type: "string", enum: ["name", "-name", "createdAt", "-createdAt"] } },
        ],
        responses: {
          200: {
            description: "A page",
            content: json({
              type: "object",
              properties: { items: { type: "array", items: ref(name) }, page: ref("Pagination") },
            }),
          },
          default: error("Unexpected error"),
        },
      },
      post: {
        operationId: `create${index}`,
        tags: [`resources${index}`],
        parameters: [{ $ref: "#/components/parameters/RequestId" }],
        requestBody: { required: true, content: json(ref(`${name}Input`)) },
        responses: { 201: { description: "Created", content: json(ref(name)) }, 400: error("Invalid") },
      },
    };
    paths[`/resources${index}/{id}`] = {
      parameters: [{ $ref: "#/components/parameters/ResourceId" }],
      get: {
        operationId: `get${index}`,
        responses: { 200: { description: "The resource", content: json(ref(name)) }, 404: error("Not found") },
      },
      put: {
        operationId: `update${index}`,
        "x-idempotent": true,
        requestBody: { required: true, content: json(ref(`${name}Input`)) },
        responses: { 200: { description: "Updated", content: json(ref(name)) }, 404: error("Not found") },
      },
      delete: {
        operationId: `delete${index}`,
        responses: { 204: { description: "Deleted" }, 404: error("Not found") },
      },
    };
  }

  return {
    openapi: "3.0.3",
    info: { title: "Generated 1,000-operation API", version: "1.0.0" },
    servers: [{ url: "https://api.example.com/v1" }],
    paths,
    components: {
      schemas,
      parameters: {
        PageSize: { name: "pageSize", in: "query", schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } },
        PageToken: { name: "pageToken", in: "query", schema: { type: "string" } },
        ResourceId: { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
        RequestId: { name: "X-Request-Id", in: "header", schema: { type: "string" } },
      },
    },
  };
}

type Measurement = { operations: number; storedBytes: number; timings: number[] };

async function measure(text: string): Promise<Measurement> {
  const timings: number[] = [];
  let operations = 0;
  let storedBytes = 0;
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    const imported = await importOpenApi({ text });
    const elapsed = performance.now() - started;
    if (run === 0) {
      // The first run also pays for module loading and JIT warm-up: not counted.
      operations = imported.operations.length;
      storedBytes = JSON.stringify(imported).length;
      continue;
    }
    timings.push(elapsed);
  }
  return { operations, storedBytes, timings: timings.sort((a, b) => a - b) };
}

function report(format: string, text: string, { operations, storedBytes, timings }: Measurement): void {
  const median = timings[Math.floor(timings.length / 2)] ?? Number.NaN;
  const max = timings.at(-1) ?? Number.NaN;
  console.log(
    `${format}: ${operations} operations, ${(text.length / 1024).toFixed(0)} KiB in, ${(storedBytes / 1024 / 1024).toFixed(1)} MiB stored`,
  );
  console.log(`  runs:   ${timings.map((t) => t.toFixed(0)).join(", ")} ms`);
  console.log(`  median: ${median.toFixed(0)} ms = ${(median / targetMs).toFixed(2)} × the ${targetMs} ms target`);
  console.log(`  max:    ${max.toFixed(0)} ms = ${(max / targetMs).toFixed(2)} × the ${targetMs} ms target`);
}

const document = generateDocument();
const json = JSON.stringify(document, null, 2);
report("JSON", json, await measure(json));
const yaml = stringify(document);
report("YAML", yaml, await measure(yaml));
