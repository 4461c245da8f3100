/**
 * Protobuf messages as JSON Schema (draft 2020-12), following the proto3 JSON mapping the gateways
 * encode and decode with: field names in lowerCamelCase (json_name), 64-bit integers as decimal
 * strings, enums by name, bytes as base64, maps as objects, repeated fields as arrays, a oneof as
 * `oneOf` (one member set, or none), and the well-known types as their JSON forms (Timestamp an
 * RFC 3339 string, Duration `"1.5s"`, Struct an object, Value anything, wrappers a nullable
 * scalar). A message is a `$ref` to `#/$defs/<full name>`, so recursion needs no expansion.
 * Every schema compiles under a strict validator (ajv's Ajv2020 with ajv-formats): no union
 * `type`, every keyword under the type it applies to.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import type { JsonObject } from "../openapi/plain-json.ts";

/** Schemas of the messages met so far, by full name; shared by all the tools of one import. */
export type MessageDefs = Map<string, JsonObject>;

const int64Pattern = "^-?[0-9]+$";
const uint64Pattern = "^[0-9]+$";
const base64Pattern = "^[A-Za-z0-9+/_-]*={0,2}$";

const floatSchema: JsonObject = {
  anyOf: [{ type: "number" }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }],
};

function scalarSchema(scalar: ScalarType): JsonObject {
  switch (scalar) {
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return structuredClone(floatSchema);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", minimum: -2147483648, maximum: 2147483647 };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", minimum: 0, maximum: 4294967295 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: "string", pattern: int64Pattern, description: "A 64-bit integer, as a decimal string." };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return {
        type: "string",
        pattern: uint64Pattern,
        description: "An unsigned 64-bit integer, as a decimal string.",
      };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64", pattern: base64Pattern };
  }
}

function enumSchema(desc: DescEnum): JsonObject {
  if (desc.typeName === "google.protobuf.NullValue") return { type: "null" };
  return { type: "string", enum: desc.values.map((value) => value.name) };
}

const wrappers: Record<string, ScalarType> = {
  "google.protobuf.DoubleValue": ScalarType.DOUBLE,
  "google.protobuf.FloatValue": ScalarType.FLOAT,
  "google.protobuf.Int64Value": ScalarType.INT64,
  "google.protobuf.UInt64Value": ScalarType.UINT64,
  "google.protobuf.Int32Value": ScalarType.INT32,
  "google.protobuf.UInt32Value": ScalarType.UINT32,
  "google.protobuf.BoolValue": ScalarType.BOOL,
  "google.protobuf.StringValue": ScalarType.STRING,
  "google.protobuf.BytesValue": ScalarType.BYTES,
};

/** The well-known types whose JSON is not the object of their fields. */
function wellKnownSchema(typeName: string): JsonObject | undefined {
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time", description: "An RFC 3339 timestamp, e.g. 2024-05-01T12:00:00Z." };
    case "google.protobuf.Duration":
      return {
        type: "string",
        pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$",
        description: "A duration in seconds with an 's' suffix, e.g. 1.5s.",
      };
    case "google.protobuf.Struct":
      return { type: "object" };
    case "google.protobuf.Value":
      return {};
    case "google.protobuf.ListValue":
      return { type: "array" };
    case "google.protobuf.FieldMask":
      return {
        type: "string",
        description: "Field paths in lowerCamelCase, separated by commas, e.g. name,owner.email.",
      };
    case "google.protobuf.Any":
      return {
        type: "object",
        properties: { "@type": { type: "string", description: "The type URL, e.g. type.googleapis.com/pkg.Message." } },
        required: ["@type"],
      };
  }
  const wrapped = wrappers[typeName];
  return wrapped === undefined ? undefined : { anyOf: [scalarSchema(wrapped), { type: "null" }] };
}

/** Whether the message's JSON form is an object (what a tool's arguments and structured result must be). */
export function isJsonObject(message: DescMessage): boolean {
  const wellKnown = wellKnownSchema(message.typeName);
  return wellKnown === undefined || wellKnown.type === "object";
}

