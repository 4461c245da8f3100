/**
 * The inputSchema of a tool, built once here for both sides: gateways publish it in `tools/list`
 * (and validate calls against it), the control plane shows it (`GET /expositions/:id/tools`).
 *
 * An OpenAPI operation's arguments (the inputSchema's properties):
 * - path, query and header parameters under their own names (made valid, see tool-names.ts), with
 *   their schema and description; the request body as `body`. When two would share a name (the
 *   same name in two locations, or a parameter called `body` beside a request body), the first in
 *   the order path, query, header keeps it and the others get their location as a prefix:
 *   `query_id`, `header_body` (and `query___proto__`: JSON Schema validators ignore a property named
 *   `__proto__`); a name still taken then gets `_2`, `_3`, …; a renamed argument's
 *   description says which parameter it is;
 * - cookie parameters are left out: the gateway keeps no cookies for a backend, and credentials
 *   reach it through the plan's backend secret;
 * - header parameters OpenAPI says to ignore (`Accept`, `Content-Type`, `Authorization`) and the
 *   message-framing headers are left out too;
 * - unknown arguments are rejected (`additionalProperties: false`): a misspelt name is reported
 *   rather than silently dropped.
 * A path template variable without a declared parameter becomes a required string argument.
 *
 * A GraphQL or gRPC operation's arguments are its request body as a whole (the variables, the
 * request message); a custom tool's are its own inputSchema (a declared 2020-12 `$schema` kept).
 * The plan's fixed arguments are then dropped (`withoutArguments`).
 */
import { setOwn } from "../json-schema.ts";
import type { NormalizedOperation, NormalizedParameter } from "../operation.ts";
import { createNameAllocator, MAX_PROPERTY_NAME_LENGTH, validName } from "../tool-names.ts";
import { annotateParamHeaders, type ParamHeader } from "./param-headers.ts";
import { hoistDefs, isPlainObject, type JsonSchema, prepareSchema } from "./prepare.ts";

/** A tool's inputSchema or outputSchema: its root is always an object. */
export type ObjectSchema = JsonSchema & { type: "object" };
/** An operation parameter and the tool argument (input property) that carries it. */
export type BoundParameter = { parameter: NormalizedParameter; property: string };
/** Told why a part of a schema was left out (a gateway logs it as a warning). */
export type Warn = (problem: string) => void;

/** The argument carrying an OpenAPI operation's request body. */
export const BODY_PROPERTY = "body";
/** `{name}`: an OpenAPI path template variable. */
export const openApiPlaceholder = /\{([^{}/]+)\}/g;

const locationOrder = { path: 0, query: 1, header: 2, cookie: 3 } as const;
const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const ignore: Warn = () => undefined;

/** Headers that frame the HTTP message: the HTTP client sets them, never a tool. */
const framingHeaders = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);
/** Header parameters OpenAPI says to ignore. */
const ignoredHeaderParameters = new Set(["accept", "content-type", "authorization"]);

export function isFramingHeader(name: string): boolean {
  return framingHeaders.has(name.toLowerCase());
}

/** Whether a header parameter of an operation becomes an argument (not ignored, not framing). */
export function isSettableHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return !framingHeaders.has(lower) && !ignoredHeaderParameters.has(lower);
}

/** The parameters exposed as arguments, each with its argument name (see the module comment). */
export function bindParameters(
  operation: Pick<NormalizedOperation, "path" | "parameters" | "requestBody">,
): BoundParameter[] {
  const templateNames = new Set([...operation.path.matchAll(openApiPlaceholder)].map((match) => match[1] ?? ""));
  const parameters: NormalizedParameter[] = operation.parameters.filter((parameter) => {
    if (parameter.in === "cookie") return false;
    if (parameter.in === "header") return isSettableHeader(parameter.name);
    if (parameter.in === "path") return templateNames.has(parameter.name);
    return true;
  });
  for (const variable of templateNames) {
    if (!parameters.some((parameter) => parameter.in === "path" && parameter.name === variable)) {
      parameters.push({ name: variable, in: "path", required: true, schema: { type: "string" } });
    }
  }
  // stable sort: document order within a location
  const ordered = [...parameters].sort((a, b) => locationOrder[a.in] - locationOrder[b.in]);
  // ajv (the gateway's and clients') ignores a property named __proto__: that name would never be validated.
  const reserved = [...(operation.requestBody ? [BODY_PROPERTY] : []), "__proto__"];
  const names = createNameAllocator(MAX_PROPERTY_NAME_LENGTH, reserved);
  return ordered.map((parameter) => {
    const base = validName(parameter.name, MAX_PROPERTY_NAME_LENGTH, "parameter");
    const property = names.has(base)
      ? names.claim(validName(`${parameter.in}_${base}`, MAX_PROPERTY_NAME_LENGTH, "parameter"))
      : names.claim(base);
    return { parameter, property };
  });
}

