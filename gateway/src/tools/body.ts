/**
 * Request bodies by media type, the serializer chosen once per operation:
 * - JSON (`application/json`, `text/json`, any `+json`): the value's JSON text;
 * - `application/x-www-form-urlencoded`: an object's fields as `k=v&…` (arrays repeat the key,
 *   nested objects are JSON text); a string is sent as it is;
 * - `multipart/form-data`: one part per field (arrays repeat it; a `format: binary` field is sent
 *   as a file part), with a fresh boundary per request;
 * - anything else: a string as it is (decoded first when the schema says it is base64:
 *   `contentEncoding: base64` or `format: byte`), another value as JSON text.
 */
import { randomUUID } from "node:crypto";
import { isJsonMediaType, mediaTypeOf } from "@atrium/contract/tool-schema";
import { isPlainObject } from "./schema.ts";
import { encodeComponent, valueText } from "./serialize.ts";
import type { OperationRequestBody } from "./source.ts";

export type SerializedBody = { body: string | Buffer; contentType: string };
export type BodySerializer = (value: unknown) => SerializedBody;

export function bodySerializer(requestBody: Pick<OperationRequestBody, "contentType" | "schema">): BodySerializer {
  const { contentType, schema } = requestBody;
  const mediaType = mediaTypeOf(contentType);
  if (isJsonMediaType(mediaType)) return (value) => ({ body: JSON.stringify(value ?? null), contentType });
  if (mediaType === "application/x-www-form-urlencoded") {
    return (value) => ({ body: typeof value === "string" ? value : formUrlEncoded(value), contentType });
  }
  if (mediaType === "multipart/form-data") return multipartSerializer(schema);
  const base64 = schema.contentEncoding === "base64" || schema.format === "byte";
  return (value) => ({
    body: typeof value === "string" ? (base64 ? Buffer.from(value, "base64") : value) : JSON.stringify(value ?? null),
    contentType,
  });
}

function formUrlEncoded(value: unknown): string {
  if (!isPlainObject(value)) return encodeComponent(valueText(value));
  const pairs: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    const name = encodeComponent(key);
    if (Array.isArray(field)) for (const item of field) pairs.push(`${name}=${encodeComponent(valueText(item))}`);
    else pairs.push(`${name}=${encodeComponent(valueText(field))}`);
  }
  return pairs.join("&");
}

/** Quotes and line breaks of a part's name, escaped as the HTML form-data algorithm does. */
function partName(name: string): string {
  return name.replaceAll('"', "%22").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

function multipartSerializer(schema: Record<string, unknown>): BodySerializer {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const fileFields = new Set(
    Object.entries(properties)
      .map(([name, property]) => [name, sharedDefinition(schema, property)] as const)
      .filter(([, property]) => isPlainObject(property) && property.format === "binary")
      .map(([name]) => name),
  );
  return (value) => {
    const boundary = `atrium-${randomUUID()}`;
    const chunks: string[] = [];
    const fields = isPlainObject(value) ? Object.entries(value) : [["value", value] as const];
    for (const [key, field] of fields) {
      if (field === undefined) continue;
      const disposition = fileFields.has(key)
        ? `form-data; name="${partName(key)}"; filename="${partName(key)}"\r\nContent-Type: application/octet-stream`
        : `form-data; name="${partName(key)}"`;
      for (const item of Array.isArray(field) ? field : [field]) {
        chunks.push(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n${valueText(item)}\r\n`);
      }
    }
    chunks.push(`--${boundary}--\r\n`);
    return { body: chunks.join(""), contentType: `multipart/form-data; boundary=${boundary}` };
  };
}

/** A property the importer stored as `$ref: "#/$defs/<Name>"` (a shared schema), read from the root's `$defs`. */
function sharedDefinition(root: Record<string, unknown>, property: unknown): unknown {
  if (!isPlainObject(property) || typeof property.$ref !== "string") return property;
  const name = /^#\/\$defs\/([^/]+)$/.exec(property.$ref)?.[1];
  const defs = isPlainObject(root.$defs) ? root.$defs : {};
  return name !== undefined && Object.hasOwn(defs, name) ? defs[name] : property;
}
