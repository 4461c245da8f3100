/**
 * The output side of a GraphQL schema as plain JSON, stored with the Service (its `document`):
 * every type a generated selection can reach, each object's selectable fields (those without a
 * required argument) with their GraphQL type as written (`[Review!]!`). selection.ts walks it,
 * at import (the stored operations, depth 2) and again when a plan asks for another
 * `graphql.selectionDepth` (plan-depth.ts): one walk, so both agree, and no GraphQL schema needs
 * to be parsed again outside the import worker.
 */
import {
  type GraphQLField,
  type GraphQLNamedType,
  getNamedType,
  isEnumType,
  isInterfaceType,
  isLeafType,
  isObjectType,
} from "graphql";
import { z } from "zod";
import { isRequired } from "./input-schema.ts";
import { builtInScalarType } from "./scalars.ts";

const description = z.string().optional();

const outputField = z.object({
  name: z.string(),
  /** The field's GraphQL type as written: `Product`, `[Review!]!`. */
  type: z.string(),
  description,
  deprecationReason: z.string().optional(),
});

export const graphqlOutputType = z.discriminatedUnion("kind", [
  /** An object or interface type: its fields without a required argument (no value to give those). */
  z.object({ kind: z.literal("object"), description, fields: z.array(outputField) }),
  /** A union: only `__typename` is selected (no fragments are generated). */
  z.object({ kind: z.literal("union"), description }),
  z.object({ kind: z.literal("enum"), values: z.array(z.string()) }),
  /** `json`: the JSON type of a built-in scalar; absent for a custom scalar, whose shape is the server's. */
  z.object({ kind: z.literal("scalar"), json: z.enum(["integer", "number", "string", "boolean"]).optional() }),
]);
export type GraphqlOutputType = z.infer<typeof graphqlOutputType>;

/** What a plan's selection depth is rebuilt from: the output types, and each operation's root field. */
export const graphqlSelectionSource = z.object({
  types: z.record(z.string(), graphqlOutputType),
  /**
   * Per operationId: the root field's type, and the operation's document up to its selection
   * (`query products($first: Int) { products(first: $first)`), which the selection and ` }` end.
   */
  roots: z.record(z.string(), z.object({ type: z.string(), head: z.string() })),
});
export type GraphqlSelectionSource = z.infer<typeof graphqlSelectionSource>;

/** The output types reachable from the given root fields through selectable fields. */
export function outputTypes(roots: readonly GraphQLField<unknown, unknown>[]): GraphqlSelectionSource["types"] {
  const types: GraphqlSelectionSource["types"] = {};
  const pending: GraphQLNamedType[] = roots.map((field) => getNamedType(field.type));
  for (let type = pending.pop(); type; type = pending.pop()) {
    if (Object.hasOwn(types, type.name)) continue; // own keys only: a type may be named `constructor`
    if (isLeafType(type)) {
      const json = builtInScalarType(type) as "integer" | "number" | "string" | "boolean" | undefined;
      types[type.name] = isEnumType(type)
        ? { kind: "enum", values: type.getValues().map((value) => value.name) }
        : { kind: "scalar", ...(json ? { json } : {}) };
      continue;
    }
    const typeDescription = type.description ? { description: type.description } : {};
    if (!isObjectType(type) && !isInterfaceType(type)) {
      types[type.name] = { kind: "union", ...typeDescription };
      continue;
    }
    const fields = Object.values(type.getFields()).filter((field) => !field.args.some(isRequired));
    types[type.name] = {
      kind: "object",
      ...typeDescription,
      fields: fields.map((field) => ({
        name: field.name,
        type: String(field.type),
        ...(field.description ? { description: field.description } : {}),
        ...(field.deprecationReason != null ? { deprecationReason: field.deprecationReason } : {}),
      })),
    };
    for (const field of fields) pending.push(getNamedType(field.type));
  }
  return types;
}
