/**
 * Coded errors of the OpenAPI import, every message built here. Each message says what is wrong
 * and what to change; `location` says where, in the text that was submitted or downloaded.
 */

import type { SourceLocation } from "@atrium/contract/rest";

export type OpenApiImportErrorCode =
  /** The URL is not an absolute http(s) URL. */
  | "OPENAPI_URL_INVALID"
  /** The download failed: network error, timeout, too many redirects or a non-2xx answer. */
  | "OPENAPI_FETCH"
  /** The URL (or a redirect) leads to an address the SSRF policy refuses; see ATRIUM_IMPORT_ALLOW_HOSTS. */
  | "OPENAPI_URL_FORBIDDEN"
  /**
   * The text is larger than the limit, nested deeper than the limit, expands past the node limit
   * once its $refs are followed, or takes longer than the import's time budget.
   */
  | "OPENAPI_TOO_LARGE"
  /** The text is neither JSON nor YAML (or is not UTF-8). */
  | "OPENAPI_SYNTAX"
  /** The text parses but is not a Swagger 2.0 / OpenAPI 3.0 / 3.1 document. */
  | "OPENAPI_UNSUPPORTED_VERSION"
  /** A `$ref`, `$dynamicRef` or `$recursiveRef` points outside the document (a file or a URL). */
  | "OPENAPI_EXTERNAL_REF"
  /** The parser rejected the document (its message is kept), or what it describes breaks the gateways' contract. */
  | "OPENAPI_INVALID"
  /** Two operations share one operationId. */
  | "OPENAPI_DUPLICATE_OPERATION_ID"
  /** The document is valid but has no operation to publish as a tool. */
  | "OPENAPI_NO_OPERATIONS"
  /** The GraphQL schema is neither SDL nor JSON, or its SDL does not parse (line, column). */
  | "GRAPHQL_SYNTAX"
  /** The GraphQL schema, or its introspection result, breaks the GraphQL specification's rules. */
  | "GRAPHQL_INVALID"
  /** The GraphQL schema has no Query or Mutation field. */
  | "GRAPHQL_NO_OPERATIONS"
  /** The GraphQL endpoint answered the introspection query with errors and no schema (introspection disabled). */
  | "GRAPHQL_INTROSPECTION_REFUSED"
  /** The URL's answer to the introspection query is not a GraphQL result: not a GraphQL endpoint. */
  | "GRAPHQL_NOT_AN_ENDPOINT"
  /** A .proto file does not parse (file, line, column). */
  | "GRPC_SYNTAX"
  /** The .proto files do not make a whole: a missing import, a duplicate symbol, an unknown type. */
  | "GRPC_INVALID"
  /** The .proto files (or the reflection server) have no unary or server-streaming method to publish. */
  | "GRPC_NO_OPERATIONS"
  /** The reflection server could not be reached, or did not answer as one. */
  | "GRPC_REFLECTION";

/** Where, in the text that was submitted or downloaded: the problem document's `location`. */
export type { SourceLocation };

export class OpenApiImportError extends Error {
  override readonly name = "OpenApiImportError";
  readonly code: OpenApiImportErrorCode;
  readonly location: SourceLocation | undefined;

  constructor(code: OpenApiImportErrorCode, message: string, location?: SourceLocation, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.location = location;
  }
}

/** ` at /paths/~1pets/get (line 9, column 7)` (` in a.proto (line 3)` for one of several files), or as much of it as is known. */
export function describeLocation(location: SourceLocation | undefined): string {
  if (!location) return "";
  const where =
    location.pointer === undefined ? "" : ` at ${location.pointer === "" ? "the document root" : location.pointer}`;
  const lineColumn =
    location.line === undefined
      ? ""
      : location.column === undefined
        ? ` (line ${location.line})`
        : ` (line ${location.line}, column ${location.column})`;
  const file = location.file === undefined ? "" : ` in ${location.file}`;
  return `${file}${where}${lineColumn}`;
}

export function urlInvalid(url: string): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_URL_INVALID",
    `'${url}' cannot be imported: give an absolute http:// or https:// URL of the OpenAPI document`,
  );
}

export function fetchFailed(url: string, reason: string, cause?: unknown): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_FETCH",
    `Could not fetch ${url}: ${reason}. Check the URL and that the control plane can reach it, or send the document inline`,
    undefined,
    cause,
  );
}

export function tooLarge(what: string, maxBytes: number): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `${what} is larger than the limit of ${maxBytes} bytes: split the API into several services or raise the limit`,
  );
}

export function schemasTooLarge(maxNodes: number): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The document's schemas expand to more than ${maxNodes} JSON nodes once their $refs are inlined into each operation: reduce the nesting of shared schemas or split the API into several services`,
  );
}

