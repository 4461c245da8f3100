/**
 * The services routes, on PGlite and on PostgreSQL: a Service imported from inline OpenAPI or
 * from an uploaded document lists its operations; an invalid document is refused with the
 * parser's message and location.
 */
import { describe, expect, it } from "vitest";
import { DATABASE_KINDS, sampleOpenApi, useIsolatedControlPlane } from "../testing.ts";

const petstore = sampleOpenApi();

describe.each(DATABASE_KINDS)("services on %s", (kind) => {
  const controlPlane = useIsolatedControlPlane(kind);

  it("imports a service from inline OpenAPI and lists its operations", async () => {
    const created = await controlPlane().admin.call("POST", "/api/v1/services", {
      name: "petstore",
      version: "1.0.0",
      openapi: { inline: petstore },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Pet Store", openapiVersion: "3.0.3", operationCount: 4 });
    const detail = await controlPlane().admin.call("GET", `/api/v1/services/${created.body.id}`);
    expect(detail.body.operations.map((op: { operationId: string }) => op.operationId)).toEqual([
      "listPets",
      "createPet",
      "getPet",
      "deletePet",
    ]);
  });

  it("imports an uploaded document and refuses an invalid one with the parser's message and location", async () => {
    const uploaded = await controlPlane().admin.call(
      "POST",
      "/api/v1/services/import?name=petstore-upload&version=2",
      petstore,
      {
        "content-type": "application/yaml",
      },
    );
    expect(uploaded.status).toBe(201);
    const broken = await controlPlane().admin.call("POST", "/api/v1/services", {
      name: "broken",
      version: "1",
      openapi: {
        inline: "openapi: 3.0.3\ninfo: { title: x, version: 1 }\npaths:\n  /x:\n    get:\n      responses: 12\n",
      },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.code).toMatch(/^OPENAPI_/);
    expect(broken.body.errors[0].field).toBe("body.openapi.inline");
    expect(broken.body.location).toBeDefined();
    const notYaml = await controlPlane().admin.call("POST", "/api/v1/services", {
      name: "junk",
      version: "1",
      openapi: { inline: "a: [1, 2" },
    });
    expect(notYaml).toMatchObject({ status: 422, body: { code: "OPENAPI_SYNTAX" } });
  });
});
