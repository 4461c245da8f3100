import { importGraphqlText, storeSdl } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { exposition } from "./fixtures.ts";
import { GRAPHQL_ACCEPT } from "./graphql-tool.ts";
import { joinBackendUrl, parseBackendEndpoint } from "./request.ts";
import type { BackendResponse } from "./result.ts";
import { planCall, type ToolRuntime } from "./runtime.ts";

const imported = importGraphqlText(storeSdl);
const toolset = compileToolset(exposition({ operations: imported.operations }));
const options = { maxBytes: 64 * 1024 };

function runtime(name: string): ToolRuntime {
  const found = toolset.get(name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

function answer(status: number, body: unknown, contentType = "application/graphql-response+json"): BackendResponse {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return { status, headers: { "content-type": contentType }, body: Buffer.from(text) };
}

const product = { id: "p1", name: "Dune", price: 9.5, category: "BOOKS", createdAt: null, sku: null, reviews: [] };

describe("GraphQL tools", () => {
  it("lists one tool per Query and Mutation field, queries read-only, with the importer's schemas", () => {
    expect(toolset.warnings).toEqual([]);
    expect(toolset.tools.map((tool) => tool.name)).toEqual([
      "product",
      "products",
      "productCount",
      "oldSearch",
      "addProduct",
      "deleteProduct",
      "mutation_product",
    ]);
    const productTool = runtime("product").tool;
    expect(productTool).toMatchObject({
      title: "One product by id.",
      description: "One product by id.",
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true },
      inputSchema: { type: "object", required: ["id"], additionalProperties: false },
      outputSchema: { type: "object", properties: { product: { type: ["object", "null"] } } },
    });
    expect(runtime("addProduct").tool.annotations).toMatchObject({ readOnlyHint: false });
    expect(runtime("productCount").tool.description).toBe("GraphQL query productCount");
    expect(runtime("products").tool.inputSchema.$defs).toHaveProperty("ProductFilter");
  });

  it("posts the document with the arguments as variables to the endpoint itself", () => {
    const request = runtime("products").buildRequest({ first: 2, filter: { category: "BOOKS" } });
    expect(request).toMatchObject({
      method: "POST",
      path: "",
      headers: { accept: GRAPHQL_ACCEPT },
      contentType: "application/json",
    });
    const call = imported.operations.find((operation) => operation.operationId === "products")?.graphql;
    expect(JSON.parse(String(request.body))).toEqual({
      query: call?.document,
      operationName: "products",
      variables: { first: 2, filter: { category: "BOOKS" } },
    });
    for (const [endpoint, target] of [
      ["https://api.example.com/graphql", "/graphql"],
      ["https://api.example.com/graphql/", "/graphql/"],
      ["https://api.example.com", "/"],
      ["https://api.example.com/v1/graphql?tenant=t1", "/v1/graphql?tenant=t1"],
    ] as const) {
      expect(joinBackendUrl(parseBackendEndpoint(endpoint), request.path).path).toBe(target);
    }
  });

  it("validates the arguments against the input schema", () => {
    expect(runtime("product").validate({})).toEqual(["id: is required"]);
    expect(runtime("product").validate({ id: "p1", color: "red" })).toEqual(["color: is not expected"]);
    expect(runtime("products").validate({ filter: { category: "FOOD" } })).toEqual([
      'filter.category: must be one of "BOOKS", "GAMES", "TOYS"',
    ]);
    expect(runtime("productCount").validate(undefined)).toEqual([]);
  });
});

describe("GraphQL results", () => {
  const toResult = (name: string, response: BackendResponse) => runtime(name).toResult(response, options);

  it("makes data the structuredContent, matching the outputSchema, with its JSON as text", () => {
    const result = toResult("product", answer(200, { data: { product } }));
    expect(result).toEqual({
      content: [{ type: "text", text: JSON.stringify({ product }) }],
      structuredContent: { product },
      _meta: { "dev.atrium/backendStatus": 200 },
    });
    expect(toResult("productCount", answer(200, { data: { productCount: 3 } }, "application/json"))).toMatchObject({
      structuredContent: { productCount: 3 },
    });
  });

  it("makes errors a tool error with each message and path; partial data stays when it matches", () => {
    const partial = toResult(
      "product",
      answer(200, {
        errors: [
          { message: "createdAt failed", path: ["product", "createdAt"], extensions: { code: "INTERNAL" } },
          { message: "reviews[1] failed", path: ["product", "reviews", 1, "text"] },
        ],
        data: { product },
      }),
    );
    expect(partial.isError).toBe(true);
    expect(partial.structuredContent).toEqual({ product });
    expect(partial.content).toEqual([
      {
        type: "text",
        text: [
          "GraphQL errors:",
          "- createdAt failed (at product.createdAt) [INTERNAL]",
          "- reviews[1] failed (at product.reviews[1].text)",
          `Partial data:\n${JSON.stringify({ product })}`,
        ].join("\n"),
      },
    ]);
    // Partial data the outputSchema does not describe is text only.
    const stray = toResult(
      "product",
      answer(200, { errors: [{ message: "odd" }], data: { product: { ...product, price: "free" } } }),
    );
    expect(stray.isError).toBe(true);
    expect(stray.structuredContent).toBeUndefined();
    expect(JSON.stringify(stray.content)).toContain('\\"price\\":\\"free\\"');
  });

  it("reads a non-2xx GraphQL answer's errors after its status line", () => {
    const result = toResult(
      "product",
      answer(400, { errors: [{ message: 'Variable "$id" of required type "ID!" was not provided.' }] }),
    );
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'HTTP 400 Bad Request\nGraphQL errors:\n- Variable "$id" of required type "ID!" was not provided.',
        },
      ],
      isError: true,
      _meta: { "dev.atrium/backendStatus": 400 },
    });
  });

  it("says so when the answer is no GraphQL response", () => {
    const html = toResult("product", answer(502, "<html>Bad gateway</html>", "text/html"));
    expect(html).toMatchObject({
      content: [{ type: "text", text: "HTTP 502 Bad Gateway\n<html>Bad gateway</html>" }],
      isError: true,
    });
    for (const response of [
      answer(200, "<html>login</html>", "text/html"),
      answer(200, { product }),
      answer(200, "not json", "application/json"),
      { ...answer(200, { data: { product } }), truncated: true },
    ]) {
      const result = toResult("product", response);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(result.content[0]).toEqual({
        type: "text",
        text: "HTTP 200 OK\nThe GraphQL endpoint's answer is not a GraphQL response (a JSON object with data or errors within the size limit):",
      });
    }
  });

  it("makes data that breaks the outputSchema an error that says why", () => {
    const result = toResult("product", answer(200, { data: { product: { ...product, price: "free" } } }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]).toEqual({
      type: "text",
      text: "The backend's response does not match the tool's output schema:\n- product.price: must be number",
    });
  });

  it("lists at most 20 errors and a null data as no data", () => {
    const errors = Array.from({ length: 25 }, (_, index) => ({ message: `e${index}` }));
    const result = toResult("product", answer(200, { errors, data: null }));
    const text = String((result.content[0] as { text: string }).text);
    expect(text).toContain("- e19\n… and 5 more");
    expect(text).not.toContain("Partial data");
    expect(result.structuredContent).toBeUndefined();
    expect(toResult("product", answer(200, { data: null }))).toMatchObject({
      content: [{ type: "text", text: "The GraphQL endpoint answered no data and no errors." }],
      isError: true,
    });
  });
});

describe("GraphQL tools in Discovery mode", () => {
  const discovery = compileToolset(exposition({ operations: imported.operations, mode: "Discovery" }));
  const invoke = discovery.get("invoke_tool");

  it("invoke_tool posts the named tool's document and reads its answer as GraphQL", () => {
    const plan = invoke && planCall(invoke, { name: "product", arguments: { id: "p1" } });
    expect(JSON.parse(String(plan?.request?.body))).toMatchObject({
      operationName: "product",
      variables: { id: "p1" },
    });
    const failed = plan?.runtime?.toResult(
      answer(200, { errors: [{ message: "locked", path: ["product"] }], data: { product: null } }),
      options,
    );
    expect(failed).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'GraphQL errors:\n- locked (at product)\nPartial data:\n{"product":null}' }],
    });
    // invoke_tool declares no outputSchema: data that breaks the named tool's is passed on.
    const stray = plan?.runtime?.toResult(answer(200, { data: { product: { price: "free" } } }), options);
    expect(stray).toMatchObject({ structuredContent: { product: { price: "free" } } });
    expect(stray?.isError).toBeUndefined();
  });
});
