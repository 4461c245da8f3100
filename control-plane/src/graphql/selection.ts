/**
 * The generated selection set of a root field and the output schema derived from it, one walk
 * for both so that what is listed is what the query asks for. It walks the stored output types
 * (output-types.ts), so the import and a plan's own selection depth (plan-depth.ts) build the
 * same thing. Scalar and enum fields are selected down to `maxDepth` object levels; an object
 * type already on the path is not entered again (cycles cut); fields with required arguments are
 * not in the types (no value to give them). An object with nothing selectable asks for
 * `__typename`, as does a union. The fields selected are counted against a budget shared by
 * every operation of one Service, so no depth builds documents without bound.
 */
import type { JsonObject } from "../openapi/plain-json.ts";
import type { GraphqlSelectionSource } from "./output-types.ts";

/** Object levels whose scalar fields are selected: the root field's type, and the objects in it. */
export const defaultSelectionDepth = 2;
/** The most fields the import's selections of one Service's operations may hold together (a plan's: plan-depth.ts). */
export const maxSelectedFields = 250_000;

export type Selected = { selection: string; schema: JsonObject };

/** What is left of the fields budget; selections past it throw `SelectionTooLarge`. */
export type FieldBudget = { left: number };

export class SelectionTooLarge extends Error {}

/** The root field's selection (empty for a leaf) and its value's schema; undefined when nothing can be selected. */
export function selectField(
  types: GraphqlSelectionSource["types"],
  type: string,
  maxDepth: number,
  budget: FieldBudget,
): Selected | undefined {
  return selectType(type, { types, depth: 1, maxDepth, path: new Set(), budget });
}

type Walk = {
  types: GraphqlSelectionSource["types"];
  depth: number;
  maxDepth: number;
  path: Set<string>;
  budget: FieldBudget;
};

/** `type` as written (`[Review!]!`); `nullableValue`: false under a non-null wrapper, whose value is never null. */
function selectType(type: string, walk: Walk, nullableValue = true): Selected | undefined {
  if (type.endsWith("!")) return selectType(type.slice(0, -1), walk, false);
  const list = type.startsWith("[");
  const inner = list ? selectType(type.slice(1, -1), walk) : selectNamed(type, walk);
  if (!inner) return undefined;
  const schema = list ? { type: "array", items: inner.schema } : inner.schema;
  return { selection: inner.selection, schema: nullableValue ? nullable(schema) : schema };
}

function selectNamed(name: string, walk: Walk): Selected | undefined {
  // Own keys only: a type may be named `constructor`. Every type the import reached is stored.
  const type = Object.hasOwn(walk.types, name) ? walk.types[name] : undefined;
  if (!type) return undefined;
  if (type.kind === "enum") return { selection: "", schema: { enum: type.values } };
  // A custom scalar's value may be any JSON: its shape is the server's.
  if (type.kind === "scalar")
    return {
      selection: "",
      schema: type.json ? { type: type.json } : { description: `${name}: a custom GraphQL scalar` },
    };
  if (type.kind === "union") return typenameOnly(type.description);
  if (walk.depth > walk.maxDepth || walk.path.has(name)) return undefined;
  const path = new Set(walk.path).add(name);
  const parts: string[] = [];
  const properties: JsonObject = {};
  for (const field of type.fields) {
    const chosen = selectType(field.type, { ...walk, depth: walk.depth + 1, path });
    if (!chosen) continue;
    if (--walk.budget.left < 0) throw new SelectionTooLarge();
    parts.push(chosen.selection ? `${field.name} ${chosen.selection}` : field.name);
    properties[field.name] = describe(chosen.schema, field.description, field.deprecationReason);
  }
  if (parts.length === 0) return typenameOnly(type.description);
  const schema: JsonObject = { type: "object", properties };
  if (type.description) schema.description = type.description;
  return { selection: `{ ${parts.join(" ")} }`, schema };
}

function typenameOnly(description: string | undefined): Selected {
  const schema: JsonObject = { type: "object", properties: { __typename: { type: "string" } } };
  if (description) schema.description = description;
  return { selection: "{ __typename }", schema };
}

/** A nullable GraphQL value: `null` added to its type or enum (a custom scalar already allows it). */
export function nullable(schema: JsonObject): JsonObject {
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  return schema;
}

/** A field's schema with its description and deprecation added. */
export function describe(
  schema: JsonObject,
  description: string | undefined,
  deprecation: string | undefined,
): JsonObject {
  const text = [schema.description, description, deprecation ? `Deprecated: ${deprecation}` : undefined]
    .filter(Boolean)
    .join(" ");
  const described: JsonObject = text ? { ...schema, description: text } : { ...schema };
  if (deprecation !== undefined) described.deprecated = true;
  return described;
}

/** The operation's document: its head (up to the root field's arguments), the selection, and the closing brace. */
export function documentOf(head: string, selection: string): string {
  return `${head}${selection ? ` ${selection}` : ""} }`;
}
