/**
 * Fixed arguments on GraphQL and gRPC tools: their arguments are the request body's members (a
 * GraphQL operation's variables, a gRPC request message's fields), named as the gateway's
 * tools/list names them, never `body`.
 */
import { describe, expect, it } from "vitest";
import { storeSdl } from "../graphql/test-schemas.ts";
import { petstoreFiles } from "../grpc/test-protos.ts";
import { useIsolatedControlPlane } from "../testing.ts";

describe("fixed arguments on GraphQL and gRPC tools", () => {
  const controlPlane = useIsolatedControlPlane("pglite");

  async function serviceOf(kind: "graphql" | "grpc", openapi: Record<string, unknown>): Promise<string> {
    const created = await controlPlane().admin.call("POST", "/api/v1/services", {
      name: kind,
      version: "1",
      kind,
      openapi,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  const plan = (name: string, serviceId: string, backendEndpoint: string, toolOverrides: unknown) =>
    controlPlane().admin.call("POST", "/api/v1/configuration-plans", {
      name,
      serviceId,
      backendEndpoint,
      toolOverrides,
    });

  it("takes a GraphQL operation's variables, checked against their schema, and refuses body", async () => {
    const serviceId = await serviceOf("graphql", { inline: storeSdl });
    const endpoint = "https://store.example.com/graphql";
    const kept = await plan("fixed-first", serviceId, endpoint, { products: { fixedArguments: { first: 3 } } });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);

    const wrongType = await plan("wrong-type", serviceId, endpoint, { products: { fixedArguments: { first: "x" } } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toEqual([
      {
        field: "body.toolOverrides.products.fixedArguments.first",
        message: expect.stringContaining("does not match the argument's schema"),
      },
    ]);
    const body = await plan("body", serviceId, endpoint, { products: { fixedArguments: { body: { first: 3 } } } });
    expect(body.status).toBe(422);
    expect(body.body.errors[0]).toEqual({
      field: "body.toolOverrides.products.fixedArguments.body",
      message: "products has no argument body; its arguments are after, first, filter",
    });
  });

  it("takes a gRPC request message's fields, and refuses body", async () => {
    const serviceId = await serviceOf("grpc", { protoFiles: petstoreFiles });
    const endpoint = "grpc://127.0.0.1:50051";
    const kept = await plan("fixed-pet", serviceId, endpoint, {
      PetService_GetPet: { fixedArguments: { petId: "7" } },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    const body = await plan("body", serviceId, endpoint, { PetService_GetPet: { fixedArguments: { body: {} } } });
    expect(body.status).toBe(422);
    expect(body.body.errors[0]).toEqual({
      field: "body.toolOverrides.PetService_GetPet.fixedArguments.body",
      message: expect.stringContaining("PetService_GetPet has no argument body; its arguments are petId"),
    });
  });
});
