/**
 * A GraphQL schema from the submitted text: SDL, or an introspection result in JSON (the query's
 * whole answer `{data: {__schema}}`, its `data`, or `__schema` alone). graphql-js parses and
 * validates; every error keeps its line and column.
 *
 * SDL that defines a type or argument twice, or a field twice differently, is refused
 * (graphql-js's SDL rules), as graphql-js's own servers refuse it: which of the two definitions the
 * backend answers with cannot be known, so no tool is built on a guess. A field defined twice
 * identically is kept once, with a warning (duplicate-fields.ts). SDL or introspection JSON nested
 * past the import's depth limit is refused before graphql-js reads it, located where it goes too deep.
 */
import type { ImportWarning } from "@atrium/contract/rest";
import {
  buildASTSchema,
  buildClientSchema,
  GraphQLError,
  type GraphQLSchema,
  type IntrospectionQuery,
  Lexer,
  parse,
  Source,
  TokenKind,
  validateSchema,
} from "graphql";
import { validateSDL } from "graphql/validation/validate.js";
import { OpenApiImportError } from "../openapi/errors.ts";
import { checkDepth, maxDocumentDepth } from "../openapi/limits.ts";
import { textLocator } from "../openapi/locate.ts";
import { isPlainObject } from "../openapi/plain-json.ts";
import { dropIdenticalDuplicateFields } from "./duplicate-fields.ts";
import {
  graphqlSyntax,
  graphqlTooDeep,
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

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Refuses SDL nested deeper than the import's depth limit (list types, default values, directive
 * arguments), read token by token before graphql-js's recursive parser: nested deep enough it
 * would exhaust the stack, and a type of thousands of list levels costs seconds per level. A
 * syntax error stops the count; the parser then reports it.
 */
function checkSdlDepth(text: string): void {
  const lexer = new Lexer(new Source(text));
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (CLOSING.has(token.kind)) depth--;
      else if (OPENING.has(token.kind) && ++depth > maxDocumentDepth)
        throw graphqlTooDeep(maxDocumentDepth, { line: token.line, column: token.column });
    }
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
  }
}

function fromSdl(text: string): ParsedSchema {
  if (!text.trim()) throw notAGraphqlSchema("empty");
  checkSdlDepth(text);
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
  try {
    // graphql-js builds types recursively: a type of thousands of LIST levels exhausts the stack, or takes minutes.
    checkDepth(value, maxDocumentDepth, textLocator(text, undefined), () => new Error("JSON has no cycles"));
  } catch (error) {
    if (error instanceof OpenApiImportError) throw graphqlTooDeep(maxDocumentDepth, error.location);
    throw error;
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
