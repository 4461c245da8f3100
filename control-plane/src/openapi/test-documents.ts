/**
 * Test support for the import: documents built for tests of its limits, and a helper that
 * returns the error an import fails with (no test runs here).
 */
import { importOpenApi, OpenApiImportError } from "./import.ts";

/** `levels` schemas, each with `fanout` properties referring to the next one: fanout^levels once inlined. */
export function referenceChain(levels: number, fanout = 8): string {
  const schemas: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const properties: Record<string, unknown> = {};
    for (let property = 0; property < fanout; property++) {
      properties[`p${property}`] =
        level + 1 < levels ? { $ref: `#/components/schemas/S${level + 1}` } : { type: "string" };
    }
    schemas[`S${level}`] = { type: "object", properties };
  }
  const body = { content: { "application/json": { schema: { $ref: "#/components/schemas/S0" } } } };
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "chain", version: "1" },
    paths: { "/x": { post: { operationId: "x", requestBody: body, responses: { "200": { description: "ok" } } } } },
    components: { schemas },
  });
}

/** The coded error an import fails with; fails the test when the import succeeds. */
export async function importError(...args: Parameters<typeof importOpenApi>): Promise<OpenApiImportError> {
  try {
    await importOpenApi(...args);
  } catch (error) {
    if (error instanceof OpenApiImportError) return error;
    throw error;
  }
  throw new Error("the import succeeded");
}
