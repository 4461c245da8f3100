/**
 * Drift test: the committed REST types (src/api/generated/schema.d.ts) must be exactly what
 * openapi-typescript makes of the OpenAPI document the control plane serves.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { schemaFile, schemaText, servedOpenApiDocument } from "./api-schema.ts";

describe("ui/src/api/generated/schema.d.ts", () => {
  it("matches the control plane's OpenAPI document", async () => {
    const served = await schemaText(await servedOpenApiDocument());
    expect(
      readFileSync(schemaFile, "utf8"),
      "ui/src/api/generated/schema.d.ts is stale: run `npm run generate --workspace @atrium/ui`",
    ).toBe(served);
    // Not an empty document that happens to match: the routes the UI calls are in it.
    expect(served).toContain('"/api/v1/login"');
    expect(served).toContain('"/api/v1/services"');
    // A control plane's start and openapi-typescript, on a loaded machine.
  }, 120_000);
});
