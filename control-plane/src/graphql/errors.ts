/**
 * Coded errors of the GraphQL import, every message built here. They are import errors like the
 * OpenAPI importer's (same class, same 422 problem), with GRAPHQL_ codes; `location` gives the
 * line and column in the submitted SDL when graphql-js knows them.
 */
import type { SourceLocation } from "@atrium/contract/rest";
import type { GraphQLError } from "graphql";
import { describeLocation, OpenApiImportError } from "../openapi/errors.ts";

function locationOf(error: GraphQLError): SourceLocation | undefined {
  const [first] = error.locations ?? [];
  return first ? { line: first.line, column: first.column } : undefined;
}

/** Each error with its line and column; the problem's location is the first one's. */
function described(errors: readonly GraphQLError[]): { text: string; location: SourceLocation | undefined } {
  const shown = errors.slice(0, 10).map((error) => `${error.message}${describeLocation(locationOf(error))}`);
  const more = errors.length > shown.length ? ` (and ${errors.length - shown.length} more)` : "";
  return { text: `${shown.join("; ")}${more}`, location: errors[0] ? locationOf(errors[0]) : undefined };
}

export function graphqlTooDeep(maxDepth: number, location: SourceLocation | undefined): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The GraphQL schema is nested more than ${maxDepth} levels deep${describeLocation(location)}: no type needs that many list levels, nor a value that many nested objects or lists; flatten it`,
    location,
  );
}

export function graphqlSyntax(error: GraphQLError): OpenApiImportError {
  const location = locationOf(error);
  return new OpenApiImportError(
    "GRAPHQL_SYNTAX",
    `The GraphQL schema is not valid SDL${describeLocation(location)}: ${error.message.replace(/^Syntax Error: /, "")}`,
    location,
  );
}

export function invalidSchema(errors: readonly GraphQLError[]): OpenApiImportError {
  const { text, location } = described(errors);
  return new OpenApiImportError(
    "GRAPHQL_INVALID",
    `The GraphQL schema is invalid: ${text}. Correct it and import it again`,
    location,
  );
}

export function invalidIntrospection(reason: string): OpenApiImportError {
  return new OpenApiImportError(
    "GRAPHQL_INVALID",
    `The JSON is not a usable GraphQL introspection result: ${reason}. Send the 'data' of a full introspection query (with '__schema'), or the schema's SDL`,
  );
}

/** Never shown as written: the import of a downloaded answer gives its code's reason only (withoutContent). */
export function introspectionRefused(): OpenApiImportError {
  return new OpenApiImportError(
    "GRAPHQL_INTROSPECTION_REFUSED",
    "The GraphQL endpoint answered the introspection query with errors and no schema: enable introspection for the import, or import the schema's SDL",
  );
}

export function notAnEndpoint(): OpenApiImportError {
  return new OpenApiImportError(
    "GRAPHQL_NOT_AN_ENDPOINT",
    "The answer to the introspection query is not a GraphQL result: give the GraphQL endpoint's URL",
  );
}

export function notAGraphqlSchema(found: string): OpenApiImportError {
  return new OpenApiImportError(
    "GRAPHQL_SYNTAX",
    `The text is ${found}, not a GraphQL schema: send SDL text or an introspection result in JSON (an object with '__schema')`,
  );
}

export function noRootFields(): OpenApiImportError {
  return new OpenApiImportError(
    "GRAPHQL_NO_OPERATIONS",
    "The GraphQL schema has no Query or Mutation field to publish as a tool: add at least one field to its query or mutation type",
  );
}

export function toolsTooLarge(maxNodes: number): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The GraphQL schema's tools come to more than ${maxNodes} JSON nodes, each tool carrying the input objects its arguments use: split the schema into several services`,
  );
}

/** A generated document graphql-js refuses: a schema graphql-js accepted but cannot be queried as written. */
export function unqueryableField(coordinate: string, errors: readonly GraphQLError[]): OpenApiImportError {
  return new OpenApiImportError(
    "GRAPHQL_INVALID",
    `The GraphQL schema cannot be published: the operation generated for ${coordinate} does not validate against it: ${described(errors).text}`,
  );
}
