import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createFileRegistry, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { OpenApiImportError } from "../openapi/errors.ts";
import { importGrpc } from "./import.ts";
import type { ProtoUpload } from "./parse-protos.ts";
import { petProto, petsProto, petstoreFiles } from "./test-protos.ts";

function importError(protoFiles: ProtoUpload[]): OpenApiImportError {
  try {
    importGrpc({ protoFiles });
  } catch (error) {
    expect(error).toBeInstanceOf(OpenApiImportError);
    return error as OpenApiImportError;
  }
  throw new Error("the import succeeded");
}

/** Ajv2020 with its default options (strict mode, Unicode patterns) and ajv-formats, as strict MCP clients compile tool schemas. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020();
  ajvFormats.default(ajv);
  return ajv;
}

/** `entry` and every file it imports, as google-proto-files ships them; the well-known types are the importer's own. */
function googleProtos(entry: string): ProtoUpload[] {
  const root = dirname(createRequire(import.meta.url).resolve("google-proto-files/package.json"));
  const files = new Map<string, string>();
  const pending = [entry];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (files.has(path) || path.startsWith("google/protobuf/")) continue;
    const content = readFileSync(join(root, path), "utf8");
    files.set(path, content);
    for (const [, imported] of content.matchAll(/^import\s+(?:public\s+)?"([^"]+)";/gm))
      if (imported) pending.push(imported);
  }
  return [...files].map(([path, content]) => ({ path, content }));
}

