import { Ajv2020 } from "ajv/dist/2020.js";
import { buildSchema, introspectionFromSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { OpenApiImportError } from "../openapi/errors.ts";
import { importGraphqlText } from "./import.ts";
import { storeSdl } from "./test-schemas.ts";

/** The coded error the import of `text` throws. */
function importError(text: string): OpenApiImportError {
  const thrown = catching(() => importGraphqlText(text));
  expect(thrown).toBeInstanceOf(OpenApiImportError);
  return thrown as OpenApiImportError;
}

function catching(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("GraphQL import", () => {
  const imported = importGraphqlText(storeSdl);
  const byId = new Map(imported.operations.map((operation) => [operation.operationId, operation]));

  it("makes a read-only tool of every Query field and a writing one of every Mutation field", () => {
    expect(imported.kind).toBe("graphql");
    expect(imported.title).toBe("A small store.");
    expect(imported.operations.map((operation) => operation.operationId)).toEqual([
      "product",
      "products",
      "productCount",
      "oldSearch",
      "addProduct",
      "deleteProduct",
      "mutation_product",
    ]);
    expect(byId.get("products")?.extensions["x-mcp-annotations"]).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(byId.get("addProduct")?.extensions["x-mcp-annotations"]).toEqual({ readOnlyHint: false });
    expect(byId.get("mutation_product")?.graphql).toMatchObject({ operationType: "mutation", fieldName: "product" });
    expect(byId.get("oldSearch")).toMatchObject({ deprecated: true, description: "Deprecated: Use products." });
  });

  it("maps the arguments: scalars, enums, lists, required non-nulls, defaults, a recursive input object", () => {
    expect(byId.get("products")?.requestBody).toEqual({
      required: false,
      contentType: "application/json",
      schema: {
        type: "object",
        properties: {
          filter: { $ref: "#/$defs/ProductFilter" },
          first: { type: "integer", minimum: -2147483648, maximum: 2147483647, default: 10 },
          after: { type: "string" },
        },
        additionalProperties: false,
        $defs: {
          ProductFilter: {
            type: "object",
            description: "A product filter; combine filters with and/or.",
            properties: {
              category: { type: "string", enum: ["BOOKS", "GAMES", "TOYS"] },
              maxPrice: { type: "number" },
              nameContains: { type: "string" },
              and: { type: "array", items: { $ref: "#/$defs/ProductFilter" } },
              or: { type: "array", items: { $ref: "#/$defs/ProductFilter" } },
            },
            additionalProperties: false,
          },
        },
      },
    });
    const add = byId.get("addProduct")?.requestBody;
    expect(add?.required).toBe(true);
    expect(add?.schema.required).toEqual(["input"]);
    expect(add?.schema.$defs).toHaveProperty("NewProduct");
    expect((add?.schema.$defs as Record<string, unknown> | undefined)?.NewProduct).toMatchObject({
      required: ["name", "price"],
      properties: { category: { default: "BOOKS" }, tags: { type: "array", default: [] } },
    });
  });

  it("generates the selection to depth 2, cycles cut, fields with required arguments left out", () => {
    expect(byId.get("product")?.graphql?.document).toBe(
      "query product($id: ID!) { product(id: $id) { id name price category createdAt sku reviews { stars text } } }",
    );
    expect(byId.get("products")?.graphql?.document).toBe(
      "query products($filter: ProductFilter, $first: Int, $after: String) { products(filter: $filter, first: $first, after: $after) { id name price category createdAt sku reviews { stars text } } }",
    );
    expect(byId.get("productCount")?.graphql?.document).toBe("query productCount { productCount }");
  });

  it("derives the output schema from the selection, nullable values allowing null, a custom scalar noted", () => {
    const output = byId.get("product")?.responses[0]?.schema as { properties: { product: Record<string, unknown> } };
    expect(output.properties.product).toMatchObject({
      type: ["object", "null"],
      description: "A thing for sale.",
      properties: {
        id: { type: "string" },
        category: { enum: ["BOOKS", "GAMES", "TOYS"] },
        createdAt: { description: "DateTime: a custom GraphQL scalar" },
        sku: { type: ["string", "null"], deprecated: true, description: "Deprecated: Use id." },
        reviews: { type: "array", items: { type: "object", properties: { text: { type: ["string", "null"] } } } },
      },
    });
  });

  it("compiles every schema under a strict JSON Schema 2020-12 validator", () => {
    const ajv = new Ajv2020();
    for (const operation of imported.operations) {
      expect(() => ajv.compile(operation.requestBody?.schema ?? {})).not.toThrow();
      expect(() => ajv.compile(operation.responses[0]?.schema ?? {})).not.toThrow();
    }
    const validate = ajv.compile(byId.get("products")?.requestBody?.schema ?? {});
    expect(validate({ filter: { or: [{ category: "GAMES" }, { and: [{ maxPrice: 3 }] }] } })).toBe(true);
    expect(validate({ filter: { colour: "red" } })).toBe(false);
  });

  it("imports the introspection result of the same schema into the same operations", () => {
    const introspection = introspectionFromSchema(buildSchema(storeSdl));
    const fromJson = importGraphqlText(JSON.stringify({ data: introspection }));
    expect(fromJson.operations).toEqual(imported.operations);
    expect(importGraphqlText(JSON.stringify(introspection)).operations).toEqual(imported.operations);
  });

  it("refuses a schema whose tools would be stored past the node limit", () => {
    // 40 nested input objects of 40 fields, used by 1,500 fields: each tool carries all 40.
    const inputs = Array.from({ length: 40 }, (_, i) => {
      const fields = Array.from({ length: 40 }, (_, f) => `  f${f}: ${i < 39 ? `I${i + 1}` : "String"}`);
      return `input I${i} {\n${fields.join("\n")}\n}`;
    });
    const queries = Array.from({ length: 1_500 }, (_, q) => `  q${q}(x: I0): Int`);
    const error = importError(`${inputs.join("\n")}\ntype Query {\n${queries.join("\n")}\n}\n`);
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toContain("split the schema into several services");
  });

  it("refuses SDL nested past the depth limit before parsing it, at the line and column where it does", () => {
    // `{` and `(` open two levels: a type of 126 list levels reaches the limit of 128, one more passes it.
    const listOf = (levels: number) => `type Query {\n  f(a: ${"[".repeat(levels)}Int${"]".repeat(levels)}): Int\n}\n`;
    expect(importGraphqlText(listOf(126)).operations).toHaveLength(1);
    const error = importError(listOf(127));
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.location).toEqual({ line: 2, column: 134 });
    expect(error.message).toBe(
      "The GraphQL schema is nested more than 128 levels deep (line 2, column 134): no type needs that many " +
        "list levels, nor a value that many nested objects or lists; flatten it",
    );
    // Deep enough to exhaust the parser's stack, or to cost minutes: refused as fast.
    const started = performance.now();
    expect(importError(listOf(100_000)).location).toEqual({ line: 2, column: 134 });
    const nestedDefault = `type Query {\n  f(a: In): Int\n}\ninput In {\n  v: In = ${"{v: ".repeat(200)}null${"}".repeat(200)}\n}\n`;
    expect(importError(nestedDefault).location).toEqual({ line: 5, column: 519 });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("refuses introspection JSON nested past the depth limit, at its pointer, line and column", () => {
    const introspection = introspectionFromSchema(buildSchema("type Query {\n  f(a: [Int]): Int\n}\n"));
    const listType = '{"kind":"LIST","name":null,"ofType":{"name":"Int","kind":"SCALAR","ofType":null}}';
    const json = JSON.stringify(introspection).replace(listType, (list) => {
      const levels = 5_000;
      return `${'{"kind":"LIST","name":null,"ofType":'.repeat(levels)}${list}${"}".repeat(levels)}`;
    });
    expect(json.length).toBeGreaterThan(100_000);
    const started = performance.now();
    const error = importError(json);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toMatch(
      /^The GraphQL schema is nested more than 128 levels deep at \/__schema\/types\/0\/fields\/0\/args\/0\/type(\/ofType)+ \(line 1, column \d+\): /,
    );
    expect(error.location).toMatchObject({ line: 1, column: expect.any(Number) });
  });

  it("stores the output types and each operation's document head, which rebuild the stored documents", () => {
    const source = imported.graphql;
    expect(source?.roots.products).toEqual({
      type: "[Product!]!",
      head: "query products($filter: ProductFilter, $first: Int, $after: String) { products(filter: $filter, first: $first, after: $after)",
    });
    expect(source?.types.Category).toEqual({ kind: "enum", values: ["BOOKS", "GAMES", "TOYS"] });
    expect(source?.types.DateTime).toEqual({ kind: "scalar" });
    // related(limit: Int!) has a required argument: never selectable, so not stored.
    const product = source?.types.Product;
    expect(product?.kind === "object" && product.fields.map((field) => field.name)).not.toContain("related");
    for (const operation of imported.operations) {
      const root = source?.roots[operation.operationId];
      expect(operation.graphql?.document.startsWith(`${root?.head}`)).toBe(true);
    }
  });

  it("reports each subscription field as not published, and imports the rest", () => {
    const sdl = `${storeSdl}\ntype Subscription {\n  priceChanged(id: ID!): Product\n  newProduct: Product\n}\n`;
    const withSubscriptions = importGraphqlText(
      sdl.replace("mutation: Mutation", "mutation: Mutation\n  subscription: Subscription"),
    );
    expect(withSubscriptions.operations).toHaveLength(7);
    expect(withSubscriptions.warnings).toEqual([
      {
        code: "GRAPHQL_SUBSCRIPTION_NOT_EXPOSED",
        message:
          'Subscription field "priceChanged" is not published as a tool: a tool call has one answer, a subscription a stream of events',
      },
      {
        code: "GRAPHQL_SUBSCRIPTION_NOT_EXPOSED",
        message:
          'Subscription field "newProduct" is not published as a tool: a tool call has one answer, a subscription a stream of events',
      },
    ]);
  });

  it("leaves out, with a warning, a root field whose selection would pass the selected-fields budget", () => {
    const wide = (name: string, next: string | undefined) =>
      `type ${name} {\n${Array.from({ length: 500 }, (_, f) => `  f${f}: ${next ?? "Int"}`).join("\n")}\n}`;
    // Depth 2 selects W0's 500 fields, each selecting W1's 500 Int fields: 250,500 fields, past 250,000.
    const sdl = `${wide("W0", "W1")}\n${wide("W1", undefined)}\ntype Query {\n  huge: W0\n  small: Int\n}\n`;
    const result = importGraphqlText(sdl);
    expect(result.operations.map((operation) => operation.operationId)).toEqual(["small"]);
    expect(result.warnings).toEqual([
      {
        code: "GRAPHQL_SELECTION_TOO_LARGE",
        message:
          'Query field "huge" is not published as a tool: with the fields selected before it, its generated selection would take the Service past 250000 selected fields',
      },
    ]);
  });

  it("refuses SDL with a syntax error, saying where", () => {
    const error = importError("type Query {\n  product(id: ID!): Product\n  products: [Product!\n}\n");
    expect(error.code).toBe("GRAPHQL_SYNTAX");
    expect(error.location).toEqual({ line: 4, column: 1 });
    expect(error.message).toMatch(/line 4, column 1/);
  });

  it("keeps a field defined twice with the same arguments and type once, the first description, with a warning", () => {
    const sdl = 'type Query {\n  "A."\n  a(x: Int): Int\n  b: Int\n  "Not a."\n  a(x: Int): Int\n  b: Int\n}\n';
    const deduplicated = importGraphqlText(sdl);
    expect(deduplicated.operations.map((operation) => [operation.operationId, operation.summary])).toEqual([
      ["a", "A."],
      ["b", undefined],
    ]);
    expect(deduplicated.warnings).toEqual([
      {
        code: "GRAPHQL_DUPLICATE_FIELD_DROPPED",
        message:
          'Field "Query.a" is defined again (line 5, column 3) with the same arguments and type with another description (the first is kept): the second definition was dropped',
        location: { line: 5, column: 3 },
      },
      {
        code: "GRAPHQL_DUPLICATE_FIELD_DROPPED",
        message:
          'Field "Query.b" is defined again (line 7, column 3) with the same arguments and type: the second definition was dropped',
        location: { line: 7, column: 3 },
      },
    ]);
  });

  it("refuses a field defined twice differently, naming the place", () => {
    const error = importError("type Query {\n  a: Int\n  a: String\n}\n");
    expect(error.code).toBe("GRAPHQL_INVALID");
    expect(error.message).toContain('Field "Query.a" can only be defined once.');
    expect(error.location).toEqual({ line: 2, column: 3 });
  });

  it("refuses a type used but not defined, an introspection without __schema, and a schema without root fields", () => {
    expect(importError("type Query { a: Missing }").message).toMatch(/Unknown type "Missing"/);
    expect(importError('{"data": {"types": []}}').message).toMatch(/no '__schema'/);
    expect(importError("type Query").code).toBe("GRAPHQL_INVALID");
    expect(importError("   ").code).toBe("GRAPHQL_SYNTAX");
  });
});
