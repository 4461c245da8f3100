/**
 * GraphQL backends end to end: a real GraphQL server (graphql-http executing the importer's store
 * schema with resolvers, one of which throws for partial data and one of which is slow) published
 * through a control plane and a gateway, its tools listed and called by the official clients (v1
 * in a 2025-11-25 session, v2 pinned to 2026-07-28) with the plan's API key. The plan's backend
 * secret and header policy reach the GraphQL server; the plan's timeout ends the slow call. Both
 * clients check each result against their schema of the protocol, and structuredContent against
 * the tool's outputSchema; every listed schema also compiles in a strict Ajv2020.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import { expose, storeSdl, useDuringTests } from "@atrium/control-plane/testing";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { createHandler } from "graphql-http/lib/use/http";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { listenLocally, officialClients, type Stack, useStack, waitFor, withClient } from "./testing.ts";
import { GRAPHQL_ACCEPT } from "./tools/graphql-tool.ts";

// graphql-http loads graphql as Node resolves it (its CommonJS main); a schema built by another copy
// (the ES module a bundler would pick) is refused as "from another realm".
const { buildSchema } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

const BACKEND_KEY = "graphql-backend-key-3f9c";
const SLOW_MS = 1_500;
const TIMEOUT_MS = 400;

const dune = { id: "p1", name: "Dune", price: 9.5, category: "BOOKS", createdAt: "2024-05-01T10:00:00Z", sku: null };
const reviews = [{ stars: 5, text: "A classic." }];

/** The store's resolvers: fields of the returned objects resolve by name (a function is called with the field's arguments). */
const rootValue = {
  product: ({ id }: { id: string }) => {
    if (id === "boom") throw new Error("the shelf is locked");
    if (id === "partial")
      return {
        ...dune,
        createdAt: () => {
          throw new Error("the clock is broken");
        },
        reviews,
      };
    return id === dune.id ? { ...dune, reviews: ({ first }: { first: number }) => reviews.slice(0, first) } : null;
  },
  products: ({ first }: { first: number }) => [{ ...dune, reviews }].slice(0, first),
  productCount: () => 1,
  oldSearch: async ({ text }: { text: string }) => {
    if (text === "slow") await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    return [];
  },
  addProduct: ({ input }: { input: Record<string, unknown> }) => ({ id: "p2", ...input, reviews: [] }),
  deleteProduct: () => true,
};

type Seen = { url: string | undefined; headers: IncomingHttpHeaders };

/** graphql-http at exactly `/graphql?tenant=t1` (404 anywhere else: the gateway appends nothing). */
async function startGraphqlBackend() {
  const handler = createHandler({ schema: buildSchema(storeSdl), rootValue });
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    if (req.url !== "/graphql?tenant=t1") {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    handler(req, res);
  });
  return { ...(await listenLocally(server)), seen };
}

let url: string;
let apiKey: string;
let narrowedUrl: string;
let narrowedKey: string;
let gateway: Gateway;

const backend = useDuringTests(startGraphqlBackend, (started) => started.close());
useStack(async (stack: Stack) => {
  const admin = stack.controlPlane.admin;
  const secret = await admin.call("POST", "/api/v1/secrets", { name: "graphql-key", value: BACKEND_KEY });
  const exposeStore = (name: string, plan: Record<string, unknown>) =>
    expose(admin, name, {
      groupId: stack.groupId,
      service: { kind: "graphql", openapi: { inline: storeSdl } },
      plan: {
        backendEndpoint: `${backend().url}/graphql?tenant=t1`,
        apiKey: true,
        backendSecret: { secretId: secret.body.id, in: "header", name: "X-Backend-Key" },
        headerPolicy: { setRequestHeaders: { "X-Caller": "atrium" } },
        ...plan,
      },
    });
  const exposed = await exposeStore("store", { backendTimeoutMs: TIMEOUT_MS });
  // The same schema narrowed by a plan (issue 22): `products` always asks for the first 0 (the default is 10).
  const narrowed = await exposeStore("store-narrowed", {
    toolOverrides: { products: { fixedArguments: { first: 0 } } },
  });
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(exposed.expositionId) !== undefined, "the store exposition served");
  await waitFor(() => gateway.registry.byId(narrowed.expositionId) !== undefined, "the narrowed store served");
  url = `${gateway.url}/mcp/${exposed.expositionId}`;
  apiKey = exposed.apiKey ?? "";
  narrowedUrl = `${gateway.url}/mcp/${narrowed.expositionId}`;
  narrowedKey = narrowed.apiKey ?? "";
});

const clients = officialClients(() => ({ url, apiKey }));

const textOf = (result: unknown) => JSON.stringify((result as { content?: unknown }).content);

