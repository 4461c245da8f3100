/**
 * JSON Schemas of an operation made fit to publish in a tool and to compile with ajv (and with
 * the clients' own ajv, which compiles `outputSchema` when it lists tools: a schema it cannot
 * compile breaks the whole listing). The control plane shows tools' schemas prepared the same way.
 *
 * The importer already converts OpenAPI 2.0/3.0 dialects to JSON Schema 2020-12; this pass is the
 * gateway's own guard against what may still slip through or come from a CustomTools author:
 * - `nullable: true` becomes `"null"` in `type` (ajv rejects `nullable` without `type`);
 * - `example` becomes `examples`; `xml`, `externalDocs`, `discriminator` and `x-*` keys, which
 *   only describe, are dropped;
 * - `$schema` and `$id` are dropped: a foreign `$schema` makes ajv throw, and the same `$id` in
 *   two tools' schemas collides in one ajv instance. References stay `#/$defs/<Name>`;
 * - a `type` that names no JSON type and a `required` that is not a list of strings are dropped
 *   (common OpenAPI slips that would fail meta-schema validation);
 * - in request schemas a `readOnly` property is not required, in response schemas a `writeOnly`
 *   one is not (the OpenAPI meaning of those flags).
 * Keywords are only rewritten where a schema sits; property names and literal values (`enum`,
 * `const`, `default`, `examples`) are copied as they are.
 */

import { SINGLE_SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS, setOwn } from "../json-schema.ts";

/** A JSON Schema object as published to clients and compiled by ajv. */
export type JsonSchema = Record<string, unknown>;

export type SchemaUse = "input" | "output";

const droppedKeywords = new Set(["$schema", "$id", "nullable", "xml", "externalDocs", "discriminator", "example"]);
const jsonTypes = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type PrepareOptions = {
  /** `false` drops `pattern` and `patternProperties`: the second try when a pattern is no valid ECMAScript regex. */
  patterns?: boolean;
};

/** A schema cleaned for `use`; a value that is no schema at all becomes `{}` (accepts anything). */
export function prepareSchema(schema: unknown, use: SchemaUse, options: PrepareOptions = {}): JsonSchema {
  const prepared = prepareNode(schema, use, options.patterns !== false);
  return typeof prepared === "boolean" ? (prepared ? {} : { not: {} }) : prepared;
}

function prepareNode(node: unknown, use: SchemaUse, patterns: boolean): JsonSchema | boolean {
  if (typeof node === "boolean") return node;
  if (!isPlainObject(node)) return {};
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (value === undefined || droppedKeywords.has(keyword) || keyword.startsWith("x-")) continue;
    if (!patterns && (keyword === "pattern" || keyword === "patternProperties")) continue;
    if (SINGLE_SUBSCHEMA_KEYWORDS.has(keyword)) {
      // `items` may still be a draft-07 tuple
      setOwn(
        out,
        keyword,
        Array.isArray(value)
          ? value.map((item) => prepareNode(item, use, patterns))
          : prepareNode(value, use, patterns),
      );
    } else if (SUBSCHEMA_LIST_KEYWORDS.has(keyword)) {
      if (Array.isArray(value))
        setOwn(
          out,
          keyword,
          value.map((item) => prepareNode(item, use, patterns)),
        );
    } else if (SUBSCHEMA_MAP_KEYWORDS.has(keyword)) {
      if (!isPlainObject(value)) continue;
      const map: Record<string, unknown> = {};
      for (const [name, subschema] of Object.entries(value)) setOwn(map, name, prepareNode(subschema, use, patterns));
      setOwn(out, keyword, map);
    } else if (keyword === "dependencies" && isPlainObject(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, dependency] of Object.entries(value)) {
        setOwn(map, name, Array.isArray(dependency) ? dependency : prepareNode(dependency, use, patterns));
      }
      setOwn(out, keyword, map);
    } else if (keyword === "type") {
      const types = (Array.isArray(value) ? value : [value]).filter((t) => typeof t === "string" && jsonTypes.has(t));
      if (types.length > 0) out.type = Array.isArray(value) ? types : types[0];
    } else if (keyword === "required") {
      if (Array.isArray(value) && value.every((name) => typeof name === "string")) out.required = value;
    } else {
      setOwn(out, keyword, value); // a keyword named __proto__ stays a (meaningless) keyword
    }
  }
  if ("example" in node && !("examples" in out)) out.examples = [node.example];
  if (node.nullable === true) allowNull(out);
  dropOneSidedRequired(out, use === "input" ? "readOnly" : "writeOnly");
  return out;
}

function allowNull(schema: JsonSchema): void {
  const { type } = schema;
  if (type === undefined) return; // without a type, null is already accepted unless other keywords say otherwise
  const types = Array.isArray(type) ? type : [type];
  if (!types.includes("null")) schema.type = [...types, "null"];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

function dropOneSidedRequired(schema: JsonSchema, flag: "readOnly" | "writeOnly"): void {
  const { required, properties } = schema;
  if (!Array.isArray(required) || !isPlainObject(properties)) return;
  const kept = required.filter((name) => {
    const property = properties[name];
    return !(isPlainObject(property) && property[flag] === true);
  });
  if (kept.length === required.length) return;
  if (kept.length > 0) schema.required = kept;
  else delete schema.required;
}

/**
 * Moves `$defs` out of a schema that will be nested in another (a tool's inputSchema holds every
 * parameter and the body): `#/$defs/<Name>` references resolve against the root, and the importer
 * guarantees one name denotes one schema across an operation, so merging needs no renaming.
 */
export function hoistDefs(schema: JsonSchema, into: Record<string, unknown>): JsonSchema {
  const { $defs, ...rest } = schema;
  if (isPlainObject($defs)) Object.assign(into, $defs);
  return rest;
}
