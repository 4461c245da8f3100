/**
 * A tool's outputSchema derived through its output filter (retain, then patches), so that what
 * tools/list advertises is what the filtered structuredContent is: for every document valid
 * against the tool's schema, the filtered document is valid against the derived one (the gateway
 * checks each result against it too).
 *
 * retain always derives: a kept value keeps its schema; a branch the pointers go into keeps only
 * the properties they name (additionalProperties false unless `*` names them all), none of them
 * required unless kept whole and required before; a schema whose shape is not plain properties and
 * items (allOf, anyOf, …) becomes `{}` where the pointers go into it.
 *
 * patches derive when each path goes through plain object properties: `remove` deletes the
 * property, `add`/`replace` set it to the value's own schema, `move`/`copy` carry the source's
 * schema, `test` changes nothing, and a failed test (the document kept as before the patches)
 * makes the schema accept both. A path into an array, the root, or a shape it cannot follow makes
 * the derivation fail, with the reason: the tool then lists no outputSchema.
 */
import { setOwn } from "../json-schema.ts";
import { childOf, compileRetain, pointerTokens, type RetainNode } from "./retain.ts";

type Schema = Record<string, unknown>;
export type PatchOperation = { op: string; path: string; from?: string; value?: unknown };
export type FilterSteps = { retain?: readonly string[]; patches?: readonly PatchOperation[] };

export type Derived = { schema: Schema } | { problem: string };

