/**
 * Every converted schema checked against the JSON Schema 2020-12 meta-schema, with the ajv the
 * gateways compile tool schemas with (validator.ts there): a schema they could not compile would
 * only be checked for being an object (validation weakened), so it is refused here, at import,
 * where it can be corrected. 3.1's own meta-schema does not look inside schema objects
 * (`{"not": []}` passes it); 2.0 and 3.0 schemas are checked after their conversion.
 */
import { Ajv2020 } from "ajv/dist/2020.js";

/** The one dialect the gateways compile. */
const DIALECT = "https://json-schema.org/draft/2020-12/schema";

// One meta-schema validator per process (per import worker): compiled once, reused by every import.
const ajv = new Ajv2020({ allErrors: false, strict: false, logger: false });

/** The first meta-schema violation of `schema` as `<path>: <message>` (path relative to the schema), or undefined. */
export function schemaProblem(schema: unknown): { path: string; message: string } | undefined {
  // Against 2020-12 by name, whatever `$schema` says: the gateways drop `$schema` and compile every
  // tool schema as 2020-12 (validateSchema would look the meta-schema up by it, and throw on one it lacks).
  if (ajv.validate(DIALECT, schema)) return undefined;
  const [error] = ajv.errors ?? [];
  if (!error) return undefined;
  return {
    path: error.instancePath,
    message: `${error.instancePath || "the schema"} ${error.message ?? "is invalid"}`,
  };
}
