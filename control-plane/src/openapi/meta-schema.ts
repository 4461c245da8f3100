/**
 * Every converted schema checked against the JSON Schema 2020-12 meta-schema, with the ajv the
 * gateways compile tool schemas with (validator.ts there): a schema they could not compile would
 * only be checked for being an object (validation weakened), so it is refused here, at import,
 * where it can be corrected. 3.1's own meta-schema does not look inside schema objects
 * (`{"not": []}` passes it); 2.0 and 3.0 schemas are checked after their conversion.
 */
import { Ajv2020 } from "ajv/dist/2020.js";

// One meta-schema validator per process (per import worker): compiled once, reused by every import.
const ajv = new Ajv2020({ allErrors: false, strict: false, logger: false });

/** The first meta-schema violation of `schema` as `<path>: <message>` (path relative to the schema), or undefined. */
export function schemaProblem(schema: unknown): { path: string; message: string } | undefined {
  if (ajv.validateSchema(schema as object)) return undefined;
  const [error] = ajv.errors ?? [];
  if (!error) return undefined;
  return {
    path: error.instancePath,
    message: `${error.instancePath || "the schema"} ${error.message ?? "is invalid"}`,
  };
}