export function notUtf8(): OpenApiImportError {
  return new OpenApiImportError("OPENAPI_SYNTAX", "The OpenAPI document is not UTF-8 text: save it as UTF-8");
}

export function syntaxError(reason: string, location: SourceLocation | undefined): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_SYNTAX",
    `The OpenAPI document is neither valid JSON nor valid YAML${describeLocation(location)}: ${reason}`,
    location,
  );
}

export function notADocument(found: string): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_UNSUPPORTED_VERSION",
    `The text is ${found}, not an OpenAPI document: it needs a top-level 'openapi: 3.0.x' / 'openapi: 3.1.x' or 'swagger: "2.0"' field`,
    { pointer: "" },
  );
}

export function unsupportedVersion(
  field: "openapi" | "swagger",
  value: unknown,
  location: SourceLocation,
): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_UNSUPPORTED_VERSION",
    `${field}: ${JSON.stringify(value)} is not supported${describeLocation(location)}: import an OpenAPI 3.1.x, 3.0.x or Swagger 2.0 document`,
    location,
  );
}

export function externalRef(ref: string, location: SourceLocation, others: number): OpenApiImportError {
  const more = others > 0 ? ` (and ${others} more external $ref${others > 1 ? "s" : ""})` : "";
  return new OpenApiImportError(
    "OPENAPI_EXTERNAL_REF",
    `$ref ${JSON.stringify(ref)}${describeLocation(location)} points outside the document${more}: only internal references ("#/...") are resolved, the import never reads files or fetches URLs named by a $ref. Bundle the document into a single file first (e.g. 'redocly bundle' or 'swagger-cli bundle')`,
    location,
  );
}

export function cyclicYaml(location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_SYNTAX",
    `A YAML alias${describeLocation(location)} refers to one of its own ancestors, which makes the document infinite: use a $ref instead`,
    location,
  );
}

/** `details` are the parser's messages, each already carrying its own location. */
export function invalidDocument(
  details: string[],
  location: SourceLocation | undefined,
  cause?: unknown,
): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: ${details.join("; ")}`,
    location,
    cause,
  );
}

export function duplicateOperationId(
  operationId: string,
  first: string,
  second: string,
  location: SourceLocation,
): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_DUPLICATE_OPERATION_ID",
    `operationId '${operationId}' is used by both ${first} and ${second}${describeLocation(location)}: operationIds name the MCP tools and must be unique, rename one of them`,
    location,
  );
}

export function noOperations(): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_NO_OPERATIONS",
    "The OpenAPI document defines no operation under 'paths', so there is nothing to publish as a tool: add at least one path with an operation (get, post, ...)",
    { pointer: "/paths" },
  );
}

export function urlForbidden(url: string, reason: string): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_URL_FORBIDDEN",
    `The control plane does not download from ${url}: ${reason}. Publish the document on a public address, send it inline, or have an operator allow that host in ATRIUM_IMPORT_ALLOW_HOSTS`,
  );
}

export function tooDeep(maxDepth: number, location: SourceLocation | undefined): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The OpenAPI document is nested more than ${maxDepth} levels deep${describeLocation(location)}: flatten it, e.g. by moving nested schemas to components and referring to them with $ref`,
    location,
  );
}

export function expandsTooMuch(maxNodes: number): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The OpenAPI document grows past ${maxNodes} JSON nodes once its non-schema $refs (parameters, responses, examples, extensions, ...) are followed: refer to shared values less often, or split the API into several services`,
  );
}

export function importTimedOut(budgetMs: number): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `Importing the OpenAPI document took longer than its budget of ${budgetMs} ms and was stopped: reduce the size or the nesting of its schemas, or split the API into several services`,
  );
}

export function importOutOfMemory(): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    "Importing the OpenAPI document needed more memory than an import may use and was stopped: reduce the size of its schemas, or split the API into several services",
  );
}

export function missingRef(ref: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: Missing $ref pointer ${JSON.stringify(ref)}${describeLocation(location)}: nothing in the document is at that pointer, correct the $ref or add the missing component`,
    location,
  );
}

export function cyclicRef(ref: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: $ref ${JSON.stringify(ref)}${describeLocation(location)} leads, from $ref to $ref, back to itself and never to a value: make one of the references in that chain a real definition`,
    location,
  );
}

export function dynamicRef(keyword: string, value: unknown, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_EXTERNAL_REF",
    `${keyword} ${JSON.stringify(value)}${describeLocation(location)} points outside the document: only internal references ("#...") are allowed, the import and the gateways never fetch schemas. Bundle the document into a single file first`,
    location,
  );
}

/** What the gateways would refuse: `field` says what is wrong in words, the location where. */
export function contractViolation(field: string, problem: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document cannot be published: ${field} ${problem}${describeLocation(location)}. Correct it in the document and import it again`,
    location,
  );
}

