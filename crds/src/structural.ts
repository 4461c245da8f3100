/**
 * Turns the JSON Schema Zod emits (OpenAPI 3.0 flavour) into a Kubernetes *structural* schema:
 * every node typed, no `$ref`, no type unions, no `properties` beside `additionalProperties`,
 * free-form objects marked `x-kubernetes-preserve-unknown-fields`. Anything it cannot translate
 * faithfully is an error naming the path, so the schemas stay expressible as CRDs.
 */
export type JsonSchema = { [key: string]: unknown };

/** Keys copied as they are. */
const kept = new Set([
  "type",
  "description",
  "title",
  "required",
  "enum",
  "default",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "nullable",
]);
/** Keys with no CRD equivalent that carry no validation the API server could apply. */
const dropped = new Set(["$schema", "propertyNames", "examples", "id"]);
/** Keys that make a schema non-structural; the Zod schema has to be written another way. */
const refused = new Set(["anyOf", "oneOf", "allOf", "not", "$ref", "$defs", "definitions"]);

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

export function toStructural(schema: JsonSchema, path = "$"): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (refused.has(key)) throw new Error(`${path}: '${key}' cannot appear in a structural CRD schema`);
    if (dropped.has(key)) continue;
    if (key.startsWith("x-kubernetes-")) {
      out[key] = value;
    } else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [
          name,
          toStructural(child, `${path}.${name}`),
        ]),
      );
    } else if (key === "items") {
      out.items = toStructural(value as JsonSchema, `${path}[]`);
    } else if (key === "additionalProperties") {
      if (value === false || value === true) continue; // pruning already drops unknown fields
      const child = value as JsonSchema;
      if (Object.keys(child).length === 0) out["x-kubernetes-preserve-unknown-fields"] = true;
      else out.additionalProperties = toStructural(child, `${path}.*`);
    } else if (key === "uniqueItems") {
      // The API server refuses uniqueItems: true; sets are declared with x-kubernetes-list-type.
    } else if (kept.has(key)) {
      // Zod bounds every integer by the safe-integer range; the bound says nothing to a reader.
      if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === SAFE_INTEGER_BOUND) continue;
      out[key] = value;
    } else {
      throw new Error(`${path}: no structural translation for '${key}'`);
    }
  }
  if (out.type === undefined && out["x-kubernetes-preserve-unknown-fields"] !== true) {
    if (Object.keys(out).every((key) => key === "description" || key === "title")) {
      out["x-kubernetes-preserve-unknown-fields"] = true; // z.unknown(): any JSON value
    } else {
      throw new Error(`${path}: a structural schema needs a type`);
    }
  }
  if (out.properties !== undefined && out.additionalProperties !== undefined) {
    throw new Error(`${path}: 'properties' and 'additionalProperties' cannot both be set`);
  }
  return out;
}