function isObject(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Keywords that combine or condition schemas: a branch the filter goes into cannot be followed through them. */
const unfollowed = [
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "propertyNames",
  "$dynamicRef",
];

const MAX_REF_HOPS = 32;
const localRef = /^#\/\$defs\/([^/]+)$/;

/** `schema` with its local `$ref` followed (a `$ref` with sibling keywords is not followed); undefined when it cannot be. */
function resolved(schema: unknown, defs: Schema): Schema | undefined {
  let at = schema;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    if (at === true) return {};
    if (!isObject(at)) return undefined;
    const ref = at.$ref;
    if (ref === undefined) return at;
    const siblings = Object.keys(at).filter((key) => key !== "$ref" && key !== "description" && key !== "title");
    const name = typeof ref === "string" ? localRef.exec(ref)?.[1] : undefined;
    if (siblings.length > 0 || name === undefined) return undefined;
    at = defs[name.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return undefined;
}

function typesOf(schema: Schema): Set<string> | undefined {
  const { type } = schema;
  if (type === undefined) return undefined;
  return new Set((Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string"));
}

function followable(schema: Schema): boolean {
  return !unfollowed.some((keyword) => keyword in schema);
}

/** Pointers crossing a recursive schema can ask for exponentially many derived nodes: past this, no schema. */
export const MAX_DERIVED_NODES = 100_000;
const tooManyNodes = new Error("too many derived schema nodes");
let nodesLeft = 0;

/** What `retain` keeps of a value of `schema`, at tree node `at` (see the module comment). */
function retainSchema(schema: unknown, at: RetainNode, defs: Schema): Schema | boolean {
  if (--nodesLeft < 0) throw tooManyNodes;
  if (at.whole) return schema as Schema | boolean;
  if (schema === false) return false;
  const plain = resolved(schema, defs);
  const types = plain && followable(plain) ? typesOf(plain) : undefined;
  // Not followed (any value may be kept): a schema without a type, or one combining others.
  if (!plain || !types) return {};
  const object = types.has("object");
  const array = types.has("array");
  if (object && array) return {};
  if (!object && !array) return false; // a scalar: nothing under it is ever kept
  const described: Schema = {};
  if (typeof plain.description === "string") described.description = plain.description;
  return object
    ? { ...described, ...retainObject(plain, at, defs) }
    : { ...described, ...retainArray(plain, at, defs) };
}

function retainObject(plain: Schema, at: RetainNode, defs: Schema): Schema {
  const properties = isObject(plain.properties) ? plain.properties : {};
  const additional = plain.additionalProperties ?? {};
  const required = new Set(Array.isArray(plain.required) ? plain.required : []);
  const out: Record<string, unknown> = {};
  const kept: string[] = [];
  const add = (key: string, child: RetainNode) => {
    const declared = Object.hasOwn(properties, key) ? properties[key] : additional;
    if (declared === false) return; // never present
    setOwn(out, key, retainSchema(declared, child, defs));
    if (child.whole && required.has(key)) kept.push(key);
  };
  for (const key of at.children.keys()) add(key, childOf(at, key) as RetainNode);
  const derived: Schema = { type: "object", properties: out };
  if (at.any) {
    for (const key of Object.keys(properties)) if (!at.children.has(key)) add(key, at.any);
    derived.additionalProperties = additional === false ? false : retainSchema(additional, at.any, defs);
  } else {
    derived.additionalProperties = false;
  }
  if (kept.length > 0) derived.required = kept;
  return derived;
}

function retainArray(plain: Schema, at: RetainNode, defs: Schema): Schema {
  const items = plain.items ?? {};
  if (Array.isArray(items)) return { type: "array" }; // a draft-07 tuple: items not followed
  const nodes = [...(at.any ? [at.any] : []), ...[...at.children.keys()].map((key) => childOf(at, key) as RetainNode)];
  const variants = new Map<string, unknown>();
  for (const child of nodes) {
    const variant = retainSchema(items, child, defs);
    variants.set(JSON.stringify(variant), variant);
  }
  const distinct = [...variants.values()];
  return { type: "array", items: distinct.length === 1 ? distinct[0] : { anyOf: distinct } };
}

/** The schema of one literal value: objects member by member, anything else as a const. */
function schemaOfValue(value: unknown): Schema {
  if (!isObject(value)) return { const: value };
  const properties: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) setOwn(properties, key, schemaOfValue(member));
  return { type: "object", properties, required: Object.keys(value), additionalProperties: false };
}

type Parent = { schema: Schema; key: string };

/** The object schema holding the last token of `pointer`, made this location's own (refs inlined), or why not. */
function parentOf(root: Schema, pointer: string, defs: Schema): Parent | string {
  const tokens = pointerTokens(pointer);
  const key = tokens.pop();
  if (key === undefined) return "it patches the whole document";
  let at = root;
  const walked: string[] = [];
  for (const token of [...tokens, undefined]) {
    const types = typesOf(at);
    const isObjectSchema = types
      ? types.has("object") && [...types].every((t) => t === "object" || t === "null")
      : isObject(at.properties);
    if (!isObjectSchema || !followable(at) || at.$ref !== undefined)
      return `the output schema has no plain object shape at '${walked.map((t) => `/${t}`).join("")}'`;
    if (token === undefined) break;
    walked.push(token);
    const properties = isObject(at.properties) ? at.properties : undefined;
    const member = properties && Object.hasOwn(properties, token) ? properties[token] : undefined;
    const own = resolved(member, defs);
    if (!properties || !own) return `the output schema does not describe '/${walked.join("/")}'`;
    const copy = structuredClone(own);
    setOwn(properties, token, copy);
    at = copy;
  }
  return { schema: at, key };
}

function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

function setProperty(parent: Parent, schema: unknown, required: boolean): void {
  const properties = isObject(parent.schema.properties) ? parent.schema.properties : {};
  setOwn(properties, parent.key, schema);
  parent.schema.properties = properties;
  const names = requiredOf(parent.schema).filter((name) => name !== parent.key);
  if (required) names.push(parent.key);
  if (names.length > 0) parent.schema.required = names;
  else delete parent.schema.required;
}

function deleteProperty(parent: Parent): void {
  const properties = parent.schema.properties;
  if (isObject(properties)) delete properties[parent.key];
  const names = requiredOf(parent.schema).filter((name) => name !== parent.key);
  if (names.length > 0) parent.schema.required = names;
  else delete parent.schema.required;
}

function memberOf(parent: Parent): { schema: unknown; required: boolean } | undefined {
  const properties = isObject(parent.schema.properties) ? parent.schema.properties : {};
  const additional = parent.schema.additionalProperties;
  const declared = Object.hasOwn(properties, parent.key) ? properties[parent.key] : undefined;
  if (declared !== undefined) return { schema: declared, required: requiredOf(parent.schema).includes(parent.key) };
  if (additional === false) return undefined;
  return { schema: additional ?? {}, required: false };
}

const libraryIgnores = new Set(["__proto__", "constructor", "prototype"]);

function isPrefix(from: string, path: string): boolean {
  return path === from || path.startsWith(`${from}/`);
}

/** Applies one operation to the schema (in place), or says why it cannot be derived. */
function patchSchema(root: Schema, operation: PatchOperation, defs: Schema): string | undefined {
  const { op, path } = operation;
  if (op === "test") return undefined;
  // rfc6902 skips these tokens (and sets the prototype for a last __proto__): the schema would not follow.
  const skipped = [path, operation.from ?? ""].flatMap(pointerTokens).find((token) => libraryIgnores.has(token));
  if (skipped !== undefined) return `the patch library skips the token '${skipped}'`;
  const target = parentOf(root, path, defs);
  if (typeof target === "string") return target;
  if (op === "remove") {
    deleteProperty(target);
    return undefined;
  }
  if (op === "add" || op === "replace") {
    const before = memberOf(target);
    // add always lands when its parent is there; replace only where the member was (else it is skipped).
    setProperty(target, schemaOfValue(operation.value), op === "add" || before?.required === true);
    return undefined;
  }
  const from = operation.from ?? "";
  if (isPrefix(from, path)) return `it moves or copies '${from}' into itself`;
  const source = parentOf(root, from, defs);
  if (typeof source === "string") return source;
  const moved = memberOf(source);
  if (!moved) return undefined; // never present: the operation is always skipped
  const sameParent = pointerTokens(from).slice(0, -1).join("/") === pointerTokens(path).slice(0, -1).join("/");
  // Within one object, a required source always lands; otherwise the operation may be skipped
  // (source or target's parent absent) and the target keep its old value.
  const lands = sameParent && moved.required;
  const before = memberOf(parentOf(root, path, defs) as Parent);
  const schema = before && !lands ? { anyOf: [moved.schema, before.schema] } : moved.schema;
  setProperty(parentOf(root, path, defs) as Parent, schema, lands || before?.required === true);
  if (op === "move") {
    const sourceAgain = parentOf(root, from, defs);
    if (typeof sourceAgain === "string") return sourceAgain; // the target held the source (a move to its ancestor)
    // Within one object a move always lands when its source is there; elsewhere the source may stay.
    if (sameParent) deleteProperty(sourceAgain);
    else setProperty(sourceAgain, moved.schema, false);
  }
  return undefined;
}

/** A tool's outputSchema (an object schema, `$defs` at its root) through a filter's retain and patches. */
export function deriveOutputSchema(schema: Schema, steps: FilterSteps): Derived {
  const defs = isObject(schema.$defs) ? schema.$defs : {};
  const { $defs: _defs, ...body } = schema;
  let derived: Schema = body;
  if (steps.retain) {
    nodesLeft = MAX_DERIVED_NODES;
    let retained: Schema | boolean;
    try {
      retained = retainSchema(body, compileRetain(steps.retain), defs);
    } catch (error) {
      if (error !== tooManyNodes) throw error;
      return { problem: `retain: its pointers make more than ${MAX_DERIVED_NODES} schema nodes, so no outputSchema` };
    }
    derived = isObject(retained) && retained.type === "object" ? retained : { type: "object" };
  }
  const patches = steps.patches ?? [];
  if (patches.length > 0) {
    const before = derived;
    const after = structuredClone(derived);
    for (const [index, operation] of patches.entries()) {
      const problem = patchSchema(after, operation, defs);
      if (problem)
        return { problem: `patches[${index}] (${operation.op} ${operation.path}): ${problem}, so no outputSchema` };
    }
    // A failed test keeps the document as it was before the patches.
    derived = patches.some((operation) => operation.op === "test") ? { type: "object", anyOf: [after, before] } : after;
  }
  return { schema: Object.keys(defs).length > 0 ? { ...derived, $defs: defs } : derived };
}