export class SchemaBuilder {
  readonly defs: MessageDefs = new Map();
  private readonly comments: ReadonlyMap<string, string>;

  constructor(comments: ReadonlyMap<string, string>) {
    this.comments = comments;
  }

  /** The message's own schema, its referenced messages in `$defs`: a tool's input or output schema. */
  root(message: DescMessage): JsonObject {
    const schema = wellKnownSchema(message.typeName) ?? this.body(message);
    const used = this.referenced(schema);
    return used.size > 0 ? { ...schema, $defs: Object.fromEntries(used) } : schema;
  }

  private reference(message: DescMessage): JsonObject {
    const wellKnown = wellKnownSchema(message.typeName);
    if (wellKnown) return wellKnown;
    if (!this.defs.has(message.typeName)) {
      this.defs.set(message.typeName, {}); // taken before the body: a recursive field refers to it
      this.defs.set(message.typeName, this.body(message));
    }
    return { $ref: `#/$defs/${message.typeName}` };
  }

  private body(message: DescMessage): JsonObject {
    const properties: Record<string, JsonObject> = {};
    const required: string[] = [];
    for (const field of message.fields) {
      properties[field.jsonName] = this.described(
        this.fieldSchema(field),
        this.comments.get(`${message.typeName}.${field.name}`),
      );
      if (field.proto.label === 2) required.push(field.jsonName); // proto2 `required`
    }
    const oneOfs = message.oneofs.map((oneof) => {
      const names = oneof.fields.map((field) => field.jsonName);
      return {
        oneOf: [
          ...names.map((name) => ({ type: "object", required: [name] })),
          { type: "object", properties: Object.fromEntries(names.map((name) => [name, false])) },
        ],
      };
    });
    return this.described(
      {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
        ...(oneOfs.length === 1 ? oneOfs[0] : oneOfs.length > 1 ? { allOf: oneOfs } : {}),
      },
      this.comments.get(message.typeName),
    );
  }

  private fieldSchema(field: DescField): JsonObject {
    switch (field.fieldKind) {
      case "scalar":
        return scalarSchema(field.scalar);
      case "enum":
        return enumSchema(field.enum);
      case "message":
        return this.reference(field.message);
      case "list":
        return {
          type: "array",
          items:
            field.listKind === "scalar"
              ? scalarSchema(field.scalar)
              : field.listKind === "enum"
                ? enumSchema(field.enum)
                : this.reference(field.message),
        };
      case "map":
        return {
          type: "object",
          ...mapKeys(field.mapKey),
          additionalProperties:
            field.mapKind === "scalar"
              ? scalarSchema(field.scalar)
              : field.mapKind === "enum"
                ? enumSchema(field.enum)
                : this.reference(field.message),
        };
    }
  }

  private described(schema: JsonObject, comment: string | undefined): JsonObject {
    if (!comment) return schema;
    // A `$ref` keeps its siblings in 2020-12, so a field's comment can sit beside it.
    return { ...schema, description: schema.description ? `${comment}\n\n${String(schema.description)}` : comment };
  }

  /** The definitions `schema` refers to, directly or through each other. */
  private referenced(schema: JsonObject): Map<string, JsonObject> {
    const used = new Map<string, JsonObject>();
    const pending: unknown[] = [schema];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (next === null || typeof next !== "object") continue;
      const ref = (next as JsonObject).$ref;
      if (typeof ref === "string") {
        const name = ref.slice("#/$defs/".length);
        const def = this.defs.get(name);
        if (def && !used.has(name)) {
          used.set(name, def);
          pending.push(def);
        }
      }
      pending.push(...Object.values(next));
    }
    return used;
  }
}

/** Map keys are JSON object keys: integers and booleans written as strings. */
function mapKeys(key: ScalarType): JsonObject {
  switch (key) {
    case ScalarType.BOOL:
      return { propertyNames: { enum: ["true", "false"] } };
    case ScalarType.STRING:
      return {};
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { propertyNames: { pattern: uint64Pattern } };
    default:
      return { propertyNames: { pattern: int64Pattern } };
  }
}
