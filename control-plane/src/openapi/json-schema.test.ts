import { describe, expect, it } from "vitest";
import { OpenApiImportError } from "./errors.ts";
import { createSchemaConverter, type SchemaDialect } from "./json-schema.ts";

const converter = (dialect: SchemaDialect, maxNodes = 10_000, refOrigins = new Map<object, string>()) =>
  createSchemaConverter({ dialect, refOrigins, maxNodes, onCycle: (pointer) => new Error(`cycle at ${pointer}`) });

describe("createSchemaConverter", () => {
  it("turns 3.0 nullable into a type array, adding null to an enum", () => {
    expect(converter("3.0").convert({ type: "string", enum: ["a"], nullable: true }, "")).toEqual({
      type: ["string", "null"],
      enum: ["a", null],
    });
    expect(converter("3.0").convert({ type: "string", nullable: false }, "")).toEqual({ type: "string" });
  });

  it("wraps a typeless nullable schema in anyOf with null, annotations kept outside", () => {
    const ref = { type: "object", properties: { name: { type: "string" } } };
    expect(converter("3.0").convert({ allOf: [ref], nullable: true, description: "d" }, "")).toEqual({
      description: "d",
      anyOf: [{ allOf: [ref] }, { type: "null" }],
    });
    expect(converter("3.0").convert({ nullable: true, description: "anything" }, "")).toEqual({
      description: "anything",
    });
  });

  it("converts 2.0 x-nullable and type file, boolean exclusive bounds and example", () => {
    expect(
      converter("2.0").convert({ type: "integer", "x-nullable": true, minimum: 1, exclusiveMinimum: true }, ""),
    ).toEqual({
      type: ["integer", "null"],
      exclusiveMinimum: 1,
    });
    expect(converter("2.0").convert({ type: "file" }, "")).toEqual({ type: "string", format: "binary" });
    expect(converter("3.0").convert({ type: "number", maximum: 5, exclusiveMaximum: false, example: 3 }, "")).toEqual({
      type: "number",
      maximum: 5,
      examples: [3],
    });
  });

  it("leaves 3.1 schemas as they are, keywords that look like OpenAPI 3.0 included", () => {
    const schema = { type: ["string", "null"], nullable: true, example: "x", exclusiveMinimum: 0 };
    expect(converter("3.1").convert(schema, "")).toEqual(schema);
  });

  it("does not touch data keywords or property names that look like keywords", () => {
    const schema = {
      type: "object",
      properties: { nullable: { type: "boolean" }, example: { type: "string" } },
      default: { nullable: true, example: 1 },
    };
    expect(converter("3.0").convert(schema, "")).toEqual(schema);
  });

  it("drops discriminator.mapping, which points into the original document", () => {
    expect(
      converter("3.0").convert(
        { discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } } },
        "",
      ),
    ).toEqual({ discriminator: { propertyName: "kind" } });
  });

  it("names $defs after the $ref each cyclic schema came from, uniquely per document", () => {
    const node: Record<string, unknown> = { type: "object" };
    node.properties = { next: node };
    const other: Record<string, unknown> = { type: "array" };
    other.items = other;
    const refOrigins = new Map<object, string>([
      [node, "#/components/schemas/Linked Node"],
      [other, "#/components/schemas/Linked-Node"],
    ]);
    const convert = converter("3.1", 10_000, refOrigins);
    expect(convert.convert(node, "")).toEqual({
      type: "object",
      properties: { next: { $ref: "#/$defs/Linked_Node" } },
      $defs: { Linked_Node: { type: "object", properties: { next: { $ref: "#/$defs/Linked_Node" } } } },
    });
    expect(convert.convert({ type: "object", properties: { list: other } }, "")).toEqual({
      type: "object",
      properties: { list: { $ref: "#/$defs/Linked-Node" } },
      $defs: { "Linked-Node": { type: "array", items: { $ref: "#/$defs/Linked-Node" } } },
    });
  });

  it("produces fresh objects, even where the input shares one", () => {
    const shared = { type: "string" };
    const converted = converter("3.1").convert({ properties: { a: shared, b: shared } }, "") as {
      properties: { a: unknown; b: unknown };
    };
    expect(converted.properties.a).toEqual(shared);
    expect(converted.properties.a).not.toBe(converted.properties.b);
  });

  it("keeps a property named __proto__ as an own property", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    const converted = converter("3.1").convert(schema, "") as { properties: object };
    expect(Object.keys(converted.properties)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(converted.properties)).toBe(Object.prototype);
  });

  it("refuses to expand shared schemas past maxNodes", () => {
    let schema: Record<string, unknown> = { type: "string" };
    // Each level refers twice to the one below: 2^20 nodes once inlined.
    for (let level = 0; level < 20; level++) schema = { type: "object", properties: { left: schema, right: schema } };
    let thrown: unknown;
    try {
      converter("3.1", 100_000).convert(schema, "");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OpenApiImportError);
    expect((thrown as OpenApiImportError).code).toBe("OPENAPI_TOO_LARGE");
  });
});
