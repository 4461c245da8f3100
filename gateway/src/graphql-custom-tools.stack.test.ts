/**
 * Custom tools carrying their own GraphQL document, end to end: written to a control plane (which
 * resolves them against the Service's schema), streamed to a gateway and called by the official
 * clients (v1 in a 2025-11-25 session, v2 pinned to 2026-07-28) against a real GraphQL server
 * (graphql-http executing the importer's store schema). The server sees the tool's own document
 * and operation name with the arguments as variables; data becomes structuredContent, valid
 * against the outputSchema derived from the selection (aliases and fragments included), and every
 * listed schema compiles in a strict Ajv2020. A second plan filters a custom tool's answer (retain,
 * then TOON): the filter and the derived outputSchema apply to it as to an imported tool's.
 */
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { expose, storeSdl, useDuringTests } from "@atrium/control-plane/testing";
import { decode } from "@toon-format/toon";
import { Ajv2020 } from "ajv/dist/2020.js";
import { createHandler } from "graphql-http/lib/use/http";
import { describe, expect, it } from "vitest";
import { listenLocally, officialClients, type Stack, useStack, waitFor } from "./testing.ts";

// graphql-http loads graphql as Node resolves it (its CommonJS main): the schema must come from that copy.
const { buildSchema } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

const dune = { id: "p1", name: "Dune", price: 9.5, category: "BOOKS", createdAt: null };
const reviews = [{ stars: 5 }, { stars: 3 }, { stars: 4 }];

const rootValue = {
  product: ({ id }: { id: string }) =>
    id === dune.id ? { ...dune, reviews: ({ first }: { first: number }) => reviews.slice(0, first) } : null,
  productCount: () => 1,
  deleteProduct: ({ id }: { id: string }) => id === dune.id,
};

const cardDocument = `query ProductCard($id: ID!, $reviews: Int = 2) {
  card: product(id: $id) { id name ...Pricing reviews(first: $reviews) { stars } }
  count: productCount
}
fragment Pricing on Product { price category }`;

/** graphql-http at /graphql; each request's parameters kept, to see what the gateway sent. */
async function startBackend() {
  const bodies: { query: string; operationName?: string | null; variables?: unknown }[] = [];
  const handler = createHandler({
    schema: buildSchema(storeSdl),
    rootValue,
    onSubscribe: (_req, params) => {
      bodies.push({ ...params });
    },
  });
  return { ...(await listenLocally(createServer(handler))), bodies };
}

let url: string;
let apiKey: string;
let filteredUrl: string;
let filteredApiKey: string;
let admin: Stack["controlPlane"]["admin"];
let serviceId: string;
const backend = useDuringTests(startBackend, (started) => started.close());
const cardFilter = { retain: ["/card/name", "/card/reviews/*/stars", "/count"], format: "toon" };

useStack(async (stack: Stack) => {
  admin = stack.controlPlane.admin;
  const exposed = await expose(admin, "store", {
    groupId: stack.groupId,
    service: { kind: "graphql", openapi: { inline: storeSdl } },
    plan: { backendEndpoint: `${backend().url}/graphql`, apiKey: true },
  });
  const custom = await admin.call("POST", "/api/v1/custom-tools", {
    name: "store-extras",
    serviceId: exposed.serviceId,
    tools: [
      {
        name: "product_card",
        title: "Product card",
        description: "A product with its price.",
        graphql: { document: cardDocument },
      },
      {
        name: "drop_product",
        description: "Deletes a product.",
        graphql: { document: "mutation Drop($id: ID!) { deleteProduct(id: $id) }" },
        annotations: { destructiveHint: true },
      },
    ],
  });
  if (custom.status !== 201) throw new Error(`custom tools: ${custom.status} ${JSON.stringify(custom.body)}`);
  serviceId = exposed.serviceId;
  const filtered = await expose(admin, "store-filtered", {
    groupId: stack.groupId,
    serviceId,
    plan: {
      backendEndpoint: `${backend().url}/graphql`,
      apiKey: true,
      toolOutputFilters: { product_card: cardFilter },
    },
  });
  const gateway = await stack.startGateway();
  await waitFor(
    () => [exposed, filtered].every(({ expositionId }) => gateway.registry.byId(expositionId) !== undefined),
    "the store expositions served",
  );
  url = `${gateway.url}/mcp/${exposed.expositionId}`;
  apiKey = exposed.apiKey ?? "";
  filteredUrl = `${gateway.url}/mcp/${filtered.expositionId}`;
  filteredApiKey = filtered.apiKey ?? "";
});

