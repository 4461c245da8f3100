/**
 * OpenAPI schema objects (dereferenced by the parser, so possibly cyclic and shared) into
 * self-contained JSON Schema 2020-12 objects: plain JSON. The top schema is written out (followed
 * through its own `$ref`, if any); below it, every schema that was reached through a `$ref` (or
 * that contains itself) becomes `{ "$ref": "#/$defs/<Name>" }`, and the schemas so named, with
 * those they name in turn, are copied into `$defs` at the root of the schema being converted.
 * Each shared schema is converted once per document, so the work and the result grow linearly
 * with the document, never exponentially with the depth of its references.
 *
 * Dialect conversion (2.0 and 3.0 only; 3.1 schemas already are JSON Schema 2020-12):
 * - `nullable: true` (3.0) and `x-nullable: true` (2.0) become `"null"` in a `type` array, and
 *   `null` is added to an `enum`. Without a `type`, the schema becomes `anyOf: [schema, {type: "null"}]`:
 *   OpenAPI 3.0.3 says `nullable` then has no effect, but writers mean "or null" (typically beside
 *   `allOf: [{$ref}]`), and accepting null is the kinder error for a tool call.
 * - Boolean `exclusiveMinimum` / `exclusiveMaximum` become the numeric form.
 * - `example` becomes `examples: [example]`.
 * - 2.0 `type: file` becomes `{type: "string", format: "binary"}`.
 * Everywhere, `discriminator.mapping` is dropped: its values are pointers into the original document.
 *
 * Patterns (`pattern`, `patternProperties` names) are rewritten to ECMAScript's Unicode mode, which
 * JSON Schema validators compile them in (unicode-pattern.ts); one with no equivalent there is
 * dropped and the schema's description says so (a `patternProperties` entry takes the schema's
 * `additionalProperties` and `unevaluatedProperties` with it, which would now refuse what it
 * described). A `format` that strict validators do not know (ajv's Ajv2020 with ajv-formats refuses
 * to compile a schema naming one) is dropped too, and the description keeps it as a hint. Each
 * rewrite and drop is a warning of the import (the first `maxImportWarnings`).
 */

import {
  SINGLE_SUBSCHEMA_KEYWORDS,
  SUBSCHEMA_LIST_KEYWORDS,
  SUBSCHEMA_MAP_KEYWORDS,
} from "@atrium/contract/json-schema";
import type { ImportWarning, ImportWarningCode } from "@atrium/contract/rest";
import { unknownFormatProblem } from "@atrium/crds";
import { describeLocation, emptyEnum, invalidPattern, invalidSchema, schemasTooLarge, selfApplied } from "./errors.ts";
import { childPointer, refToPointer } from "./json-pointer.ts";
import { maxImportWarnings } from "./limits.ts";
import type { Locate } from "./locate.ts";
import { schemaProblem } from "./meta-schema.ts";
import { copyJson, isPlainObject, type JsonObject, type JsonValue, setOwn } from "./plain-json.ts";
import { toUnicodePattern } from "./unicode-pattern.ts";

/** A warning as this importer writes it: one of the codes the contract lists. */
type WrittenWarning = ImportWarning & { code: ImportWarningCode };

export type SchemaDialect = "2.0" | "3.0" | "3.1";

export type SchemaConverterOptions = {
  dialect: SchemaDialect;
  /** The `$ref` each dereferenced object came from, e.g. `#/components/schemas/Node`, to name `$defs`. */
  refOrigins: ReadonlyMap<object, string>;
  /** Upper bound of JSON nodes produced for the whole document (inlining can multiply a schema). */
  maxNodes: number;
  /** Builds the error thrown when a non-schema value contains itself. */
  onCycle: (pointer: string) => Error;
  /** Places a pointer of the document in the submitted text, for errors; pointer only when absent. */
  locate?: Locate;
};