describe.each(clients)("GraphQL tools with the official client ($era)", ({ connect }) => {
  it("lists a tool per Query and Mutation field, every schema compiling in a strict Ajv2020", async () => {
    await withClient(connect, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        "product",
        "products",
        "productCount",
        "oldSearch",
        "addProduct",
        "deleteProduct",
        "mutation_product",
      ]);
      expect(tools.find((tool) => tool.name === "products")?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((tool) => tool.name === "addProduct")?.annotations).toMatchObject({ readOnlyHint: false });
      for (const tool of tools) {
        for (const schema of [tool.inputSchema, tool.outputSchema]) {
          if (!schema) continue;
          const ajv = new Ajv2020();
          ajvFormats.default(ajv);
          expect(() => ajv.compile(schema), `${tool.name}: ${JSON.stringify(schema)}`).not.toThrow();
        }
      }
    });
  });

  it("calls queries and mutations: data becomes structuredContent, valid against the outputSchema", async () => {
    await withClient(connect, async (client) => {
      const one = await client.callTool({ name: "product", arguments: { id: "p1" } });
      expect(one.isError).toBeFalsy();
      expect(one.structuredContent).toEqual({ product: { ...dune, reviews } });
      expect(one.content).toEqual([{ type: "text", text: JSON.stringify(one.structuredContent) }]);
      expect(one._meta).toMatchObject({ "dev.atrium/backendStatus": 200 });

      const list = await client.callTool({
        name: "products",
        arguments: { first: 1, filter: { category: "BOOKS", or: [{ maxPrice: 10 }] } },
      });
      expect(list.structuredContent).toEqual({ products: [{ ...dune, reviews }] });

      const added = await client.callTool({ name: "addProduct", arguments: { input: { name: "Emma", price: 4 } } });
      expect(added.isError).toBeFalsy();
      // The server applied the input's defaults (category BOOKS, no tags).
      expect(added.structuredContent).toMatchObject({
        addProduct: { id: "p2", name: "Emma", price: 4, category: "BOOKS", reviews: [] },
      });
      expect((await client.callTool({ name: "productCount", arguments: {} })).structuredContent).toEqual({
        productCount: 1,
      });
    });
  });

  it("makes errors a tool error with message and path, keeping partial data", async () => {
    await withClient(connect, async (client) => {
      const failed = await client.callTool({ name: "product", arguments: { id: "boom" } });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain("GraphQL errors:\\n- the shelf is locked (at product)");
      expect(failed.structuredContent).toEqual({ product: null });

      const partial = await client.callTool({ name: "product", arguments: { id: "partial" } });
      expect(partial.isError).toBe(true);
      expect(textOf(partial)).toContain("- the clock is broken (at product.createdAt)");
      expect(partial.structuredContent).toEqual({ product: { ...dune, createdAt: null, reviews } });
    });
  });

  it("refuses invalid arguments before calling, and ends a slow call at the plan's timeout", async () => {
    await withClient(connect, async (client) => {
      const invalid = await client.callTool({ name: "product", arguments: { id: 7 } });
      expect(invalid).toMatchObject({
        isError: true,
        content: [{ type: "text", text: "Invalid arguments:\n- id: must be string" }],
      });
      const slow = await client.callTool({ name: "oldSearch", arguments: { text: "slow" } });
      expect(slow).toMatchObject({
        isError: true,
        content: [
          { type: "text", text: `HTTP 504 Gateway Timeout\nThe backend did not answer within ${TIMEOUT_MS} ms.` },
        ],
      });
    });
  });
});

describe.each(officialClients(() => ({ url: narrowedUrl, apiKey: narrowedKey })))(
  "a GraphQL plan with a fixed argument, with the official client ($era)",
  ({ connect }) => {
    it("sends a plan's fixed argument as a variable, and lists the tool without it", async () => {
      await withClient(connect, async (client) => {
        const { tools } = await client.listTools();
        const products = tools.find((tool) => tool.name === "products");
        expect(Object.keys(products?.inputSchema.properties ?? {}).sort()).toEqual(["after", "filter"]);
        const result = await client.callTool({ name: "products", arguments: { filter: { category: "BOOKS" } } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toEqual({ products: [] }); // first: 0 reached the server
      });
    });
  },
);

describe("the GraphQL server", () => {
  it("got POSTs at the endpoint itself, with the GraphQL media types, the backend secret and the header policy", () => {
    const calls = backend().seen;
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.url).toBe("/graphql?tenant=t1");
      expect(call.headers).toMatchObject({
        "content-type": "application/json",
        accept: GRAPHQL_ACCEPT,
        "x-backend-key": BACKEND_KEY,
        "x-caller": "atrium",
      });
      expect(call.headers["x-atrium-key"]).toBeUndefined();
    }
  });
});
