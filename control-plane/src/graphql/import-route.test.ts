/**
 * GraphQL Services through the REST API on PGlite: imported as an upload (the kind given, or told
 * from the content) or inline, refused with a located 422 when the SDL is invalid or nested past
 * the depth limit (nothing stored), and published by a plan at the endpoint's http(s) URL (the
 * gateways call GraphQL).
 */
import { buildSchema, introspectionFromSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { createPetstore, useIsolatedControlPlane } from "../testing.ts";
import { storeSdl } from "./test-schemas.ts";

const upload = { "content-type": "text/plain" };

describe("GraphQL Services through the REST API on pglite", () => {
  const controlPlane = useIsolatedControlPlane("pglite");

  it("imports SDL told from its content, and shows its kind and operations", async () => {
    const { admin } = controlPlane();
    const created = await admin.call("POST", "/api/v1/services/import?name=store&version=1", storeSdl, upload);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ kind: "graphql", title: "A small store.", operationCount: 7 });
    expect(created.body.openapiVersion).toBeUndefined();
    const detail = await admin.call("GET", `/api/v1/services/${created.body.id}`);
    expect(detail.body.operations[0]).toEqual({
      operationId: "product",
      method: "POST",
      path: "/",
      summary: "One product by id.",
    });
  });

  it("imports an introspection result as JSON, and inline SDL with kind graphql", async () => {
    const { admin } = controlPlane();
    const introspection = { data: introspectionFromSchema(buildSchema(storeSdl)) };
    const fromJson = await admin.call("POST", "/api/v1/services/import?name=store-json&version=1", introspection);
    expect(fromJson.status, JSON.stringify(fromJson.body)).toBe(201);
    expect(fromJson.body).toMatchObject({ kind: "graphql", operationCount: 7 });
    const inline = await admin.call("POST", "/api/v1/services", {
      name: "store-inline",
      version: "1",
      kind: "graphql",
      openapi: { inline: storeSdl },
    });
    expect(inline.status, JSON.stringify(inline.body)).toBe(201);
    expect(inline.body.kind).toBe("graphql");
  });

  it("refuses invalid SDL, and SDL nested past the depth limit, with its line and column, storing nothing", async () => {
    const { admin } = controlPlane();
    const sdl = "type Query {\n  a: Int\n  b: [Int\n}\n";
    const answer = await admin.call("POST", "/api/v1/services/import?name=broken&version=1&kind=graphql", sdl, upload);
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: "GRAPHQL_SYNTAX", location: { line: 4, column: 1 } });
    const deep = `type Query {\n  a(x: ${"[".repeat(5_000)}Int${"]".repeat(5_000)}): Int\n}\n`;
    const tooDeep = await admin.call(
      "POST",
      "/api/v1/services/import?name=broken&version=1&kind=graphql",
      deep,
      upload,
    );
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body).toMatchObject({ code: "OPENAPI_TOO_LARGE", location: { line: 2, column: 134 } });
    expect(tooDeep.body.detail).toContain("The GraphQL schema is nested more than 128 levels deep");
    const list = await admin.call("GET", "/api/v1/services");
    expect(JSON.stringify(list.body)).not.toContain("broken");
  });

  it("takes a plan on a GraphQL Service at its http(s) endpoint, and turning a planned Service into one", async () => {
    const { admin } = controlPlane();
    const created = await admin.call("POST", "/api/v1/services/import?name=store-plan&version=1", storeSdl, upload);
    const plan = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "store-plan",
      serviceId: created.body.id,
      backendEndpoint: "https://store.example.com/graphql",
    });
    expect(plan.status).toBe(201);

    const petstoreId = await createPetstore(admin);
    const petstorePlan = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "petstore-plan",
      serviceId: petstoreId,
      backendEndpoint: "https://petstore.example.com/api",
    });
    expect(petstorePlan.status).toBe(201);
    const before = await admin.call("GET", `/api/v1/services/${petstoreId}`);
    const turned = await admin.call("PUT", `/api/v1/services/${petstoreId}`, {
      name: before.body.name,
      version: before.body.version,
      kind: "graphql",
      openapi: { inline: storeSdl },
    });
    expect(turned.status).toBe(200);
    expect(turned.body).toMatchObject({ kind: "graphql", operationCount: 7 });
  });
});