describe("gRPC import from .proto files", () => {
  const imported = importGrpc({ protoFiles: petstoreFiles });
  const byId = new Map(imported.operations.map((operation) => [operation.operationId, operation]));
  const registryOf = (base64: string) =>
    createFileRegistry(fromBinary(FileDescriptorSetSchema, Buffer.from(base64, "base64")));

  it("makes a tool of every unary and server-streaming method, and reports the others", () => {
    expect(imported.kind).toBe("grpc");
    expect(imported.title).toBe("petstore.v1.PetService");
    expect(imported.operations.map((operation) => operation.operationId)).toEqual([
      "PetService_GetPet",
      "PetService_CreatePet",
      "PetService_WatchPets",
      "PetService_Ping",
    ]);
    expect(imported.warnings.map((warning) => warning.message)).toEqual([
      "petstore.v1.PetService/UploadPets is client-streaming: a tool call sends one request, so it is not exposed",
      "petstore.v1.PetService/Chat is bidirectional streaming: a tool call sends one request and reads one answer, so it is not exposed",
      "petstore.v1.PetService/Now returns google.protobuf.Timestamp, whose JSON is not an object: a tool's structured result is an object, so it is not exposed",
    ]);
    expect(new Set(imported.warnings.map((warning) => warning.code))).toEqual(new Set(["GRPC_METHOD_NOT_EXPOSED"]));
  });

  it("marks a tool read-only only when the method has no side effects", () => {
    expect(byId.get("PetService_GetPet")?.extensions["x-mcp-annotations"]).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(byId.get("PetService_CreatePet")?.extensions["x-mcp-annotations"]).toEqual({ readOnlyHint: false });
    expect(byId.get("PetService_Ping")?.extensions["x-mcp-annotations"]).toEqual({
      readOnlyHint: false,
      idempotentHint: true,
    });
  });

  it("carries the call recipe, whose descriptor set resolves on its own and speaks the proto3 JSON mapping", () => {
    const watch = byId.get("PetService_WatchPets");
    expect(watch).toMatchObject({
      method: "POST",
      path: "/petstore.v1.PetService/WatchPets",
      summary: "Sends the pets of a kind, one message each.",
      tags: ["petstore.v1.PetService"],
      grpc: {
        service: "petstore.v1.PetService",
        method: "WatchPets",
        streaming: "server",
        requestType: "petstore.v1.WatchPetsRequest",
        responseType: "petstore.v1.Pet",
      },
    });
    expect(byId.get("PetService_GetPet")?.grpc?.streaming).toBe("unary");
    const registry = registryOf(watch?.grpc?.descriptorSet ?? "");
    expect(registry.getService("petstore.v1.PetService")?.methods.map((method) => method.name)).toContain("WatchPets");
    const pet = registry.getMessage("petstore.v1.Pet");
    if (!pet) throw new Error("no Pet in the descriptor set");
    const json = {
      name: "Rex",
      petId: "18446744073709551615",
      kind: "DOG",
      tags: ["good"],
      scores: { speed: 3 },
      friendsById: { "-7": { name: "Tom" } },
      shelter: "North",
      vaccinated: false,
      photo: "AAEC",
      weightKg: "NaN",
      bornAt: "2024-05-01T12:00:00Z",
      parent: { name: "Old Rex", toy: { name: "ball" } },
      age: -3,
      chip: "42",
    };
    const decoded = fromBinary(pet, toBinary(pet, fromJson(pet, json, { registry })));
    expect(toJson(pet, decoded, { registry })).toEqual(json);
  });

  it("writes proto3 JSON schemas: json names, 64-bit strings, enum names, maps, a oneof, recursion by $ref", () => {
    const output = byId.get("PetService_GetPet")?.responses[0]?.schema as Record<string, unknown>;
    expect(output).toMatchObject({
      type: "object",
      description: "A pet of the store.",
      additionalProperties: false,
      properties: {
        name: { type: "string", description: "How the pet is called." },
        petId: { type: "string", pattern: "^[0-9]+$" },
        kind: { type: "string", enum: ["KIND_UNSPECIFIED", "DOG", "CAT"] },
        tags: { type: "array", items: { type: "string" } },
        scores: { type: "object", additionalProperties: { type: "integer", minimum: -2147483648 } },
        friendsById: {
          type: "object",
          propertyNames: { pattern: "^-?[0-9]+$" },
          additionalProperties: { $ref: "#/$defs/petstore.v1.Pet" },
        },
        vaccinated: { type: "boolean" },
        photo: { type: "string", contentEncoding: "base64" },
        bornAt: { type: "string", format: "date-time" },
        parent: { $ref: "#/$defs/petstore.v1.Pet" },
        toy: { $ref: "#/$defs/petstore.v1.Pet.Toy" },
        chip: { type: "string", pattern: "^[0-9]+$" },
      },
      oneOf: [
        { type: "object", required: ["person"] },
        { type: "object", required: ["shelter"] },
        { type: "object", properties: { person: false, shelter: false } },
      ],
    });
    expect(Object.keys(output.$defs as object).sort()).toEqual(["petstore.v1.Pet", "petstore.v1.Pet.Toy"]);
    const input = byId.get("PetService_GetPet")?.requestBody;
    expect(input).toEqual({
      required: false,
      contentType: "application/json",
      schema: {
        type: "object",
        properties: {
          petId: { type: "string", pattern: "^-?[0-9]+$", description: "A 64-bit integer, as a decimal string." },
        },
        additionalProperties: false,
      },
    });
  });

  it("maps the well-known types to their JSON forms", () => {
    const schema = byId.get("PetService_CreatePet")?.requestBody?.schema as { properties: Record<string, unknown> };
    expect(schema.properties).toMatchObject({
      mask: { type: "string" },
      labels: { type: "object" },
      extra: {},
      detail: { type: "object", required: ["@type"] },
      ttl: { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" },
      nickname: { anyOf: [{ type: "string" }, { type: "null" }] },
      weight: { anyOf: [{ type: "string", pattern: "^-?[0-9]+$" }, { type: "null" }] },
      at: { type: "string", format: "date-time" },
      list: { type: "array" },
    });
    expect(byId.get("PetService_Ping")?.requestBody?.schema).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
  });

  it("compiles every schema under a strict JSON Schema 2020-12 validator, which checks what the mapping says", () => {
    const ajv = strictAjv();
    for (const operation of imported.operations) {
      expect(() => ajv.compile(operation.requestBody?.schema ?? {})).not.toThrow();
      expect(() => ajv.compile(operation.responses[0]?.schema ?? {})).not.toThrow();
    }
    const pet = ajv.compile(byId.get("PetService_GetPet")?.responses[0]?.schema ?? {});
    expect(pet({ name: "Rex", petId: "7", person: "Ann", parent: { name: "Old", shelter: "N" } })).toBe(true);
    expect(pet({ person: "Ann", shelter: "North" })).toBe(false);
    expect(pet({ petId: 7 })).toBe(false);
    expect(pet({ kind: 1 })).toBe(false);
    expect(pet({ pet_id: "7" })).toBe(false);
    expect(pet({ bornAt: "yesterday" })).toBe(false);
    const create = ajv.compile(byId.get("PetService_CreatePet")?.requestBody?.schema ?? {});
    expect(create({ ttl: "1.5s", nickname: null, extra: [1, { a: null }], detail: { "@type": "x/y" } })).toBe(true);
    expect(create({ ttl: "90 seconds" })).toBe(false);
  });

  it("keeps the import a pure function of the files: the same files, the same operations", () => {
    expect(importGrpc({ protoFiles: [...petstoreFiles].reverse() }).operations).toEqual(imported.operations);
  });

  it("names tools of same-named services in different packages by their full names", () => {
    const service = (pkg: string) => ({
      path: `${pkg}.proto`,
      content: `syntax = "proto3";\npackage ${pkg};\nmessage M {}\nservice Api {\n  rpc Get(M) returns (M);\n}\n`,
    });
    const ids = importGrpc({ protoFiles: [service("a.v1"), service("b.v1")] }).operations.map((o) => o.operationId);
    expect(ids).toEqual(["a_v1_Api_Get", "b_v1_Api_Get"]);
  });

  it("refuses a syntax error, saying in which file, line and column", () => {
    const broken = petProto.replace("string name = 1;", "string name = ;");
    const error = importError([{ path: "petstore/v1/pet.proto", content: broken }]);
    expect(error.code).toBe("GRPC_SYNTAX");
    expect(error.location).toEqual({ file: "petstore/v1/pet.proto", line: 10, column: 17 });
    expect(error.message).toMatch(/in petstore\/v1\/pet\.proto \(line 10, column 17\)/);
  });

  it("refuses a missing import, naming it and where it is imported", () => {
    const error = importError([{ path: "petstore/v1/pets.proto", content: petsProto }]);
    expect(error.code).toBe("GRPC_INVALID");
    expect(error.message).toContain(
      "petstore/v1/pets.proto (line 12) imports 'petstore/v1/pet.proto', which was not uploaded",
    );
    expect(error.location).toEqual({ file: "petstore/v1/pets.proto", line: 12 });
  });

  it("refuses a name defined twice, in two files or in one", () => {
    const twice = importError([...petstoreFiles, { path: "other/pet.proto", content: petProto }]);
    expect(twice.code).toBe("GRPC_INVALID");
    expect(twice.message).toContain(
      "'petstore.v1.Pet' is defined twice, in petstore/v1/pet.proto and in other/pet.proto",
    );
    const inOne = importError([
      {
        path: "a.proto",
        content: 'syntax = "proto3";\nmessage A {}\nmessage A {}\nservice S { rpc M(A) returns (A); }\n',
      },
    ]);
    expect(inOne.code).toBe("GRPC_INVALID");
    expect(inOne.message).toContain("'A' is defined twice");
  });

  it("refuses a type that no imported file defines", () => {
    const content = 'syntax = "proto3";\npackage x;\nservice S {\n  rpc M(Missing) returns (Missing);\n}\n';
    const error = importError([{ path: "x.proto", content }]);
    expect(error.code).toBe("GRPC_INVALID");
    expect(error.message).toContain("x.proto: method x.S.M uses the type 'Missing', but no uploaded file defines it");
    const notImported = importError([
      { path: "a.proto", content: 'syntax = "proto3";\npackage x;\nmessage A {}\n' },
      { path: "b.proto", content: 'syntax = "proto3";\npackage x;\nservice S {\n  rpc M(A) returns (A);\n}\n' },
    ]);
    expect(notImported.message).toContain("it is defined in a.proto, which b.proto does not import");
  });

  it("refuses files with no service, or none with a method a tool can call", () => {
    expect(importError([{ path: "petstore/v1/pet.proto", content: petProto }]).code).toBe("GRPC_NO_OPERATIONS");
    const streaming = 'syntax = "proto3";\nmessage M {}\nservice S {\n  rpc Up(stream M) returns (M);\n}\n';
    const error = importError([{ path: "s.proto", content: streaming }]);
    expect(error.code).toBe("GRPC_NO_OPERATIONS");
    expect(error.message).toContain("1 method is client-streaming");
  });

  it("takes proto2 with required fields and nested packages of imports", () => {
    const content = [
      'syntax = "proto2";',
      "package legacy;",
      "message Order {",
      "  required string id = 1;",
      "  optional int32 count = 2 [default = 1];",
      "  repeated int32 lines = 3 [packed = true];",
      "}",
      "service Orders {",
      "  rpc Put(Order) returns (Order);",
      "}",
    ].join("\n");
    const [put] = importGrpc({ protoFiles: [{ path: "legacy/orders.proto", content }] }).operations;
    expect(put?.requestBody).toMatchObject({ required: true, schema: { required: ["id"] } });
  });

  it("names a method's google.api.http rule in its description, from the uploaded google/api files", () => {
    const google = googleProtos("google/api/annotations.proto");
    expect(google.map((file) => file.path)).toEqual(["google/api/annotations.proto", "google/api/http.proto"]);
    const content = [
      'syntax = "proto3";',
      "package library.v1;",
      'import "google/api/annotations.proto";',
      "message Book { string name = 1; }",
      "message GetBookRequest { string name = 1; }",
      "service Library {",
      "  // Reads one book.",
      "  rpc GetBook(GetBookRequest) returns (Book) {",
      '    option (google.api.http) = { get: "/v1/{name=shelves/*/books/*}" };',
      "  }",
      "  rpc PutBook(Book) returns (Book) {",
      '    option (google.api.http) = { put: "/v1/{name=shelves/*/books/*}" body: "*" };',
      "  }",
      "  rpc Plain(Book) returns (Book);",
      "}",
    ].join("\n");
    const { operations } = importGrpc({ protoFiles: [{ path: "library/v1/library.proto", content }, ...google] });
    expect(operations.map((operation) => [operation.operationId, operation.description])).toEqual([
      ["Library_GetBook", "Reads one book.\n\nHTTP: GET /v1/{name=shelves/*/books/*}"],
      ["Library_PutBook", "HTTP: PUT /v1/{name=shelves/*/books/*}"],
      ["Library_Plain", undefined],
    ]);
    // Not bundled like the well-known types: the annotations must be uploaded with the file.
    const error = importError([{ path: "library/v1/library.proto", content }]);
    expect(error.message).toContain("google/api/annotations.proto");
  });

  it("imports Google's real Pub/Sub API, every input and output schema compiling in a strict Ajv2020", () => {
    const files = googleProtos("google/pubsub/v1/pubsub.proto");
    expect(files).toHaveLength(8);
    const pubsub = importGrpc({ protoFiles: files });
    expect(pubsub.operations).toHaveLength(34);
    const ajv = strictAjv();
    for (const { operationId, requestBody, responses } of pubsub.operations) {
      for (const schema of [requestBody?.schema, responses[0]?.schema]) {
        expect(schema, operationId).toBeDefined();
        expect(() => ajv.compile(schema ?? {}), `${operationId}: ${JSON.stringify(schema)}`).not.toThrow();
      }
    }
    const createTopic = pubsub.operations.find((operation) => operation.operationId === "Publisher_CreateTopic");
    expect(createTopic?.description).toContain("HTTP: PUT /v1/{name=projects/*/topics/*}");
    const topic = ajv.compile(createTopic?.responses[0]?.schema ?? {});
    expect(topic({ name: "projects/p/topics/t", labels: { a: "b" }, messageRetentionDuration: "600s" })).toBe(true);
    expect(topic({ labels: { a: 1 } })).toBe(false);
  });
});