export type SchemaConverter = {
  /** Converts one schema; `pointer` says where it sits in the dereferenced document (for errors). */
  convert(schema: unknown, pointer: string): JsonObject;
  /** Copies a non-schema value (an `x-` extension) as plain JSON, counted against the same limit. */
  copy(value: unknown, pointer: string): JsonValue;
  /** The note a converted top schema's description got for a pattern or format dropped from it, for its parameter's description. */
  noteOf(schema: JsonObject): string | undefined;
  /** Each pattern rewritten or dropped and each format dropped so far, once per place. */
  warnings: WrittenWarning[];
};

/** A shared schema, converted once per document, with the names its body refers to. */
type SharedSchema = {
  body: JsonValue;
  uses: Set<string>;
  /** Names applied to the same value as this schema (not to a property or an item of it). */
  inPlaceUses: Set<string>;
  nodes: number;
  /** Where it is written (its $ref's target), else where it was first met; for errors. */
  pointer: string;
};

/** Keywords whose subschemas apply to the very value their schema validates. */
const inPlaceKeywords = new Set([
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "dependencies",
]);

/** Keywords that only describe; a schema made of these alone accepts every value. */
const annotationKeywords = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
]);

export function createSchemaConverter(options: SchemaConverterOptions): SchemaConverter {
  const { dialect, refOrigins, maxNodes, onCycle } = options;
  const locate: Locate = options.locate ?? ((pointer) => ({ pointer }));
  const namesByNode = new Map<object, string>();
  const usedNames = new Set<string>();
  /** Every shared schema converted once per document, with the names its body refers to. */
  const defs = new Map<string, SharedSchema>();
  /** Shared schemas known not to apply themselves to the same value in a loop. */
  const terminating = new Set<string>();
  let producedNodes = 0;

  const count = (nodes: number): void => {
    producedNodes += nodes;
    if (producedNodes > maxNodes) throw schemasTooLarge(maxNodes);
  };

  // Names are unique across the document: the same name always denotes the same schema.
  const defName = (node: object): string => {
    const known = namesByNode.get(node);
    if (known) return known;
    const origin = refOrigins.get(node);
    const base = origin ? nameFromRef(origin) : "Schema";
    let name = base;
    for (let suffix = 2; usedNames.has(name); suffix++) name = `${base}_${suffix}`;
    namesByNode.set(node, name);
    usedNames.add(name);
    return name;
  };

  const warnings: WrittenWarning[] = [];
  const warned = new Set<string>();
  const notes = new WeakMap<JsonObject, string>();
  const warn = (warning: WrittenWarning): void => {
    const key = `${warning.code}\u0000${warning.location?.pointer}`;
    if (warned.has(key) || warnings.length >= maxImportWarnings) return;
    warned.add(key);
    warnings.push(warning);
  };
  /** Drops what a strict validator cannot compile: the schema's description gets `note`, the import `warning`. */
  const drop = (note: string, warning: WrittenWarning, dropNotes: string[]): void => {
    dropNotes.push(note);
    warn(warning);
  };

  /**
   * A pattern as ECMAScript's Unicode mode spells it, or `undefined` with a note why when it has
   * no equivalent there (it is then dropped). One that is no string at all is refused.
   */
  const unicodePattern = (pattern: unknown, pointer: string, dropNotes: string[]): string | undefined => {
    if (typeof pattern !== "string") throw invalidPattern(pattern, "it is not a string", locate(pointer));
    const result = toUnicodePattern(pattern);
    if (result.kind === "unchanged") return pattern;
    const location = locate(pointer);
    if (result.kind === "rewritten") {
      warn({
        code: "PATTERN_REWRITTEN",
        message: `pattern ${JSON.stringify(pattern)}${describeLocation(location)} is written ${JSON.stringify(result.pattern)}, its ECMAScript Unicode-mode equivalent (as JSON Schema validators compile patterns): ${result.changes.join("; ")}`,
        location,
      });
      return result.pattern;
    }
    drop(
      `Not checked: the pattern ${JSON.stringify(pattern)} (${result.reason}; JSON Schema validators compile patterns as ECMAScript in Unicode mode).`,
      {
        code: "PATTERN_DROPPED",
        message: `pattern ${JSON.stringify(pattern)}${describeLocation(location)} is dropped: ${result.reason}, and it has no ECMAScript Unicode-mode equivalent (as JSON Schema validators compile patterns); the schema's description says so`,
        location,
      },
      dropNotes,
    );
    return undefined;
  };

  /**
   * Whether `format` stays: one a strict validator does not know is dropped, and kept as a hint
   * in the description. One that is no string is left to the meta-schema check.
   */
  const keepFormat = (format: unknown, pointer: string, dropNotes: string[]): boolean => {
    const problem = typeof format === "string" ? unknownFormatProblem(format) : undefined;
    if (problem === undefined) return true;
    const location = locate(pointer);
    drop(
      `Format: ${JSON.stringify(format)} (not checked: strict JSON Schema validators do not know it).`,
      {
        code: "FORMAT_DROPPED",
        message: `format ${JSON.stringify(format)}${describeLocation(location)} is dropped: ${problem}; the schema's description keeps it as a hint`,
        location,
      },
      dropNotes,
    );
    return false;
  };

  /**
   * Fail closed, as for patterns: checked once per converted body (the top schema, each shared
   * one), before `$defs` are attached. The body mirrors the document's schema, so the violation's
   * path below it points into the document.
   */
  const checkSchema = (body: JsonValue, pointer: string): void => {
    const problem = schemaProblem(body);
    if (problem === undefined) return;
    const at = problem.path === "" ? pointer : `${pointer}${problem.path}`;
    throw invalidSchema(problem.message, locate(at));
  };

  const copyData = (value: unknown, pointer: string): JsonValue => {
    const copy = copyJson(value, { pointer, onCycle });
    count(countNodes(copy));
    return copy;
  };

  /** One conversion: the names it refers to, and shared schemas met but not converted yet. */
  type Context = {
    ancestors: Set<object>;
    uses: Set<string>;
    /** The names applied to the very value the conversion's top schema validates (see `inPlaceKeywords`). */
    inPlaceUses: Set<string>;
    pending: Array<[object, string]>;
    /** The top schema of a `convert` call, whose note on what was dropped its parameter repeats. */
    top?: object;
    topNote?: string;
  };

  const convertNode = (node: unknown, context: Context, pointer: string, inPlace: boolean): JsonValue => {
    if (typeof node === "boolean") return node;
    if (Array.isArray(node)) {
      return node.map((item, index) => convertNode(item, context, childPointer(pointer, index), inPlace));
    }
    if (!isPlainObject(node)) return copyData(node, pointer);
    // A schema reached through a $ref stays a reference: shared schemas are converted once, and
    // a schema referring to another any number of times grows linearly, never exponentially.
    if (context.ancestors.has(node) || refOrigins.has(node)) {
      const name = defName(node);
      if (!defs.has(name)) {
        // reserved: its body may refer to it
        const origin = refOrigins.get(node);
        const written = origin === undefined ? undefined : refToPointer(origin);
        defs.set(name, { body: {}, uses: new Set(), inPlaceUses: new Set(), nodes: 0, pointer: written ?? pointer });
        context.pending.push([node, pointer]);
      }
      context.uses.add(name);
      if (inPlace) context.inPlaceUses.add(name);
      count(1);
      return { $ref: `#/$defs/${name}` };
    }
    context.ancestors.add(node);
    const converted = convertBody(node, context, pointer, inPlace);
    context.ancestors.delete(node);
    return converted;
  };

  const convertBody = (
    node: Record<string, unknown>,
    context: Context,
    pointer: string,
    inPlace: boolean,
  ): JsonObject => {
    count(1);
    const out: JsonObject = {};
    let nullable = false;
    const dropNotes: string[] = [];
    let droppedPatternProperty = false;
    for (const [keyword, value] of Object.entries(node)) {
      const at = childPointer(pointer, keyword);
      if (value === undefined) continue;
      if (keyword === "$ref") continue; // only unresolvable leftovers remain after dereferencing; never point outside
      if (dialect !== "3.1" && (keyword === "nullable" || keyword === "x-nullable")) {
        nullable ||= value === true;
        continue;
      }
      const applied = inPlace && inPlaceKeywords.has(keyword);
      // Valid 2020-12 (a SHOULD), but ajv refuses to compile it: the gateways would only check for an object.
      if (keyword === "enum" && Array.isArray(value) && value.length === 0) throw emptyEnum(locate(at));
      if (keyword === "pattern") {
        const pattern = unicodePattern(value, at, dropNotes);
        if (pattern !== undefined) setOwn(out, keyword, pattern);
      } else if (keyword === "format") {
        if (keepFormat(value, at, dropNotes)) setOwn(out, keyword, copyData(value, at));
      } else if (keyword === "patternProperties" && isPlainObject(value)) {
        const map: JsonObject = {};
        for (const [name, subschema] of Object.entries(value)) {
          const nameAt = childPointer(at, name);
          const pattern = unicodePattern(name, nameAt, dropNotes);
          if (pattern === undefined) {
            droppedPatternProperty = true;
            continue;
          }
          const converted = convertNode(subschema, context, nameAt, applied);
          // Two names may be written alike (`^x\-` and `^x-`): a property they match meets both schemas.
          setOwn(map, pattern, Object.hasOwn(map, pattern) ? { allOf: [map[pattern] ?? true, converted] } : converted);
        }
        setOwn(out, keyword, map);
      } else if (SINGLE_SUBSCHEMA_KEYWORDS.has(keyword) || SUBSCHEMA_LIST_KEYWORDS.has(keyword)) {
        setOwn(out, keyword, convertNode(value, context, at, applied));
      } else if (SUBSCHEMA_MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
        const map: JsonObject = {};
        for (const [name, subschema] of Object.entries(value)) {
          setOwn(map, name, convertNode(subschema, context, childPointer(at, name), applied));
        }
        setOwn(out, keyword, map);
      } else if (keyword === "dependencies" && isPlainObject(value)) {
        const map: JsonObject = {};
        for (const [name, dependency] of Object.entries(value)) {
          const dependencyAt = childPointer(at, name);
          setOwn(
            map,
            name,
            Array.isArray(dependency)
              ? copyData(dependency, dependencyAt)
              : convertNode(dependency, context, dependencyAt, applied),
          );
        }
        setOwn(out, keyword, map);
      } else if (keyword === "discriminator" && isPlainObject(value)) {
        const { mapping: _mapping, ...discriminator } = value;
        setOwn(out, keyword, copyData(discriminator, at));
      } else {
        setOwn(out, keyword, copyData(value, at));
      }
    }
    if (droppedPatternProperty) {
      // They would now refuse the properties the dropped entry described.
      delete out.additionalProperties;
      delete out.unevaluatedProperties;
    }
    if (dropNotes.length > 0) {
      const note = dropNotes.join(" ");
      out.description = typeof out.description === "string" ? `${out.description}\n\n${note}` : note;
      if (node === context.top) context.topNote = note;
    }
    if (dialect === "3.1") return out;
    convertOpenApiKeywords(out);
    return nullable ? allowNull(out) : out;
  };

  /** Converts the shared schemas met so far, one after the other (no recursion along a chain of $refs). */
  const convertPending = (pending: Array<[object, string]>): void => {
    for (let next = pending.pop(); next; next = pending.pop()) {
      const [node, pointer] = next;
      const before = producedNodes;
      const context: Context = { ancestors: new Set([node]), uses: new Set(), inPlaceUses: new Set(), pending };
      const body = convertBody(node as Record<string, unknown>, context, pointer, true);
      const { uses, inPlaceUses } = context;
      const name = defName(node);
      const reserved = defs.get(name)?.pointer ?? pointer;
      checkSchema(body, reserved);
      defs.set(name, { body, uses, inPlaceUses, nodes: producedNodes - before, pointer: reserved });
    }
  };

  /**
   * Refuses a shared schema that applies itself to the same value in a loop (`C: {allOf: [C]}`,
   * `A: {anyOf: [B]}, B: {not: A}`): no value could be validated against it, and a validator
   * would recurse until its stack overflows. Recursion through a property or an item is fine.
   */
  const checkTerminates = (start: string): void => {
    const onPath = new Set<string>();
    const visit = (name: string): void => {
      if (terminating.has(name)) return;
      const def = defs.get(name);
      if (onPath.has(name)) throw selfApplied(name, locate(def?.pointer ?? ""));
      onPath.add(name);
      for (const used of def?.inPlaceUses ?? []) visit(used);
      onPath.delete(name);
      terminating.add(name);
    };
    visit(start);
  };

  /** The names `uses` refers to, directly or through other shared schemas. */
  const closure = (uses: Set<string>): string[] => {
    const seen = new Set<string>();
    const stack = [...uses];
    for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
      if (seen.has(name)) continue;
      seen.add(name);
      for (const used of defs.get(name)?.uses ?? []) stack.push(used);
    }
    return [...seen].sort();
  };

  return {
    convert(schema, pointer) {
      const context: Context = { ancestors: new Set(), uses: new Set(), inPlaceUses: new Set(), pending: [] };
      // The top schema itself is written out (its $ref, if any, followed once), so a tool's
      // arguments read as properties rather than a lone reference.
      let converted: JsonValue;
      if (isPlainObject(schema)) {
        context.ancestors.add(schema);
        context.top = schema;
        converted = convertBody(schema, context, pointer, true);
      } else {
        converted = convertNode(schema, context, pointer, true);
      }
      checkSchema(converted, pointer);
      convertPending(context.pending);
      for (const name of context.inPlaceUses) checkTerminates(name);
      const root: JsonObject = isPlainObject(converted) ? converted : converted === false ? { not: {} } : {};
      const names = closure(context.uses);
      if (names.length > 0) {
        const existing = isPlainObject(root.$defs) ? root.$defs : {};
        const attached: JsonObject = { ...existing };
        for (const name of names) {
          const def = defs.get(name);
          if (!def) continue;
          // Each schema gets its own copy: what the import returns is plain, unshared JSON.
          count(def.nodes);
          setOwn(attached, name, structuredClone(def.body));
        }
        root.$defs = attached;
      }
      if (context.topNote !== undefined) notes.set(root, context.topNote);
      return root;
    },
    copy: copyData,
    noteOf: (schema) => notes.get(schema),
    warnings,
  };
}

