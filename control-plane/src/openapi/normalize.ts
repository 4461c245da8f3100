/**
 * A validated, dereferenced OpenAPI 2.0 / 3.0 / 3.1 document into the stored form: one
 * normalized operation per (path, method), in document order.
 *
 * - Parameters: path-level ones merged with the operation's, the operation's replacing one with
 *   the same `name` and `in` at its position; the others appended in order.
 * - Bodies and responses: `application/json` when offered (parameters such as `; charset=` are
 *   ignored), else the first media type listed. Swagger 2.0 `in: body` becomes the request body
 *   (media type from `consumes`, default `application/json`); `in: formData` parameters become an
 *   object schema sent as `multipart/form-data` when a file is among them or `consumes` says so,
 *   else `application/x-www-form-urlencoded`. 2.0 response schemas take their media type from
 *   `produces` (default `application/json`).
 * - 2.0 `collectionFormat` becomes the equivalent OpenAPI 3 `style` / `explode`; `tsv` has none
 *   and is left out.
 */
import {
  type HttpMethod,
  type NormalizedOperation,
  type NormalizedParameter,
  type NormalizedRequestBody,
  type NormalizedResponse,
  ParameterLocation,
  ParameterStyle,
} from "@atrium/contract";
import { describeLocation, duplicateOperationId, invalidDocument } from "./errors.ts";
import type { ImportedDocument } from "./imported-document.ts";
import { childPointer } from "./json-pointer.ts";
import type { SchemaConverter, SchemaDialect } from "./json-schema.ts";
import type { Locate } from "./locate.ts";
import { assignOperationIds } from "./operation-id.ts";
import { isPlainObject, type JsonObject, setOwn } from "./plain-json.ts";
import { serverUrls } from "./servers.ts";

export type NormalizeOptions = {
  dialect: SchemaDialect;
  /** The version string as found (`2.0`, `3.0.3`, ...). */
  openapiVersion: string;
  converter: SchemaConverter;
  /** Where the document was downloaded from, to resolve relative server URLs. */
  documentUrl?: string;
  /** Places a pointer of the document in the submitted text, for error locations. */
  locate: Locate;
  onCycle: (pointer: string) => Error;
};

type RawObject = Record<string, unknown>;

/** The fixed order of the OpenAPI path item fields. */
const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
// The sets come from the schemas, so the normalizer and the stored shape cannot drift apart.
const parameterLocations = new Set<string>(ParameterLocation.options);
const parameterStyles = new Set<string>(ParameterStyle.options);
/** The Swagger 2.0 parameter fields that are JSON Schema keywords. */
const swaggerSchemaFields = [
  "type",
  "format",
  "items",
  "default",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "enum",
  "multipleOf",
  "x-nullable",
];

/** Where each part of an operation is written in the document, to place errors found later. */
export type OperationSites = { pointer: string; parameters: string[]; requestBody?: string; responses: string[] };

type Draft = Omit<NormalizedOperation, "operationId"> & { declaredId: string | undefined; sites: OperationSites };