/** The short reason of each code, for errors about downloaded text, which must not be echoed. */
const reasonWithoutContent: Record<OpenApiImportErrorCode, string> = {
  OPENAPI_URL_INVALID: "the URL is invalid",
  OPENAPI_FETCH: "the download failed",
  OPENAPI_URL_FORBIDDEN: "the address is not allowed",
  OPENAPI_TOO_LARGE: "it is too large or too complex to import",
  OPENAPI_SYNTAX: "it is neither valid JSON nor valid YAML",
  OPENAPI_UNSUPPORTED_VERSION: "it is not an OpenAPI 3.1.x, 3.0.x or Swagger 2.0 document",
  OPENAPI_EXTERNAL_REF: "it refers to other documents with $ref, which are never fetched",
  OPENAPI_INVALID: "it does not follow the OpenAPI specification, or describes something the gateways cannot publish",
  OPENAPI_DUPLICATE_OPERATION_ID: "two of its operations share one operationId",
  OPENAPI_NO_OPERATIONS: "it defines no operation",
  GRAPHQL_SYNTAX: "it is not GraphQL SDL or an introspection result",
  GRAPHQL_INVALID: "it is not a valid GraphQL schema",
  GRAPHQL_NO_OPERATIONS: "it has no Query or Mutation field",
  GRAPHQL_INTROSPECTION_REFUSED:
    "the endpoint answered the introspection query with errors and no schema: its introspection is disabled or refused. Enable it for the import, or import the schema's SDL",
  GRAPHQL_NOT_AN_ENDPOINT:
    "its answer to the introspection query (POST) is not a GraphQL result: give the URL of the GraphQL endpoint, or of a file ending in .graphql, .gql, .graphqls or .json",
  GRPC_SYNTAX: "a .proto file does not parse",
  GRPC_INVALID: "its .proto files do not make a whole",
  GRPC_NO_OPERATIONS: "it has no unary or server-streaming method",
  GRPC_REFLECTION: "the reflection server did not answer as one",
};

/**
 * An error about a downloaded document, told without a word of that document (an import must
 * not become a way to read what the control plane can reach): the code's reason and the line.
 */
export function withoutContent(error: OpenApiImportError, url: string): OpenApiImportError {
  if (error.code === "OPENAPI_TOO_LARGE" && error.location === undefined) return error; // built from limits only
  const line = error.location?.line;
  const where =
    line === undefined
      ? ""
      : ` (line ${line}${error.location?.column === undefined ? "" : `, column ${error.location.column}`})`;
  return new OpenApiImportError(
    error.code,
    `The document downloaded from ${url} cannot be imported: ${reasonWithoutContent[error.code]}${where}. Details are given only for documents sent inline: download it and import the file to see them`,
    line === undefined
      ? undefined
      : { line, ...(error.location?.column === undefined ? {} : { column: error.location.column }) },
  );
}

export function selfApplied(name: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: schema '${name}'${describeLocation(location)} applies itself to the same value in a loop (through allOf, anyOf, oneOf, not, if/then/else or dependentSchemas), never going down into a property or an item: no value can be validated against it. Make the recursion go through 'properties' or 'items'`,
    location,
  );
}

export function invalidPattern(pattern: unknown, reason: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: pattern ${patternText(pattern)}${describeLocation(location)} is not a regular expression the gateways can enforce (ECMAScript, unicode mode, as JSON Schema validators compile it): ${reason}. Correct the pattern (e.g. escape only characters that need it) or remove it`,
    location,
  );
}

/**
 * A pattern as a message quotes it: a string or another scalar as JSON; a list or an object only
 * by its brackets, since it comes dereferenced: a `$ref` may have made it large, or part of a cycle
 * (`pattern: {$ref: "#/paths"}`, found by the import fuzz test).
 */
function patternText(pattern: unknown): string {
  if (Array.isArray(pattern)) return pattern.length === 0 ? "[]" : "[…]";
  if (typeof pattern === "object" && pattern !== null) return Object.keys(pattern).length === 0 ? "{}" : "{…}";
  return JSON.stringify(pattern) ?? String(pattern);
}

export function emptyEnum(location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: enum []${describeLocation(location)} allows no value at all, and the gateways' validators refuse to compile an empty enum (the tool would then check its arguments only for being an object). List the allowed values, or remove the enum`,
    location,
  );
}

export function invalidSchema(problem: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: the schema${describeLocation(location)} is not valid JSON Schema 2020-12, which the gateways compile every tool schema as: ${problem}. Correct the keyword's value`,
    location,
  );
}

export function anchorRef(ref: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_INVALID",
    `The OpenAPI document is invalid: $ref ${JSON.stringify(ref)}${describeLocation(location)} names an anchor, which the import does not resolve: refer to the schema by its JSON pointer, e.g. "#/components/schemas/Name"`,
    location,
  );
}
