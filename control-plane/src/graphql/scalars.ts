/** The JSON Schema type of GraphQL's built-in scalars; undefined for a custom scalar (or an enum). */
import { type GraphQLNamedType, isSpecifiedScalarType } from "graphql";

const jsonTypes: Record<string, string> = {
  Int: "integer",
  Float: "number",
  Boolean: "boolean",
  String: "string",
  ID: "string",
};

export function builtInScalarType(type: GraphQLNamedType): string | undefined {
  return isSpecifiedScalarType(type) ? jsonTypes[type.name] : undefined;
}
