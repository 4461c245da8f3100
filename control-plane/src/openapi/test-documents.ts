/**
 * OpenAPI documents built for tests of the import's limits (no test runs here).
 */

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
