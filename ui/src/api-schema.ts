/**
 * The web UI's REST types, generated from the OpenAPI document the control plane serves
 * (openapi-typescript), so the UI's client cannot drift from the API. `npm run generate
 * --workspace @atrium/ui` rewrites the committed file; schema.test.ts fails when it is stale.
 */
import { join } from "node:path";
import { startTestControlPlane } from "@atrium/control-plane/testing";
import openapiTS, { astToString } from "openapi-typescript";

export const schemaFile = join(import.meta.dirname, "api", "generated", "schema.d.ts");

const HEADER =
  "/**\n * Generated from the control plane's OpenAPI document (/api/v1/openapi.json) by openapi-typescript.\n" +
  " * Do not edit: run `npm run generate --workspace @atrium/ui`.\n */\n\n";

/** The control plane's OpenAPI document, as a control plane on in-memory PGlite serves it. */
export async function servedOpenApiDocument(): Promise<Record<string, unknown>> {
  const controlPlane = await startTestControlPlane("pglite");
  try {
    const { status, body } = await controlPlane.api.call("GET", "/api/v1/openapi.json");
    if (status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${status}`);
    // The version changes with every release; the types do not depend on it.
    const document = body as Record<string, unknown> & { info: Record<string, unknown> };
    return { ...document, info: { ...document.info, version: "(control plane)" } };
  } finally {
    await controlPlane.close();
  }
}

/** The text of schema.d.ts for `document`. */
export async function schemaText(document: Record<string, unknown>): Promise<string> {
  // biome-ignore lint/suspicious/noExplicitAny: openapi-typescript's own document type, which the served JSON is.
  const ast = await openapiTS(document as any, { alphabetize: true });
  return HEADER + astToString(ast);
}
