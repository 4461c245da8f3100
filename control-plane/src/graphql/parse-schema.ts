/**
 * A GraphQL schema from the submitted text: SDL, or an introspection result in JSON (the query's
 * whole answer `{data: {__schema}}`, its `data`, or `__schema` alone). graphql-js parses and
 * validates; every error keeps its line and column.
 *
 * SDL that defines a type or argument twice, or a field twice differently, is refused
 * (graphql-js's SDL rules), as graphql-js's own servers refuse it: which of the two definitions the
 * backend answers with cannot be known, so no tool is built on a guess. A field defined twice
 * identically is kept once, with a warning (duplicate-fields.ts).
 */
import type { ImportWarning } from "@atrium/contract/rest";
import {
  buildASTSchema,
  buildClientSchema,
  GraphQLError,
  type GraphQLSchema,
  type IntrospectionQuery,
  parse,
  validateSchema,
} from "graphql";
import { validateSDL } from "graphql/validation/validate.js";
import { isPlainObject } from "../openapi/plain-json.ts";
import { dropIdenticalDuplicateFields } from "./duplicate-fields.ts";
import {
  graphqlSyntax,
  introspectionRefused,
  invalidIntrospection,
  invalidSchema,
  notAGraphqlSchema,
  notAnEndpoint,
} from "./errors.ts";

export type ParsedSchema = { schema: GraphQLSchema; warnings: ImportWarning[] };

/** `introspected`: the text is an endpoint's answer to the introspection query (endpoint.ts). */
export function parseGraphqlSchema(text: string, introspected = false): ParsedSchema {
  const parsed =
    introspected || text.trimStart().startsWith("{")
      ? { schema: fromIntrospection(text, introspected), warnings: [] }
      : fromSdl(text);
  const problems = validateSchema(parsed.schema);
  if (problems.length > 0) throw invalidSchema(problems);
  return parsed;
}

function fromSdl(text: string): ParsedSchema {
  if (!text.trim()) throw notAGraphqlSchema("empty");
  let document: ReturnType<typeof parse>;
  try {
    document = parse(text, { noLocation: false });
  } catch (error) {
    if (error instanceof GraphQLError) throw graphqlSyntax(error);
    throw error;
  }
  const deduplicated = dropIdenticalDuplicateFields(document);
  const problems = validateSDL(deduplicated.document);
  if (problems.length > 0) throw invalidSchema(problems);
  return { schema: buildASTSchema(deduplicated.document, { assumeValidSDL: true }), warnings: deduplicated.warnings };
}

function fromIntrospection(text: string, introspected: boolean): GraphQLSchema {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (introspected) throw notAnEndpoint();
    throw invalidIntrospection(`it is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const introspection = introspectionIn(value);
  // A GraphQL result without the schema, with errors, is the endpoint refusing the query.
  if (!introspection && introspected)
    throw isPlainObject(value) && Array.isArray(value.errors) ? introspectionRefused() : notAnEndpoint();
  if (!introspection) throw invalidIntrospection("it has no '__schema' object (nor 'data.__schema')");
  try {
    return buildClientSchema(introspection);
  } catch (error) {
    throw invalidIntrospection(error instanceof Error ? error.message : String(error));
  }
}

function introspectionIn(value: unknown): IntrospectionQuery | undefined {
  if (!isPlainObject(value)) return undefined;
  if (isPlainObject(value.__schema)) return value as unknown as IntrospectionQuery;
  return isPlainObject(value.data) ? introspectionIn(value.data) : undefined;
}
