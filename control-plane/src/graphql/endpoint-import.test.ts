/**
 * A GraphQL schema imported from its endpoint: the control plane sends the introspection query
 * (POST) to a real graphql-http server, through the SSRF guard and the import worker, and
 * imports the same operations as from the SDL. Refused in words, never echoing the answer: an
 * endpoint with introspection disabled (errors in a 200 or a 4xx answer), an answer that is not a
 * GraphQL result, an endpoint that cannot be reached.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createHandler } from "graphql-http/lib/use/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOpenApi } from "../openapi/import.ts";
import { parseAllowHosts } from "../openapi/ssrf-policy.ts";
import { importError } from "../openapi/test-documents.ts";
import { importGraphqlText } from "./import.ts";
import { storeSdl } from "./test-schemas.ts";

const secret = "internalSecret7f3a";
// graphql-http loads graphql as Node does (CommonJS); the test's own import is Vite's ESM copy,
// whose schemas graphql-http would refuse as from "another realm".
const { buildSchema, NoSchemaIntrospectionCustomRule, specifiedRules } = createRequire(import.meta.url)(
  "graphql",
) as typeof import("graphql");
const schema = buildSchema(storeSdl);

const routes: Record<string, RequestListener> = {
  "/graphql": createHandler({ schema }),
  "/private/graphql": createHandler({ schema, validationRules: [...specifiedRules, NoSchemaIntrospectionCustomRule] }),
  "/strict/graphql": (_request, response) => {
    response.writeHead(400, { "content-type": "application/graphql-response+json" });
    response.end(JSON.stringify({ errors: [{ message: `introspection is off ${secret}` }] }));
  },
  "/page": (_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<html>${secret}</html>`);
  },
  "/status": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ status: secret }));
  },
};

describe("GraphQL schema from its endpoint's introspection", () => {
  let server: Server;
  let base: string;
  let methods: string[];
  const allowed = { fetchPolicy: { allow: parseAllowHosts("127.0.0.3") }, kind: "graphql" as const };

  beforeAll(async () => {
    methods = [];
    server = createServer((request, response) => {
      methods.push(`${request.method} ${request.url}`);
      const route = routes[request.url ?? ""];
      if (route) route(request, response);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.3", resolve));
    base = `http://127.0.0.3:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it("refuses a loopback endpoint by default, sending it nothing", async () => {
    const sent = methods.length;
    const error = await importError({ url: `${base}/graphql` }, { kind: "graphql" });
    expect(error.code).toBe("OPENAPI_URL_FORBIDDEN");
    expect(methods).toHaveLength(sent);
  });

  it("POSTs the introspection query to an endpoint URL and imports the schema it answers", async () => {
    const imported = await importOpenApi({ url: `${base}/graphql` }, allowed);
    expect(methods.at(-1)).toBe("POST /graphql");
    expect(imported.kind).toBe("graphql");
    expect(imported.operations).toEqual(importGraphqlText(storeSdl).operations);
  });

  it("refuses an endpoint whose introspection is disabled, whether it answers 200 or 400", async () => {
    for (const path of ["/private/graphql", "/strict/graphql"]) {
      const error = await importError({ url: `${base}${path}` }, allowed);
      expect(error.code, path).toBe("GRAPHQL_INTROSPECTION_REFUSED");
      expect(error.message).toContain("introspection is disabled or refused");
      expect(error.message).not.toContain(secret);
    }
  });

  it("refuses a URL whose answer is not a GraphQL result, never quoting it", async () => {
    for (const path of ["/page", "/status"]) {
      const error = await importError({ url: `${base}${path}` }, allowed);
      expect(error.code, path).toBe("GRAPHQL_NOT_AN_ENDPOINT");
      expect(error.message).toContain("give the URL of the GraphQL endpoint");
      expect(error.message).not.toContain(secret);
    }
  });

  it("refuses an endpoint that cannot be reached, saying so", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.3", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const error = await importError({ url: `http://127.0.0.3:${port}/graphql` }, allowed);
    expect(error.code).toBe("OPENAPI_FETCH");
    expect(error.message).toContain(
      `Could not fetch http://127.0.0.3:${port}/graphql: the connection failed (ECONNREFUSED)`,
    );
  });

  it("downloads a URL naming a file (.graphql, .gql, .graphqls, .json) with GET, as before", async () => {
    const error = await importError({ url: `${base}/schema.json` }, allowed);
    expect(methods.at(-1)).toBe("GET /schema.json");
    expect(error.code).toBe("OPENAPI_FETCH");
  });
});