/** JSON nodes in a plain JSON value, counted without recursion. */
export function countNodes(value: JsonValue): number {
  let nodes = 0;
  const stack: JsonValue[] = [value];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    nodes++;
    if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === "object") stack.push(...Object.values(node));
  }
  return nodes;
}

/** `#/components/schemas/Tree Node` → `Tree_Node`: a name safe in a JSON pointer and a URI fragment. */
function nameFromRef(ref: string): string {
  const short = ref.replace(/^#\/(components\/schemas|definitions|\$defs)\//, "").replace(/^#\/?/, "");
  const safe = short.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "");
  return safe === "" ? "Schema" : safe;
}

/** 2.0 / 3.0 schema keywords that JSON Schema 2020-12 spells differently (in place). */
function convertOpenApiKeywords(schema: JsonObject): void {
  if (schema.type === "file") {
    schema.type = "string";
    schema.format = "binary";
  }
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof schema[exclusive] !== "boolean") continue;
    if (schema[exclusive] === true && typeof schema[bound] === "number") {
      schema[exclusive] = schema[bound];
      delete schema[bound];
    } else {
      delete schema[exclusive];
    }
  }
  if ("example" in schema) {
    if (!("examples" in schema)) schema.examples = [schema.example ?? null];
    delete schema.example;
  }
}

function allowNull(schema: JsonObject): JsonObject {
  const { type } = schema;
  if (typeof type === "string" || Array.isArray(type)) {
    const types = typeof type === "string" ? [type] : type;
    schema.type = types.includes("null") ? types : [...types, "null"];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return schema;
  }
  const annotations: JsonObject = {};
  const constraints: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    setOwn(annotationKeywords.has(keyword) ? annotations : constraints, keyword, value);
  }
  if (Object.keys(constraints).length === 0) return schema; // already accepts null
  return { ...annotations, anyOf: [constraints, { type: "null" }] };
}