const clients = officialClients(() => ({ url, apiKey }));

describe.each(clients)("custom GraphQL tools with the official client ($era)", ({ connect }) => {
  it("lists them beside the imported tools, with derived schemas that compile in a strict Ajv2020", async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      const card = tools.find((tool) => tool.name === "product_card");
      const drop = tools.find((tool) => tool.name === "drop_product");
      expect(tools.some((tool) => tool.name === "product")).toBe(true);
      expect(card).toMatchObject({
        title: "Product card",
        description: "A product with its price.",
        inputSchema: { type: "object", required: ["id"] },
        annotations: { readOnlyHint: true },
      });
      expect(Object.keys(card?.outputSchema?.properties ?? {}).sort()).toEqual(["card", "count"]);
      expect(drop?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      for (const tool of [card, drop])
        for (const schema of [tool?.inputSchema, tool?.outputSchema])
          expect(() => new Ajv2020().compile(schema ?? {}), JSON.stringify(schema)).not.toThrow();
    } finally {
      await client.close();
    }
  });

  it("calls them with their own document: data as structuredContent, errors as isError", async () => {
    const client = await connect();
    try {
      const sent = backend().bodies.length;
      const card = await client.callTool({ name: "product_card", arguments: { id: "p1" } });
      expect(card.isError).toBeFalsy();
      expect(card.structuredContent).toEqual({
        card: { id: "p1", name: "Dune", price: 9.5, category: "BOOKS", reviews: reviews.slice(0, 2) },
        count: 1,
      });
      expect(backend().bodies[sent]).toEqual({
        query: cardDocument,
        operationName: "ProductCard",
        variables: { id: "p1" },
      });
      const three = await client.callTool({ name: "product_card", arguments: { id: "p1", reviews: 3 } });
      expect((three.structuredContent as { card: { reviews: unknown[] } }).card.reviews).toHaveLength(3);
      expect((await client.callTool({ name: "drop_product", arguments: { id: "p1" } })).structuredContent).toEqual({
        deleteProduct: true,
      });
      const invalid = await client.callTool({ name: "product_card", arguments: { id: 7 } });
      expect(invalid).toMatchObject({
        isError: true,
        content: [{ type: "text", text: "Invalid arguments:\n- id: must be string" }],
      });
      const missing = await client.callTool({ name: "product_card", arguments: { id: "nope" } });
      expect(missing.isError).toBeFalsy();
      expect(missing.structuredContent).toEqual({ card: null, count: 1 });
    } finally {
      await client.close();
    }
  });
});

const filteredClients = officialClients(() => ({ url: filteredUrl, apiKey: filteredApiKey }));

describe.each(filteredClients)(
  "a custom GraphQL tool's output filter with the official client ($era)",
  ({ connect }) => {
    it("returns what retain keeps, TOON in the text, valid against the outputSchema derived from its selection", async () => {
      const client = await connect();
      try {
        const card = (await client.listTools()).tools.find((tool) => tool.name === "product_card");
        expect(card?.outputSchema).toMatchObject({
          type: "object",
          properties: {
            card: { properties: { name: {}, reviews: { items: { properties: { stars: {} } } } } },
            count: {},
          },
        });
        const properties = card?.outputSchema?.properties as Record<string, { properties?: object }> | undefined;
        const cardSchema = properties?.card;
        expect(Object.keys(cardSchema?.properties ?? {}).sort()).toEqual(["name", "reviews"]);
        const answer = await client.callTool({ name: "product_card", arguments: { id: "p1" } });
        const kept = { card: { name: "Dune", reviews: reviews.slice(0, 2) }, count: 1 };
        expect(answer.isError).toBeFalsy();
        expect(answer.structuredContent).toEqual(kept);
        const [text] = answer.content as { type: string; text: string }[];
        expect(decode(text?.text ?? "")).toEqual(kept);
        expect(new Ajv2020().validate(card?.outputSchema ?? {}, answer.structuredContent)).toBe(true);
      } finally {
        await client.close();
      }
    });
  },
);

describe("a custom GraphQL tool's output filter, written", () => {
  it("warns when a patch makes the outputSchema of its selection impossible to derive", async () => {
    const written = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "store-patched",
      serviceId,
      backendEndpoint: `${backend().url}/graphql`,
      toolOutputFilters: { product_card: { patches: [{ op: "remove", path: "/card/reviews/0" }] } },
    });
    expect(written.status).toBe(201);
    expect(written.body.warnings).toEqual([
      expect.stringContaining("toolOutputFilters.product_card: patches[0] (remove /card/reviews/0)"),
    ]);
  });
});
