/**
 * A GraphQL schema downloaded from a URL (SDL), through the worker and behind the SSRF guard, as
 * OpenAPI documents are: refused on loopback by default, imported when the host is allowed, and a
 * broken downloaded schema told without a word of its content.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOpenApi } from "../openapi/import.ts";
import { parseAllowHosts } from "../openapi/ssrf-policy.ts";
import { importError } from "../openapi/test-documents.ts";
import { storeSdl } from "./test-schemas.ts";

const secret = "internalSecret51c0";

describe("GraphQL schema from a URL", () => {
  let server: Server;
  let base: string;
  const allowed = { fetchPolicy: { allow: parseAllowHosts("127.0.0.2") }, kind: "graphql" as const };

  beforeAll(async () => {
    server = createServer((request, response) =>
      response.end(request.url === "/schema.graphql" ? storeSdl : `type Query {\n  ${secret}: [Int\n}\n`),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.2", resolve));
    base = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it("refuses a loopback address by default", async () => {
    const error = await importError({ url: `${base}/schema.graphql` }, { kind: "graphql" });
    expect(error.code).toBe("OPENAPI_URL_FORBIDDEN");
  });

  it("imports the schema from an allowed host", async () => {
    const imported = await importOpenApi({ url: `${base}/schema.graphql` }, allowed);
    expect(imported.kind).toBe("graphql");
    expect(imported.operations).toHaveLength(7);
  });

  it("refuses a broken downloaded schema with its line, never its content", async () => {
    const error = await importError({ url: `${base}/broken.graphql` }, allowed);
    expect(error.code).toBe("GRAPHQL_SYNTAX");
    expect(error.location).toEqual({ line: 3, column: 1 });
    expect(error.message).not.toContain(secret);
  });
});