export function normalizeDocument(
  document: RawObject,
  options: NormalizeOptions,
): { document: ImportedDocument; sites: OperationSites[] } {
  const { dialect, converter } = options;
  const info = isPlainObject(document.info) ? document.info : {};
  const paths = isPlainObject(document.paths) ? document.paths : {};
  const drafts: Draft[] = [];

  for (const [path, pathItem] of Object.entries(paths)) {
    if (!path.startsWith("/") || !isPlainObject(pathItem)) continue;
    const pathPointer = childPointer("/paths", path);
    for (const method of methods) {
      const operation = pathItem[method];
      if (!isPlainObject(operation)) continue;
      const pointer = childPointer(pathPointer, method);
      const merged = mergeParameters(
        { list: pathItem.parameters, pointer: childPointer(pathPointer, "parameters") },
        { list: operation.parameters, pointer: childPointer(pointer, "parameters") },
      );
      const parameters: NormalizedParameter[] = [];
      const sites: OperationSites = { pointer, parameters: [], responses: [] };
      let requestBody: NormalizedRequestBody | undefined;
      if (dialect === "2.0") {
        const consumes = mediaTypes(operation.consumes ?? document.consumes);
        for (const { raw, pointer: at } of merged) {
          if (raw.in === "body" || raw.in === "formData") continue;
          parameters.push(swaggerParameter(raw, at, converter, options.locate));
          sites.parameters.push(at);
        }
        requestBody = swaggerRequestBody(merged, consumes, converter);
        const bodyAt = merged.find(({ raw }) => raw.in === "body" || raw.in === "formData")?.pointer;
        if (bodyAt !== undefined) sites.requestBody = bodyAt;
      } else {
        for (const { raw, pointer: at } of merged) {
          parameters.push(openApiParameter(raw, at, converter, options.locate));
          sites.parameters.push(at);
        }
        requestBody = openApiRequestBody(operation.requestBody, childPointer(pointer, "requestBody"), converter);
        sites.requestBody = childPointer(pointer, "requestBody");
      }
      const produces = dialect === "2.0" ? mediaTypes(operation.produces ?? document.produces) : [];
      drafts.push({
        declaredId:
          typeof operation.operationId === "string" && operation.operationId !== "" ? operation.operationId : undefined,
        sites,
        method: method.toUpperCase() as HttpMethod,
        path,
        ...optionalString("summary", operation.summary),
        ...optionalString("description", operation.description),
        deprecated: operation.deprecated === true,
        tags: Array.isArray(operation.tags)
          ? operation.tags.filter((tag): tag is string => typeof tag === "string")
          : [],
        parameters,
        ...(requestBody ? { requestBody } : {}),
        responses: responses(
          operation.responses,
          childPointer(pointer, "responses"),
          dialect,
          produces,
          converter,
          sites,
        ),
        extensions: extensions(operation, pointer, converter, options.locate),
      });
    }
  }

  const assigned = assignOperationIds(drafts.map(({ method, path, declaredId }) => ({ method, path, declaredId })));
  if ("conflict" in assigned) {
    const { operationId, first, second } = assigned.conflict;
    const [a, b] = [drafts[first], drafts[second]];
    const where = b ? options.locate(childPointer(b.sites.pointer, "operationId")) : { pointer: "/paths" };
    throw duplicateOperationId(operationId, `${a?.method} ${a?.path}`, `${b?.method} ${b?.path}`, where);
  }
  const operations = drafts.map(({ declaredId: _declaredId, sites: _sites, ...draft }, index) => ({
    operationId: assigned.ids[index] ?? "",
    ...draft,
  }));

  return {
    document: {
      openapiVersion: options.openapiVersion,
      title: typeof info.title === "string" ? info.title : "",
      version: typeof info.version === "string" ? info.version : String(info.version ?? ""),
      ...optionalString("description", info.description),
      servers: serverUrls(document, dialect, options.documentUrl),
      operations,
      warnings: options.converter.warnings,
    },
    sites: drafts.map((draft) => draft.sites),
  };
}

type RawParameter = { raw: RawObject; pointer: string };

type ParameterList = { list: unknown; pointer: string };

function mergeParameters(pathLevel: ParameterList, operationLevel: ParameterList): RawParameter[] {
  const merged: RawParameter[] = [];
  const indexByKey = new Map<string, number>();
  const add = ({ list, pointer }: ParameterList) => {
    if (!Array.isArray(list)) return;
    for (const [index, raw] of list.entries()) {
      if (!isPlainObject(raw)) continue;
      const key = `${String(raw.in)}\u0000${String(raw.name)}`;
      const entry = { raw, pointer: childPointer(pointer, index) };
      const existing = indexByKey.get(key);
      if (existing === undefined) {
        indexByKey.set(key, merged.length);
        merged.push(entry);
      } else {
        merged[existing] = entry;
      }
    }
  };
  add(pathLevel);
  add(operationLevel);
  return merged;
}

/** What every parameter has, whatever the dialect; `note` says which of its schema's patterns were dropped. */
function parameterBase(raw: RawObject, pointer: string, locate: Locate, note: string | undefined) {
  const location = parameterLocation(raw.in, pointer, locate);
  return {
    name: String(raw.name),
    in: location,
    required: location === "path" || raw.required === true,
    ...optionalString("description", withNote(raw.description, note)),
  };
}