/** An OpenAPI operation's inputSchema, the parameters it binds and the `Mcp-Param-*` headers it marks. */
export function parameterInputSchema(
  operation: Pick<NormalizedOperation, "path" | "parameters" | "requestBody">,
  warn: Warn = ignore,
): { inputSchema: ObjectSchema; bound: BoundParameter[]; paramHeaders: ParamHeader[] } {
  const bound = bindParameters(operation);
  const defs: Record<string, unknown> = {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const { parameter, property } of bound) {
    // A parameter may be named __proto__: an own property, never the object's prototype.
    setOwn(
      properties,
      property,
      describedSchema(parameter.schema, parameter.description, defs, renameNote(parameter, property)),
    );
    if (parameter.required) required.push(property);
  }
  if (operation.requestBody) {
    const { schema, description } = operation.requestBody;
    properties[BODY_PROPERTY] = describedSchema(schema, description, defs, undefined);
    if (operation.requestBody.required) required.push(BODY_PROPERTY);
  }
  const inputSchema: ObjectSchema = { type: "object", properties };
  if (required.length > 0) inputSchema.required = required;
  inputSchema.additionalProperties = false;
  if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
  const paramHeaders = annotateParamHeaders(
    inputSchema,
    Object.fromEntries(bound.map(({ parameter, property }) => [property, parameter.schema])),
    warn,
  );
  return { inputSchema, bound, paramHeaders };
}

/** The inputSchema of a tool whose arguments are a request body as a whole (GraphQL variables, a gRPC message). */
export function bodyInputSchema(schema: unknown): ObjectSchema {
  return {
    ...prepareSchema(schema ?? { properties: {}, additionalProperties: false }, "input"),
    type: "object",
  };
}

/** A CustomTools entry's inputSchema, and the `Mcp-Param-*` headers it marks (an HTTP template's only). */
export function customToolInputSchema(
  custom: { inputSchema?: Record<string, unknown>; graphql?: unknown },
  warn: Warn = ignore,
): { inputSchema: ObjectSchema; paramHeaders: ParamHeader[] } {
  // One with a GraphQL document is compiled as the operation the importer would have made of it.
  if (custom.graphql) return { inputSchema: bodyInputSchema(custom.inputSchema), paramHeaders: [] };
  // A declared 2020-12 dialect is published as written (SEP-1613); ajv2020 compiles it as is.
  const declared = custom.inputSchema?.$schema;
  const inputSchema: ObjectSchema = {
    ...(declared === JSON_SCHEMA_2020_12 ? { $schema: declared } : {}),
    ...prepareSchema(custom.inputSchema ?? { properties: {} }, "input"),
    type: "object",
  };
  const written = custom.inputSchema?.properties;
  const paramHeaders = annotateParamHeaders(inputSchema, isPlainObject(written) ? written : {}, warn);
  return { inputSchema, paramHeaders };
}

/** The inputSchema of an operation's tool, whatever its protocol (the gateway's tool compilers choose alike). */
export function operationInputSchema(operation: NormalizedOperation): ObjectSchema {
  return operation.grpc || operation.graphql
    ? bodyInputSchema(operation.requestBody?.schema)
    : parameterInputSchema(operation).inputSchema;
}

/** The inputSchema without the plan's fixed arguments: no property, not required. */
export function withoutArguments(schema: ObjectSchema, names: string[]): ObjectSchema {
  const properties = isPlainObject(schema.properties) ? { ...schema.properties } : {};
  for (const name of names) delete properties[name];
  const { required, ...rest } = schema;
  const stillRequired = Array.isArray(required) ? required.filter((name) => !names.includes(name)) : [];
  return { ...rest, properties, ...(stillRequired.length > 0 ? { required: stillRequired } : {}) };
}

function renameNote(parameter: NormalizedParameter, property: string): string | undefined {
  return property === parameter.name ? undefined : `(${parameter.in} parameter "${parameter.name}")`;
}

/** A parameter's or body's schema as an inputSchema property: prepared, its `$defs` hoisted, its description set. */
function describedSchema(
  schema: Record<string, unknown>,
  description: string | undefined,
  defs: Record<string, unknown>,
  note: string | undefined,
): JsonSchema {
  const property = hoistDefs(prepareSchema(schema, "input"), defs);
  const text = [description ?? (typeof property.description === "string" ? property.description : undefined), note]
    .filter((part) => part)
    .join(" ");
  if (text !== "") property.description = text;
  return property;
}
