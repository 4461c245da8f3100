/**
 * A plan's selection depth: the stored operations rebuilt at depths 1 to 5 from the stored output
 * types, each document valid against the schema, and each output schema validating what
 * graphql-js (the reference implementation) answers when it executes that document over data
 * with a cycle in it.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { buildSchema, graphql, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { thrown } from "../testing.ts";
import { importGraphqlText } from "./import.ts";
import { operationsAtDepth, SelectionDepthRefused } from "./plan-depth.ts";
import { deepSdl, storeSdl } from "./test-schemas.ts";

const schema = buildSchema(storeSdl);
const imported = importGraphqlText(storeSdl);
const service = { id: "3f2c9a7e-1b4d-4c52-9a8e-2f1d0c6b7a91", updatedAt: new Date(), document: imported };

// Ada's favourite product is the product she reviewed: a cycle the selection must cut.
const product: Record<string, unknown> = {
  id: "p1",
  name: "Go",
  price: 12.5,
  category: "GAMES",
  createdAt: "2026-01-01T00:00:00Z",
  sku: null,
};
const ada = { id: "c1", name: "Ada", favourite: product };
product.reviews = [{ stars: 5, text: null, author: ada }];
product.related = [];
const rootValue = {
  product: () => product,
  products: () => [product],
  productCount: () => 1,
  oldSearch: () => [product],
};

function byId(depth: number) {
  return new Map(operationsAtDepth(service, imported.operations, depth).map((op) => [op.operationId, op]));
}

describe("operationsAtDepth", () => {
  it("gives the stored operations at the default depth, and when no depth is set", () => {
    expect(operationsAtDepth(service, imported.operations, 2)).toBe(imported.operations);
    expect(operationsAtDepth(service, imported.operations, undefined)).toBe(imported.operations);
  });

  it("selects one object level at depth 1, and follows objects down to depth 4, the cycle cut", () => {
    expect(byId(1).get("product")?.graphql?.document).toBe(
      "query product($id: ID!) { product(id: $id) { id name price category createdAt sku } }",
    );
    expect(byId(4).get("product")?.graphql?.document).toBe(
      "query product($id: ID!) { product(id: $id) { id name price category createdAt sku reviews { stars text author { id name } } } }",
    );
    // Depth 3 already selects author's scalars; favourite would enter Product again, on the path.
    expect(byId(3).get("product")?.graphql?.document).toBe(byId(5).get("product")?.graphql?.document);
  });

  it("builds documents valid against the schema, whose output schemas validate what the server answers", async () => {
    const ajv = new Ajv2020();
    for (const depth of [1, 2, 3, 4, 5]) {
      for (const operation of operationsAtDepth(service, imported.operations, depth)) {
        const call = operation.graphql;
        if (call?.operationType !== "query") continue;
        expect(validate(schema, parse(call.document)), `${operation.operationId} at ${depth}`).toEqual([]);
        const answer = await graphql({
          schema,
          source: call.document,
          rootValue,
          variableValues: { id: "p1", text: "Go" },
        });
        expect(answer.errors, `${operation.operationId} at ${depth}`).toBeUndefined();
        const check = ajv.compile(operation.responses[0]?.schema ?? {});
        expect(check(JSON.parse(JSON.stringify(answer.data))), JSON.stringify(check.errors)).toBe(true);
      }
    }
  });

  it("refuses a depth whose selections pass the fields budget, and a Service imported before the types were stored", () => {
    const deep = importGraphqlText(deepSdl);
    const deepService = { id: "deep", updatedAt: new Date(), document: deep };
    // 40 + 40² fields at depth 3 (L2's asking for __typename); 40 + 40² + 40³ at depth 4, past 50,000.
    expect(operationsAtDepth(deepService, deep.operations, 3)[0]?.graphql?.document.length).toBeGreaterThan(25_000);
    expect(() => operationsAtDepth(deepService, deep.operations, 4)).toThrow(SelectionDepthRefused);
    expect(() => operationsAtDepth(deepService, deep.operations, 5)).toThrow(
      /at graphql.selectionDepth 5 the tools' selections come to more than 50000 fields: choose a smaller depth/,
    );
    const { graphql: _types, ...older } = imported;
    expect(() => operationsAtDepth({ ...service, document: older }, imported.operations, 3)).toThrow(
      /was imported before selection depths could be chosen: import its schema again/,
    );
    const outdated = thrown(
      () => operationsAtDepth({ ...service, document: older }, imported.operations, 3),
      SelectionDepthRefused,
    );
    expect(outdated.code).toBe("GRAPHQL_SERVICE_IMPORT_OUTDATED");
    expect(thrown(() => operationsAtDepth(deepService, deep.operations, 5), SelectionDepthRefused).code).toBe(
      "GRAPHQL_SELECTION_TOO_LARGE",
    );
  });

  it("reads types and operations named like Object's own properties as any other", () => {
    const odd = importGraphqlText(
      "type constructor {\n  a: Int\n  b: constructor\n}\ntype Query {\n  toString: constructor\n}\n",
    );
    const [operation] = operationsAtDepth({ id: "odd", updatedAt: new Date(), document: odd }, odd.operations, 3);
    expect(operation?.graphql?.document).toBe("query toString { toString { a } }");
  });

  it("keeps what it built for a Service version and depth", () => {
    expect(byId(3).get("products")).toBe(byId(3).get("products"));
  });
});
