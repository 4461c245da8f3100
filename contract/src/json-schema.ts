/**
 * Where JSON Schema (2020-12, plus the draft keywords still met in the wild) nests subschemas.
 * The importer and the gateway both walk schemas with these sets, so they are defined once.
 */

/** Keywords whose value is one subschema (`items` may still be a draft-07 tuple). */
export const SINGLE_SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "additionalItems",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
/** Keywords whose value is a list of subschemas. */
export const SUBSCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);

/**
 * `target[key] = value` as an own property, even for `__proto__`: a plain assignment would set
 * the object's prototype instead, losing the member (a property or parameter named `__proto__`)
 * and making the prototype's keys look like its own to every `for…in` (ajv's included).
 */
export function setOwn(target: object, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (target as Record<string, unknown>)[key] = value;
  }
}