/**
 * A parameter's or body's own description, which the gateways list instead of its schema's, with
 * the note of a pattern or format the import dropped from that schema (see json-schema.ts).
 */
function withNote(description: unknown, note: string | undefined): unknown {
  return typeof description === "string" && note !== undefined ? `${description}\n\n${note}` : description;
}

function openApiParameter(
  raw: RawObject,
  pointer: string,
  converter: SchemaConverter,
  locate: Locate,
): NormalizedParameter {
  let schema: JsonObject = {};
  let contentType: string | undefined;
  if (raw.schema !== undefined) {
    schema = converter.convert(raw.schema, childPointer(pointer, "schema"));
  } else if (isPlainObject(raw.content)) {
    contentType = preferredMediaType(Object.keys(raw.content));
    const media = contentType === undefined ? undefined : raw.content[contentType];
    if (isPlainObject(media) && media.schema !== undefined) {
      const mediaAt = childPointer(childPointer(pointer, "content"), contentType ?? "");
      schema = converter.convert(media.schema, childPointer(mediaAt, "schema"));
    }
  }
  return {
    ...parameterBase(raw, pointer, locate, converter.noteOf(schema)),
    schema,
    ...(contentType === undefined ? {} : { contentType }),
    ...(typeof raw.style === "string" && parameterStyles.has(raw.style) ? { style: raw.style as ParameterStyle } : {}),
    ...(typeof raw.explode === "boolean" ? { explode: raw.explode } : {}),
  };
}

function swaggerParameter(
  raw: RawObject,
  pointer: string,
  converter: SchemaConverter,
  locate: Locate,
): NormalizedParameter {
  const schema = converter.convert(swaggerParameterSchema(raw), pointer);
  const base = parameterBase(raw, pointer, locate, converter.noteOf(schema));
  return { ...base, schema, ...swaggerStyle(raw, base.in) };
}

/** A 2.0 non-body parameter (or items object) carries its schema keywords inline. */
function swaggerParameterSchema(raw: RawObject): RawObject {
  const schema: RawObject = {};
  for (const field of swaggerSchemaFields) {
    if (raw[field] === undefined) continue;
    setOwn(
      schema,
      field,
      field === "items" && isPlainObject(raw.items) ? swaggerParameterSchema(raw.items) : raw[field],
    );
  }
  return schema;
}

function swaggerStyle(raw: RawObject, location: ParameterLocation): { style?: ParameterStyle; explode?: boolean } {
  if (raw.type !== "array") return {};
  switch (raw.collectionFormat ?? "csv") {
    case "csv":
      return location === "query" || location === "cookie"
        ? { style: "form", explode: false }
        : { style: "simple", explode: false };
    case "ssv":
      return { style: "spaceDelimited", explode: false };
    case "pipes":
      return { style: "pipeDelimited", explode: false };
    case "multi":
      return { style: "form", explode: true };
    default:
      return {};
  }
}

function swaggerRequestBody(
  merged: RawParameter[],
  consumes: string[],
  converter: SchemaConverter,
): NormalizedRequestBody | undefined {
  const body = merged.find(({ raw }) => raw.in === "body");
  if (body) {
    const schema = converter.convert(body.raw.schema ?? {}, childPointer(body.pointer, "schema"));
    return {
      required: body.raw.required === true,
      contentType: preferredMediaType(consumes) ?? "application/json",
      schema,
      ...optionalString("description", withNote(body.raw.description, converter.noteOf(schema))),
    };
  }
  const fields = merged.filter(({ raw }) => raw.in === "formData");
  if (fields.length === 0) return undefined;
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const { raw, pointer } of fields) {
    const name = String(raw.name);
    const schema = converter.convert(swaggerParameterSchema(raw), pointer);
    const note = converter.noteOf(schema);
    if (typeof raw.description === "string" && (schema.description === undefined || note !== undefined))
      schema.description = String(withNote(raw.description, note));
    setOwn(properties, name, schema);
    if (raw.required === true) required.push(name);
  }
  const formTypes = consumes.filter((type) =>
    ["multipart/form-data", "application/x-www-form-urlencoded"].includes(baseMediaType(type)),
  );
  const multipart = formTypes.find((type) => baseMediaType(type) === "multipart/form-data");
  const hasFile = fields.some(({ raw }) => raw.type === "file");
  return {
    required: required.length > 0,
    contentType: hasFile ? (multipart ?? "multipart/form-data") : (formTypes[0] ?? "application/x-www-form-urlencoded"),
    schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
  };
}

