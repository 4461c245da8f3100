/**
 * Argument and result validators, compiled once per tool with ajv (JSON Schema 2020-12, the
 * dialect of the importer's schemas) and ajv-formats. A schema ajv cannot compile never fails the
 * Exposition: the validator is compiled again without `pattern`s, and failing that, it only checks
 * that the value is an object; each fallback leaves a warning.
 *
 * Violations read `<where>: <what>`, e.g. `petId: must be integer`, `body.tags[0]: must be string`,
 * `petId: is required`; `arguments` names the root.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import type { JsonSchema } from "./mcp.ts";
import { isPlainObject, prepareSchema } from "./schema.ts";

export type Validator = (value: unknown) => string[];

export type ValidatorCompiler = {
  /**
   * A validator of `schema` (already prepared, see schema.ts); `label` names it in warnings,
   * `root` names the validated value in violations.
   */
  compile(schema: JsonSchema, label: string, root?: string): Validator;
  /** Compiles `schema` exactly or returns undefined (with a warning): for schemas clients compile too. */
  compileExact(schema: JsonSchema, label: string, root?: string): Validator | undefined;
  /** What could not be compiled as written, for the gateway's log. */
  warnings: string[];
};

/** At most this many violations are listed; the rest are counted. */
const MAX_VIOLATIONS = 20;

/**
 * Compiled validators are shared by every Exposition of the process: gateways often load many
 * Expositions of one Service, whose tools have the same schemas. One ajv instance holds them;
 * past MAX_SHARED distinct schemas it is replaced, so schemas of Expositions long gone do not
 * accumulate (validators already handed out keep working: they hold their own code).
 */
const MAX_SHARED = 20_000;
let shared = newShared();

function newShared() {
  // code.optimize off: a third less compile time, validation measured as fast
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, code: { optimize: false } });
  ajvFormats.default(ajv);
  return { ajv, compiled: new Map<string, ValidateFunction | string>() };
}

function tryCompile(schema: JsonSchema): ValidateFunction | string {
  const key = JSON.stringify(schema);
  let outcome = shared.compiled.get(key);
  if (outcome === undefined) {
    if (shared.compiled.size >= MAX_SHARED) shared = newShared();
    try {
      outcome = shared.ajv.compile(schema);
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error);
    }
    shared.compiled.set(key, outcome);
  }
  return outcome;
}

export function createValidatorCompiler(): ValidatorCompiler {
  const warnings: string[] = [];
  return {
    warnings,
    compile(schema, label, root = "arguments") {
      let validate = tryCompile(schema);
      if (typeof validate === "string") {
        const firstError = validate;
        validate = tryCompile(prepareSchema(schema, "input", { patterns: false }));
        warnings.push(
          typeof validate === "string"
            ? `${label}: schema not compiled (${firstError}); only checking for an object`
            : `${label}: schema compiled without its patterns (${firstError})`,
        );
      }
      return typeof validate === "string" ? objectOnly(root) : validatorOf(validate, root);
    },
    compileExact(schema, label, root = "arguments") {
      const validate = tryCompile(schema);
      if (typeof validate !== "string") return validatorOf(validate, root);
      warnings.push(`${label}: schema not compiled (${validate}); left out`);
      return undefined;
    },
  };
}

function validatorOf(validate: ValidateFunction, root: string): Validator {
  return (value) => (validate(value) ? [] : formatErrors(validate.errors ?? [], root));
}

function objectOnly(root: string): Validator {
  return (value) => (isPlainObject(value) ? [] : [`${root}: must be object`]);
}

function formatErrors(errors: ErrorObject[], root: string): string[] {
  const unique = [...new Set(errors.map((error) => formatError(error, root)))];
  if (unique.length <= MAX_VIOLATIONS) return unique;
  return [...unique.slice(0, MAX_VIOLATIONS), `… and ${unique.length - MAX_VIOLATIONS} more`];
}

function formatError(error: ErrorObject, root: string): string {
  const at = pathOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${child(at, String(params.missingProperty))}: is required`;
    case "additionalProperties":
      return `${child(at, String(params.additionalProperty))}: is not expected`;
    case "enum":
      return `${at || root}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `${at || root}: must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${at || root}: ${error.message ?? "is invalid"}`;
  }
}

const arrayIndex = /^\d+$/;

/** `/body/tags/0` → `body.tags[0]` (JSON Pointer escapes undone). */
function pathOf(pointer: string): string {
  if (pointer === "") return "";
  let path = "";
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    path = arrayIndex.test(segment) ? `${path}[${segment}]` : child(path, segment);
  }
  return path;
}

function child(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}
