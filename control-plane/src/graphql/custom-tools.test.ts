/**
 * Custom tools carrying their own GraphQL document, through the REST API on PGlite: resolved
 * against the Service's schema when written (operation, input schema from the variables, output
 * schema from the selection; both compile under strict Ajv2020), and refused with a located 422
 * when the document is not valid or does not fit the Service's kind, storing nothing.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createPetstore, useIsolatedControlPlane } from "../testing.ts";
import { storeSdl } from "./test-schemas.ts";

const upload = { "content-type": "text/plain" };

const productDocument = `query ProductCard($id: ID!, $reviews: Int = 2) {
  card: product(id: $id) {
    id
    name
    ... on Product { category }
    ...Pricing
    reviews(first: $reviews) { stars author { __typename name } }
  }
}
fragment Pricing on Product { price createdAt }`;

describe("custom GraphQL tools on pglite", () => {
  let graphqlId: string;
  let openapiId: string;
  const controlPlane = useIsolatedControlPlane("pglite", async (cp) => {
    const created = await cp.admin.call("POST", "/api/v1/services/import?name=store&version=1", storeSdl, upload);
    graphqlId = created.body.id;
    openapiId = await createPetstore(cp.admin);
  });
  let written = 0;
  const write = (serviceId: string, tools: unknown[]) =>
    controlPlane().admin.call("POST", "/api/v1/custom-tools", { name: `tools-${++written}`, serviceId, tools });
  const storedNames = async () =>
    (await controlPlane().admin.call("GET", "/api/v1/custom-tools")).body.items.map(
      (item: { name: string }) => item.name,
    );

  it("derives the call, the input schema from the variables and the output schema from the selection", async () => {
    const answer = await write(graphqlId, [
      { name: "product_card", description: "A product's card.", graphql: { document: productDocument } },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const [tool] = answer.body.tools;
    expect(tool.graphql).toMatchObject({
      document: productDocument,
      operationName: "ProductCard",
      operationType: "query",
      fieldName: "card",
    });
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        id: { type: "string", description: "A GraphQL ID." },
        reviews: { type: "integer", minimum: -2147483648, maximum: 2147483647, default: 2 },
      },
      required: ["id"],
      additionalProperties: false,
    });
    const card = tool.graphql.outputSchema.properties.card;
    expect(card.type).toEqual(["object", "null"]);
    // Stored as jsonb, whose keys are not kept in order.
    expect(Object.keys(card.properties).sort()).toEqual(["category", "createdAt", "id", "name", "price", "reviews"]);
    expect(card.properties.category).toEqual({ enum: ["BOOKS", "GAMES", "TOYS"] });
    expect(card.properties.reviews.items.properties.author.properties.__typename).toEqual({ type: "string" });
    const ajv = new Ajv2020();
    for (const schema of [tool.inputSchema, tool.graphql.outputSchema]) expect(() => ajv.compile(schema)).not.toThrow();
    const valid = ajv.compile(tool.graphql.outputSchema);
    const data = {
      card: { id: "1", name: "Dune", category: "BOOKS", price: 9.5, createdAt: null, reviews: [] },
    };
    expect(valid(data), JSON.stringify(valid.errors)).toBe(true);
    expect(valid({ card: { ...data.card, price: "9.5" } })).toBe(false);
  });

  it("keeps schemas given explicitly, picks the named operation, and marks mutations", async () => {
    const document = `query A { productCount }\nmutation Drop($id: ID!) { deleteProduct(id: $id) }`;
    const inputSchema = { type: "object", properties: { id: { type: "string", pattern: "^[0-9]+$" } } };
    const outputSchema = { type: "object", properties: { deleteProduct: { type: "boolean" } } };
    const answer = await write(graphqlId, [
      {
        name: "drop",
        description: "Drops one.",
        inputSchema,
        graphql: { document, operationName: "Drop", outputSchema },
      },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.tools[0].inputSchema).toEqual(inputSchema);
    expect(answer.body.tools[0].graphql).toMatchObject({
      operationType: "mutation",
      operationName: "Drop",
      outputSchema,
    });
  });

  it.each([
    [
      "a syntax error",
      { document: "query Q { product(id: 1) { name }" },
      "graphql.document",
      /Expected Name, found <EOF>.*line 1, column 34/,
    ],
    [
      "an unknown field",
      { document: "query Q {\n  product(id: 1) { colour }\n}" },
      "graphql.document",
      /Cannot query field "colour".*line 2, column 20/,
    ],
    [
      "an undeclared variable",
      { document: "query Q { product(id: $id) { name } }" },
      "graphql.document",
      /Variable "\$id" is not defined/,
    ],
    [
      "two operations without operationName",
      { document: "query A { productCount } query B { productCount }" },
      "graphql.operationName",
      /holds 2 operations/,
    ],
    [
      "an operationName the document lacks",
      { document: "query A { productCount }", operationName: "B" },
      "graphql.operationName",
      /no operation named B/,
    ],
    ["an anonymous operation", { document: "{ productCount }" }, "graphql.document", /name the operation/],
    ["a subscription", { document: "subscription S { productCount }" }, "graphql.document", /subscription/],
  ])("refuses %s with a located 422, storing nothing", async (_, graphql, field, message) => {
    const before = await storedNames();
    const answer = await write(graphqlId, [
      { name: "ok", description: "Fine.", graphql: { document: "query Ok { productCount }" } },
      { name: "bad", description: "Broken.", graphql },
    ]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.errors[0].field).toBe(`body.tools.1.${field}`);
    expect(answer.body.errors[0].message).toMatch(message);
    expect(await storedNames()).toEqual(before);
  });

  it("refuses an HTTP template on a graphql Service and a GraphQL document on an openapi one, also on update", async () => {
    const template = await write(graphqlId, [{ name: "t", description: "T.", request: { method: "GET", path: "/x" } }]);
    expect(template.status).toBe(422);
    expect(template.body.errors[0]).toMatchObject({ field: "body.tools.0.request" });
    expect(template.body.errors[0].message).toMatch(/graphql Service.*instead of an HTTP request template/);
    const document = await write(openapiId, [{ name: "g", description: "G.", graphql: { document: "query G { a }" } }]);
    expect(document.status).toBe(422);
    expect(document.body.errors[0]).toMatchObject({ field: "body.tools.0.graphql" });
    expect(document.body.errors[0].message).toMatch(/needs a graphql Service/);

    const stored = await write(openapiId, [{ name: "t", description: "T.", request: { method: "GET", path: "/x" } }]);
    expect(stored.status).toBe(201);
    const moved = await controlPlane().admin.call("PUT", `/api/v1/custom-tools/${stored.body.id}`, {
      name: stored.body.name,
      serviceId: graphqlId,
      tools: [{ name: "t", description: "T.", request: { method: "GET", path: "/x" } }],
    });
    expect(moved.status).toBe(422);
    const after = await controlPlane().admin.call("GET", `/api/v1/custom-tools/${stored.body.id}`);
    expect(after.body.serviceId).toBe(openapiId);
  });

  it("refuses both or neither of a request template and a GraphQL document (400)", async () => {
    const both = await write(graphqlId, [
      { name: "b", description: "B.", request: { method: "GET", path: "/x" }, graphql: { document: "query B { a }" } },
    ]);
    expect(both.status).toBe(400);
    expect(both.body.errors[0].message).toMatch(/exactly one of request, graphql/);
    const neither = await write(graphqlId, [{ name: "n", description: "N." }]);
    expect(neither.status).toBe(400);
  });
});
