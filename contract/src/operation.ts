/**
 * The normalized operation: what the control plane's importer makes of one (method, path) of an
 * OpenAPI document, as it stores it and as gateways receive it on the change stream; a gateway
 * builds one MCP tool from each. These Zod schemas are the single source of truth; the types are
 * inferred from them.
 *
 * Every `schema` below is a self-contained JSON Schema (draft 2020-12) object: plain JSON, no
 * cycles, no `$ref` into the original document. A recursive schema keeps its recursion as
 * `$ref: "#/$defs/<Name>"`, the referenced schemas copied into `$defs` at the root of that same
 * schema. `<Name>` is unique within one imported document, so the same name always denotes the
 * same schema and `$defs` of several schemas (say, the parameters and body of one tool) can be
 * merged without renaming.
 */
import { z } from "zod";

/** A JSON Schema object. Kept opaque here: its content is produced by the importer, not typed. */
export const JsonSchemaObject = z.record(z.string(), z.unknown());
export type JsonSchemaObject = z.infer<typeof JsonSchemaObject>;

export const HttpMethod = z.enum(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]);
export type HttpMethod = z.infer<typeof HttpMethod>;

export const ParameterLocation = z.enum(["path", "query", "header", "cookie"]);
export type ParameterLocation = z.infer<typeof ParameterLocation>;

/** OpenAPI 3 serialization styles; absent means the OpenAPI 3 default for the location. */
export const ParameterStyle = z.enum([
  "matrix",
  "label",
  "form",
  "simple",
  "spaceDelimited",
  "pipeDelimited",
  "deepObject",
]);
export type ParameterStyle = z.infer<typeof ParameterStyle>;

export const NormalizedParameter = z.object({
  name: z.string().min(1),
  in: ParameterLocation,
  /** Always true for path parameters. */
  required: z.boolean(),
  description: z.string().optional(),
  schema: JsonSchemaObject,
  /** Set when the document describes the parameter by `content`: the value is sent serialized as this media type. */
  contentType: z.string().optional(),
  style: ParameterStyle.optional(),
  explode: z.boolean().optional(),
});
export type NormalizedParameter = z.infer<typeof NormalizedParameter>;

export const NormalizedRequestBody = z.object({
  required: z.boolean(),
  /** `application/json` when the document offers it, else the first media type listed. */
  contentType: z.string().min(1),
  schema: JsonSchemaObject,
  description: z.string().optional(),
});
export type NormalizedRequestBody = z.infer<typeof NormalizedRequestBody>;

export const NormalizedResponse = z.object({
  /** `200`, `2XX` or `default`, as written in the document. */
  status: z.string().regex(/^([1-5]\d\d|[1-5]XX|default)$/),
  description: z.string().optional(),
  contentType: z.string().optional(),
  schema: JsonSchemaObject.optional(),
});
export type NormalizedResponse = z.infer<typeof NormalizedResponse>;

/**
 * How to call a GraphQL field (GraphQL over HTTP: `POST` of `{query, operationName, variables}` as
 * JSON to the plan's endpoint, the tool's arguments being the variables).
 */
export const GraphqlCall = z.object({
  operationType: z.enum(["query", "mutation"]),
  /** The root field this operation selects, e.g. `products`. */
  fieldName: z.string().min(1),
  /** The whole document: one operation with a variable per argument and the generated selection set. */
  document: z.string().min(1),
  operationName: z.string().regex(/^[_A-Za-z][_0-9A-Za-z]*$/),
});
export type GraphqlCall = z.infer<typeof GraphqlCall>;

/**
 * How to call a gRPC method (issue 21): the gateway encodes the tool's arguments (proto3 JSON) as
 * the request message, calls `/<service>/<method>` on the plan's `grpc://` (h2c) or `grpcs://`
 * (TLS) endpoint, and decodes the answer back to proto3 JSON. The descriptors travel with the
 * recipe, so a gateway needs no `.proto` file and no reflection of its own.
 */
export const GrpcCall = z.object({
  /** The fully-qualified service name, e.g. `petstore.v1.PetService`. */
  service: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/),
  /** The method's name in that service, e.g. `GetPet`. */
  method: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  /** `unary`, or `server` for a server-streaming method (its messages are collected into an array, up to the plan's limit). */
  streaming: z.enum(["unary", "server"]),
  /** Fully-qualified message names of the request and the response, e.g. `petstore.v1.GetPetRequest`. */
  requestType: z.string().min(1),
  responseType: z.string().min(1),
  /**
   * A serialized `google.protobuf.FileDescriptorSet`, base64: the method's file and every file it
   * imports, transitively (well-known types included), so the set resolves on its own.
   */
  descriptorSet: z.string().min(1),
});
export type GrpcCall = z.infer<typeof GrpcCall>;

/**
 * A gateway refuses an Exposition whose operations carry a key not listed here (a call recipe it
 * cannot follow, say), rather than call them as plain HTTP: gateways that predate a new key refuse
 * the Expositions that carry it.
 */
export const NormalizedOperation = z.object({
  /** The document's operationId, or one derived from method and path (the control plane's `synthesizeOperationId`). */
  operationId: z.string().min(1),
  method: HttpMethod,
  /** The path template exactly as in the document, e.g. `/pets/{petId}`. */
  path: z.string().startsWith("/"),
  summary: z.string().optional(),
  description: z.string().optional(),
  deprecated: z.boolean(),
  tags: z.array(z.string()),
  /** Path-level parameters merged with the operation's own; the operation's win on the same name and location. */
  parameters: z.array(NormalizedParameter),
  requestBody: NormalizedRequestBody.optional(),
  responses: z.array(NormalizedResponse),
  /** The operation's `x-*` keys (tool annotations may be derived from them), values as plain JSON. */
  extensions: z.record(z.string().regex(/^x-/), z.unknown()),
  /** Set on an operation of a GraphQL Service: the call recipe (method and path say `POST /`). */
  graphql: GraphqlCall.optional(),
  /**
   * Set on an operation of a gRPC Service: the call recipe (method says `POST`, path
   * `/<service>/<method>`). Its request body's schema is the request message's proto3 JSON; its one
   * response (`200`) has the schema of one response message, also for a server-streaming method
   * (whose messages the gateway collects into an array).
   */
  grpc: GrpcCall.optional(),
});
export type NormalizedOperation = z.infer<typeof NormalizedOperation>;
