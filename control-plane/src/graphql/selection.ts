/**
 * The generated selection set of a root field and the output schema derived from it, one walk
 * for both so that what is listed is what the query asks for. Scalar and enum fields are selected
 * down to `maxDepth` object levels; an object type already on the path is not entered again
 * (cycles cut); fields with required arguments are left out (no value to give them). An object
 * with nothing selectable asks for `__typename`, as does a union.
 */
import {
  type GraphQLField,
  type GraphQLNamedOutputType,
  type GraphQLOutputType,
  isEnumType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from "graphql";
import type { JsonObject } from "../openapi/plain-json.ts";
import { isRequired } from "./input-schema.ts";
import { builtInScalarType } from "./scalars.ts";

/** Object levels whose scalar fields are selected: the root field's type, and the objects in it. */
export const defaultSelectionDepth = 2;

export type Selected = { selection: string; schema: JsonObject };

/** The root field's selection (empty for a leaf) and its value's schema; undefined when nothing can be selected. */
export function selectField(type: GraphQLOutputType, maxDepth = defaultSelectionDepth): Selected | undefined {
  return selectType(type, { depth: 1, maxDepth, path: new Set() });
}

type Walk = { depth: number; maxDepth: number; path: Set<string> };

/** `nullableValue`: false under a non-null wrapper, whose value is never null. */
function selectType(type: GraphQLOutputType, walk: Walk, nullableValue = true): Selected | undefined {
  if (isNonNullType(type)) return selectType(type.ofType, walk, false);
  const inner = isListType(type) ? selectType(type.ofType, walk) : selectNamed(type, walk);
  if (!inner) return undefined;
  const schema = isListType(type) ? { type: "array", items: inner.schema } : inner.schema;
  return { selection: inner.selection, schema: nullableValue ? nullable(schema) : schema };
}

function selectNamed(type: GraphQLNamedOutputType, walk: Walk): Selected | undefined {
  if (isLeafType(type)) return { selection: "", schema: leafSchema(type) };
  if (!isObjectType(type) && !isInterfaceType(type)) return typenameOnly(type.description);
  if (walk.depth > walk.maxDepth || walk.path.has(type.name)) return undefined;
  const path = new Set(walk.path).add(type.name);
  const parts: string[] = [];
  const properties: JsonObject = {};
  for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
    if (field.args.some(isRequired)) continue;
    const chosen = selectType(field.type, { ...walk, depth: walk.depth + 1, path });
    if (!chosen) continue;
    parts.push(chosen.selection ? `${field.name} ${chosen.selection}` : field.name);
    properties[field.name] = describe(chosen.schema, field.description, field.deprecationReason);
  }
  if (parts.length === 0) return typenameOnly(type.description);
  const schema: JsonObject = { type: "object", properties };
  if (type.description) schema.description = type.description;
  return { selection: `{ ${parts.join(" ")} }`, schema };
}

function typenameOnly(description: string | null | undefined): Selected {
  const schema: JsonObject = { type: "object", properties: { __typename: { type: "string" } } };
  if (description) schema.description = description;
  return { selection: "{ __typename }", schema };
}

function leafSchema(type: GraphQLNamedOutputType): JsonObject {
  if (isEnumType(type)) return { enum: type.getValues().map((value) => value.name) };
  const builtIn = builtInScalarType(type);
  // A custom scalar's value may be any JSON: its shape is the server's.
  return builtIn ? { type: builtIn } : { description: `${type.name}: a custom GraphQL scalar` };
}

/** A nullable GraphQL value: `null` added to its type or enum (a custom scalar already allows it). */
function nullable(schema: JsonObject): JsonObject {
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
  return schema;
}

function describe(
  schema: JsonObject,
  description: string | null | undefined,
  deprecation: string | null | undefined,
): JsonObject {
  const text = [schema.description, description, deprecation ? `Deprecated: ${deprecation}` : undefined]
    .filter(Boolean)
    .join(" ");
  const described: JsonObject = text ? { ...schema, description: text } : { ...schema };
  if (deprecation != null) described.deprecated = true;
  return described;
}
