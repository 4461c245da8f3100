/**
 * GraphQL input types as JSON Schema 2020-12: the tool's arguments. Non-null without a default is
 * `required`; nullable means "may be left out". Every input object becomes one `$defs` entry
 * referred to by a local `$ref`, so a recursive filter stays finite. Custom scalars become strings
 * with a note: their wire format is the server's business.
 */
import {
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLInputType,
  type GraphQLNamedInputType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from "graphql";
import type { JsonObject } from "../openapi/plain-json.ts";
import { builtInScalarType } from "./scalars.ts";

/** The `$defs` shared by every tool of one schema: one entry per input object, built once. */
export type InputDefs = Map<string, JsonObject>;

const INT_RANGE = { minimum: -2147483648, maximum: 2147483647 };

function namedSchema(type: GraphQLNamedInputType, defs: InputDefs): JsonObject {
  if (isEnumType(type)) {
    return withDescription({ type: "string", enum: type.getValues().map((value) => value.name) }, type.description);
  }
  if (isInputObjectType(type)) {
    if (!defs.has(type.name)) {
      defs.set(type.name, {}); // placed first: a field referring back to it finds it
      defs.set(type.name, objectSchema(Object.values(type.getFields()), defs, type.description, type.isOneOf));
    }
    return { $ref: `#/$defs/${type.name}` };
  }
  const builtIn = builtInScalarType(type);
  if (builtIn === "integer") return { type: builtIn, ...INT_RANGE };
  if (builtIn) return type.name === "ID" ? { type: builtIn, description: "A GraphQL ID." } : { type: builtIn };
  return {
    type: "string",
    description: `${type.name}: a custom GraphQL scalar, sent as a string${type.description ? `. ${type.description}` : ""}`,
  };
}

export function inputTypeSchema(type: GraphQLInputType, defs: InputDefs): JsonObject {
  if (isNonNullType(type)) return inputTypeSchema(type.ofType, defs);
  if (isListType(type)) return { type: "array", items: inputTypeSchema(type.ofType, defs) };
  return namedSchema(type, defs);
}

/** An argument or input field is required when it is non-null and has no default. */
export function isRequired(input: GraphQLArgument | GraphQLInputField): boolean {
  return isNonNullType(input.type) && input.defaultValue === undefined;
}

/** The object of some arguments or input fields, each with its description, default and deprecation. */
export function objectSchema(
  inputs: readonly (GraphQLArgument | GraphQLInputField)[],
  defs: InputDefs,
  description?: string | null,
  oneOf = false,
): JsonObject {
  const properties: JsonObject = {};
  for (const input of inputs) {
    const schema: JsonObject = { ...inputTypeSchema(input.type, defs) };
    const notes = [input.description, input.deprecationReason ? `Deprecated: ${input.deprecationReason}` : undefined];
    const text = [schema.description, ...notes].filter(Boolean).join(" ");
    if (text) schema.description = text;
    if (input.deprecationReason != null) schema.deprecated = true;
    const fallback = jsonDefault(input.defaultValue);
    if (fallback !== undefined) schema.default = fallback;
    properties[input.name] = schema;
  }
  const required = inputs.filter(isRequired).map((input) => input.name);
  return withDescription(
    {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
      // @oneOf: exactly one field, not null.
      ...(oneOf ? { minProperties: 1, maxProperties: 1 } : {}),
    },
    description,
  );
}

function withDescription(schema: JsonObject, description: string | null | undefined): JsonObject {
  return description ? { ...schema, description } : schema;
}

/** A default as JSON (graphql-js keeps enum defaults as their names); one JSON cannot carry is left out. */
function jsonDefault(value: unknown): JsonObject[string] | undefined {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return undefined;
  }
}
