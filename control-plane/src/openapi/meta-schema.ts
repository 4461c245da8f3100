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
  // A schema naming another dialect: the gateways' ajv holds no other meta-schema and would not compile it.
  const declared =
    typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (declared !== undefined && declared !== DIALECT) {
    return {
      path: "/$schema",
      message: `/$schema is ${JSON.stringify(declared)}, and the gateways validate JSON Schema 2020-12 only: remove $schema or make it "${DIALECT}"`,
    };
  }
  // Against 2020-12 by name: validateSchema would look the meta-schema up by `$schema`.
  if (ajv.validate(DIALECT, schema)) return undefined;
  const [error] = ajv.errors ?? [];
  if (!error) return undefined;
  return {
    path: error.instancePath,
    message: `${error.instancePath || "the schema"} ${error.message ?? "is invalid"}`,
  };
}
