/**
 * gRPC Services through the REST API on PGlite: imported from .proto files (POST /services with
 * protoFiles) or one uploaded file told from its content, refused with a located 422 (nothing
 * stored) when the files are broken or nested past protoc's depth, refused by the schema when the source does not fit the kind,
 * and never published by a plan that could not call it.
 */
import { describe, expect, it } from "vitest";
import { useIsolatedControlPlane } from "../testing.ts";
import { petstoreFiles } from "./test-protos.ts";

const upload = { "content-type": "text/plain" };
const single =
  'syntax = "proto3";\npackage ping.v1;\nmessage Ping {\n  string text = 1;\n}\nservice Pinger {\n  rpc Send(Ping) returns (Ping);\n}\n';

describe("gRPC Services through the REST API on pglite", () => {
  const controlPlane = useIsolatedControlPlane("pglite");

  it("imports .proto files, and shows the kind, the tools and what was not exposed", async () => {
    const { admin } = controlPlane();
    const created = await admin.call("POST", "/api/v1/services", {
      name: "pets",
      version: "1",
      kind: "grpc",
      openapi: { protoFiles: petstoreFiles },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ kind: "grpc", title: "petstore.v1.PetService", operationCount: 4 });
    expect(created.body.openapiVersion).toBeUndefined();
    expect(created.body.importWarnings.map((warning: { code: string }) => warning.code)).toEqual([
      "GRPC_METHOD_NOT_EXPOSED",
      "GRPC_METHOD_NOT_EXPOSED",
      "GRPC_METHOD_NOT_EXPOSED",
    ]);
    const detail = await admin.call("GET", `/api/v1/services/${created.body.id}`);
    expect(detail.body.operations[0]).toEqual({
      operationId: "PetService_GetPet",
      method: "POST",
      path: "/petstore.v1.PetService/GetPet",
      summary: "Gets one pet by its id.",
    });
  });

  it("imports one uploaded .proto file, its kind told from its content", async () => {
    const { admin } = controlPlane();
    const created = await admin.call("POST", "/api/v1/services/import?name=ping&version=1", single, upload);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ kind: "grpc", title: "ping.v1.Pinger", operationCount: 1 });
  });

  it("refuses broken files with the file, line and column, storing nothing", async () => {
    const { admin } = controlPlane();
    const missing = await admin.call("POST", "/api/v1/services", {
      name: "broken",
      version: "1",
      kind: "grpc",
      openapi: { protoFiles: petstoreFiles.slice(0, 1) },
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      code: "GRPC_INVALID",
      location: { file: "petstore/v1/pets.proto", line: 12 },
    });
    expect(missing.body.detail).toContain("imports 'petstore/v1/pet.proto', which was not uploaded");
    const syntax = await admin.call(
      "POST",
      "/api/v1/services/import?name=broken&version=1&kind=grpc",
      single.replace("string text = 1;", "string text = 1"),
      upload,
    );
    expect(syntax.status).toBe(422);
    expect(syntax.body).toMatchObject({ code: "GRPC_SYNTAX", location: { file: "inline.proto", line: 5 } });
    const open = Array.from({ length: 40 }, (_, level) => `message M${level} {`).join("\n");
    const deep = `syntax = "proto3";\n${open}\n${"}".repeat(40)}\nservice S { rpc Get(M0) returns (M0); }\n`;
    const tooDeep = await admin.call("POST", "/api/v1/services/import?name=broken&version=1&kind=grpc", deep, upload);
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body).toMatchObject({ code: "OPENAPI_TOO_LARGE", location: { file: "inline.proto", line: 34 } });
    expect(tooDeep.body.detail).toContain("messages are nested more than 32 levels deep");
    const list = await admin.call("GET", "/api/v1/services");
    expect(JSON.stringify(list.body)).not.toContain("broken");
  });

  it("refuses a source that does not fit the kind", async () => {
    const { admin } = controlPlane();
    const post = (kind: string, openapi: object) =>
      admin.call("POST", "/api/v1/services", { name: "misfit", version: "1", kind, openapi });
    const filesForOpenapi = await post("openapi", { protoFiles: petstoreFiles });
    expect(filesForOpenapi.status).toBe(400);
    expect(JSON.stringify(filesForOpenapi.body)).toContain("protoFiles are for kind grpc only");
    const httpForGrpc = await post("grpc", { url: "https://pets.example.com/pets.proto" });
    expect(httpForGrpc.status).toBe(400);
    expect(JSON.stringify(httpForGrpc.body)).toContain("grpc://host:port or grpcs://host:port for kind grpc");
    const badPath = await post("grpc", { protoFiles: [{ path: "../pets.proto", content: single }] });
    expect(badPath.status).toBe(400);
    expect(JSON.stringify(badPath.body)).toContain("must be a relative path ending in .proto");
  });

  it("refuses a plan that could not call the gRPC Service (fail closed)", async () => {
    const { admin } = controlPlane();
    const created = await admin.call("POST", "/api/v1/services/import?name=ping-plan&version=1", single, upload);
    const plan = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "ping-plan",
      serviceId: created.body.id,
      backendEndpoint: "https://ping.example.com",
    });
    expect(plan.status).toBe(422);
    // Not publishable while the gateways do not call gRPC; once they do, not at an http(s) endpoint.
    expect(["SERVICE_KIND_NOT_PUBLISHABLE", "BACKEND_ENDPOINT_SCHEME"]).toContain(plan.body.code);
  });
});