function openApiRequestBody(
  raw: unknown,
  pointer: string,
  converter: SchemaConverter,
): NormalizedRequestBody | undefined {
  if (!isPlainObject(raw) || !isPlainObject(raw.content)) return undefined;
  const contentType = preferredMediaType(Object.keys(raw.content));
  if (contentType === undefined) return undefined;
  const media = raw.content[contentType];
  const rawSchema = isPlainObject(media) && media.schema !== undefined ? media.schema : {};
  const schema = converter.convert(
    rawSchema,
    childPointer(childPointer(childPointer(pointer, "content"), contentType), "schema"),
  );
  return {
    required: raw.required === true,
    contentType,
    schema,
    ...optionalString("description", withNote(raw.description, converter.noteOf(schema))),
  };
}

function responses(
  raw: unknown,
  pointer: string,
  dialect: SchemaDialect,
  produces: string[],
  converter: SchemaConverter,
  sites: OperationSites,
): NormalizedResponse[] {
  if (!isPlainObject(raw)) return [];
  const result: NormalizedResponse[] = [];
  for (const [code, response] of Object.entries(raw)) {
    const status = /^[1-5]xx$/i.test(code) ? code.toUpperCase() : code;
    if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status) || !isPlainObject(response)) continue; // e.g. `x-` keys
    const at = childPointer(pointer, code);
    sites.responses.push(at);
    const normalized: NormalizedResponse = { status, ...optionalString("description", response.description) };
    if (dialect === "2.0") {
      if (response.schema !== undefined) {
        normalized.contentType = preferredMediaType(produces) ?? "application/json";
        normalized.schema = converter.convert(response.schema, childPointer(at, "schema"));
      }
    } else if (isPlainObject(response.content)) {
      const contentType = preferredMediaType(Object.keys(response.content));
      const media = contentType === undefined ? undefined : response.content[contentType];
      if (contentType !== undefined) normalized.contentType = contentType;
      if (isPlainObject(media) && media.schema !== undefined) {
        normalized.schema = converter.convert(
          media.schema,
          childPointer(childPointer(childPointer(at, "content"), contentType ?? ""), "schema"),
        );
      }
    }
    result.push(normalized);
  }
  return result;
}

function extensions(
  operation: RawObject,
  pointer: string,
  converter: SchemaConverter,
  locate: Locate,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(operation)) {
    // Counted like schemas: an extension can be shared through $refs as much as a schema can.
    if (key.startsWith("x-")) setOwn(result, key, converter.copy(value, childPointer(pointer, key)));
  }
  // Gateways read it as a switch (their tool results are the answer's MCP content blocks): refuse what they would ignore.
  const content = result["x-mcp-content"];
  if (content !== undefined && typeof content !== "boolean") {
    const at = locate(childPointer(pointer, "x-mcp-content"));
    throw invalidDocument([`'x-mcp-content' must be true or false${describeLocation(at)}`], at);
  }
  return result;
}

function parameterLocation(value: unknown, pointer: string, locate: Locate): ParameterLocation {
  // The parser validates `in`; what it cannot see (e.g. a parameter that is only a $ref) lands here.
  if (typeof value !== "string" || !parameterLocations.has(value)) {
    const at = locate(childPointer(pointer, "in"));
    throw invalidDocument([`'in' must be path, query, header or cookie${describeLocation(at)}`], at);
  }
  return value as ParameterLocation;
}

function mediaTypes(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((type): type is string => typeof type === "string") : [];
}

function baseMediaType(type: string): string {
  return (type.split(";")[0] ?? "").trim().toLowerCase();
}

/** `application/json` (with or without parameters) when listed, else the first one. */
export function preferredMediaType(types: string[]): string | undefined {
  return types.find((type) => baseMediaType(type) === "application/json") ?? types[0];
}

function optionalString<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  return (typeof value === "string" ? { [key]: value } : {}) as { [P in K]?: string };
}
