/** A custom tool's own GraphQL document resolved against a schema, without a database. */
import { buildSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { GraphqlDocumentRefused, resolveGraphqlDocument } from "./custom-document.ts";
import { storeSdl } from "./test-schemas.ts";

const schema = buildSchema(storeSdl);

describe("resolveGraphqlDocument", () => {
  it("merges a response key selected twice into one object", () => {
    const resolved = resolveGraphqlDocument(schema, {
      document: "query Q { product(id: 1) { id } product(id: 1) { name reviews { stars } reviews { text } } }",
    });
    const product = (resolved.outputSchema.properties as Record<string, { properties: Record<string, unknown> }>)
      .product;
    expect(Object.keys(product?.properties ?? {})).toEqual(["id", "name", "reviews"]);
    expect(product?.properties.reviews).toMatchObject({
      type: "array",
      items: { properties: { stars: { type: "integer" }, text: { type: ["string", "null"] } } },
    });
  });

  it("refuses a document nested past what it may hold, with a message, not a stack overflow", () => {
    const deep = `query Q { products { ${"related(limit: 1) { ".repeat(5_000)}id${" }".repeat(5_000)} } }`;
    expect(() => resolveGraphqlDocument(schema, { document: deep })).toThrow(GraphqlDocumentRefused);
  });
});
