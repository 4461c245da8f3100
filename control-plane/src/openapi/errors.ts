/**
 * Coded errors of the OpenAPI import, every message built here. Each message says what is wrong
 * and what to change; `location` says where, in the text that was submitted or downloaded.
 */

export type OpenApiImportErrorCode =
  /** The URL is not an absolute http(s) URL. */
  | "OPENAPI_URL_INVALID"
  /** The download failed: network error, timeout or a non-2xx answer. */
  | "OPENAPI_FETCH"
  /** The text is larger than the limit, or its schemas expand past the limit once dereferenced. */
  | "OPENAPI_TOO_LARGE"
  /** The text is neither JSON nor YAML (or is not UTF-8). */
  | "OPENAPI_SYNTAX"
  /** The text parses but is not a Swagger 2.0 / OpenAPI 3.0 / 3.1 document. */
  | "OPENAPI_UNSUPPORTED_VERSION"
  /** A `$ref` points outside the document (a file or a URL); only internal references are resolved. */
  | "OPENAPI_EXTERNAL_REF"
  /** The parser rejected the document: its message is kept. */
  | "OPENAPI_INVALID"
  /** Two operations share one operationId. */
  | "OPENAPI_DUPLICATE_OPERATION_ID"
  /** The document is valid but has no operation to publish as a tool. */
  | "OPENAPI_NO_OPERATIONS";

export type SourceLocation = {
  /** JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get/responses`. */
  pointer?: string;
  /** 1-based line in the submitted or downloaded text. */
  line?: number;
  /** 1-based column in the submitted or downloaded text. */
  column?: number;
};

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

/** ` at /paths/~1pets/get (line 9, column 7)`, or as much of it as is known. */
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
  return `${where}${lineColumn}`;
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
    `Could not download the OpenAPI document from ${url}: ${reason}. Check the URL and that the control plane can reach it, or send the document inline`,
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
