/**
 * The gRPC import as the REST API runs it: through server reflection from a real @grpc/grpc-js
 * server (@grpc/reflection) behind the SSRF guard — refused on loopback by default, read when the
 * host is allowed, a clear GRPC_REFLECTION error when the server has no reflection or nobody
 * listens — falling back to v1alpha on a server without v1, over grpcs (a certificate of an
 * untrusted CA refused naming the TLS check, one of a CA in the system's store imported), and
 * .proto files held to the import's byte limit.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import * as grpc from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenApiImportError } from "../openapi/errors.ts";
import { parseAllowHosts } from "../openapi/ssrf-policy.ts";
import { createPki } from "../test-pki.ts";
import { type GrpcImportSource, importGrpcService } from "./run.ts";
import { petstoreFiles } from "./test-protos.ts";

const allowed = { fetchPolicy: { allow: parseAllowHosts("127.0.0.1") } };

async function importError(source: GrpcImportSource, options = {}): Promise<OpenApiImportError> {
  const error = await importGrpcService(source, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenApiImportError);
  return error as OpenApiImportError;
}

async function listen(server: grpc.Server, credentials = grpc.ServerCredentials.createInsecure()): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (error, port) => (error ? reject(error) : resolve(port))),
  );
}

/** The petstore's package definition, its files written under `dir` for proto-loader. */
function petstoreDefinition(dir: string) {
  for (const file of petstoreFiles) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
  return loadSync(
    petstoreFiles.map((file) => file.path),
    { includeDirs: [dir], keepCase: true },
  );
}

describe("gRPC import through server reflection", () => {
  const reflecting = new grpc.Server();
  const alphaOnly = new grpc.Server();
  const bare = new grpc.Server();
  let dir: string;
  let reflectingUrl: string;
  let alphaOnlyUrl: string;
  let bareUrl: string;
  const alphaServices: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "atrium-protos-"));
    const definition = petstoreDefinition(dir);
    new ReflectionService(definition).addToServer(reflecting);
    reflectingUrl = `grpc://127.0.0.1:${await listen(reflecting)}`;
    // @grpc/reflection serves v1 and v1alpha: only the older one is added here, as servers built
    // before v1 (grpc-go before 1.57, grpcurl's era) offer it.
    new ReflectionService(definition).addToServer({
      addService: (service, implementation) => {
        const paths = Object.values(service).map((method) => method.path);
        if (paths.every((path) => path.startsWith("/grpc.reflection.v1alpha."))) {
          alphaOnly.addService(service, implementation);
          alphaServices.push(...paths);
        }
      },
    });
    alphaOnlyUrl = `grpc://127.0.0.1:${await listen(alphaOnly)}`;
    bareUrl = `grpc://127.0.0.1:${await listen(bare)}`;
  });
  afterAll(() => {
    reflecting.forceShutdown();
    alphaOnly.forceShutdown();
    bare.forceShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a loopback address by default", async () => {
    const error = await importError({ url: reflectingUrl });
    expect(error.code).toBe("OPENAPI_URL_FORBIDDEN");
  });

  it("imports the services a reflection server lists, with self-contained descriptors", async () => {
    const imported = await importGrpcService({ url: reflectingUrl }, allowed);
    expect(imported.kind).toBe("grpc");
    expect(imported.operations.map((operation) => operation.operationId)).toEqual([
      "PetService_GetPet",
      "PetService_CreatePet",
      "PetService_WatchPets",
      "PetService_Ping",
    ]);
    const watch = imported.operations[2]?.grpc;
    expect(watch).toMatchObject({ service: "petstore.v1.PetService", method: "WatchPets", streaming: "server" });
    // @grpc/reflection rebuilds its descriptors from protobufjs: one file per package, no imports
    // listed, the well-known types in a file of their own. The import makes the set whole.
    const set = fromBinary(FileDescriptorSetSchema, Buffer.from(watch?.descriptorSet ?? "", "base64"));
    expect(set.file.map((file) => file.name)).toContain("google/protobuf/timestamp.proto");
    const pet = createFileRegistry(set).getMessage("petstore.v1.Pet");
    expect(pet?.fields.map((field) => field.jsonName)).toContain("friendsById");
    expect(imported.operations[0]?.responses[0]?.schema).toMatchObject({
      properties: { bornAt: { format: "date-time" }, kind: { enum: ["KIND_UNSPECIFIED", "DOG", "CAT"] } },
    });
  });

  it("falls back to grpc.reflection.v1alpha on a server without v1", async () => {
    expect(alphaServices).toEqual(["/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"]);
    const imported = await importGrpcService({ url: alphaOnlyUrl }, allowed);
    const whole = await importGrpcService({ url: reflectingUrl }, allowed);
    expect(imported.operations.map((operation) => operation.operationId)).toEqual([
      "PetService_GetPet",
      "PetService_CreatePet",
      "PetService_WatchPets",
      "PetService_Ping",
    ]);
    expect(imported.operations).toEqual(whole.operations);
  });

  it("says so when the server has no reflection service", async () => {
    const error = await importError({ url: bareUrl }, allowed);
    expect(error.code).toBe("GRPC_REFLECTION");
    expect(error.message).toContain("the server implements neither grpc.reflection.v1 nor v1alpha");
  });

  it("says so when nobody listens", async () => {
    const closed = new grpc.Server();
    const port = await listen(closed);
    closed.forceShutdown();
    const error = await importError({ url: `grpc://127.0.0.1:${port}` }, allowed);
    expect(error.code).toBe("GRPC_REFLECTION");
    expect(error.message).toContain(`Could not read the services of grpc://127.0.0.1:${port}`);
    expect(error.message).toContain("the server is unreachable (UNAVAILABLE)");
  });

  it("refuses an address that is not grpc://host:port", async () => {
    const error = await importError({ url: "grpc://127.0.0.1:1/path" }, allowed);
    expect(error.code).toBe("OPENAPI_URL_INVALID");
  });

  it("refuses messages nested past protoc's 32 levels, at the line where they do", async () => {
    const nested = (levels: number) =>
      [
        'syntax = "proto3";',
        "// message Decoy { { { is a comment",
        ...Array.from({ length: levels }, (_, level) => `message M${level} { // "{"`),
        "int32 x = 1;",
        "}".repeat(levels),
        "service S { rpc Get(M0) returns (M0); }",
      ].join("\n");
    const accepted = await importGrpcService({ text: nested(32) });
    expect(accepted.operations.map((operation) => operation.operationId)).toEqual(["S_Get"]);
    const error = await importError({ text: nested(33) });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.location).toEqual({ file: "inline.proto", line: 35 });
    expect(error.message).toBe(
      "The .proto file is nested too deep in inline.proto (line 35): messages are nested more than 32 levels " +
        "deep (protoc's limit): declare the inner messages at the top level and refer to them by name",
    );
    const options = `syntax = "proto3";\nmessage M { int32 x = 1 [(o) = ${"{a ".repeat(150)}${"}".repeat(150)}]; }\n`;
    expect((await importError({ text: options })).message).toContain(
      "(line 2): an option value is nested more than 100 levels deep (protoc's limit)",
    );
  });

  it("holds .proto files to the import's byte limit", async () => {
    const error = await importError({ protoFiles: petstoreFiles }, { maxBytes: 100 });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toContain("The .proto files");
  });
});

describe("gRPC import through server reflection over grpcs", () => {
  const server = new grpc.Server();
  let dir: string;
  let ca: string;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "atrium-grpcs-"));
    const pki = await createPki(dir, "reflection-ca");
    ca = pki.ca.cert;
    const serving = await pki.issue("pets", { usage: "serverAuth", names: ["IP:127.0.0.1"] });
    new ReflectionService(petstoreDefinition(join(dir, "protos"))).addToServer(server);
    const credentials = grpc.ServerCredentials.createSsl(null, [
      { private_key: Buffer.from(serving.key), cert_chain: Buffer.from(serving.cert) },
    ]);
    url = `grpcs://127.0.0.1:${await listen(server, credentials)}`;
  });
  afterAll(() => {
    server.forceShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a server whose certificate no trusted CA signed, naming the TLS check", async () => {
    const error = await importError({ url }, allowed);
    expect(error.code).toBe("GRPC_REFLECTION");
    expect(error.message).toContain(
      `Could not read the services of ${url} through server reflection: The server's TLS certificate (for ` +
        "127.0.0.1) is signed by a CA the control plane does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE)",
    );
  });

  it("imports once the CA is among the system's, as NODE_EXTRA_CA_CERTS makes it", async () => {
    // NODE_EXTRA_CA_CERTS is read when Node starts; setDefaultCACertificates changes the same store in this process.
    const system = getCACertificates("default");
    setDefaultCACertificates([...system, ca]);
    try {
      const imported = await importGrpcService({ url }, allowed);
      expect(imported.operations.map((operation) => operation.operationId)).toContain("PetService_GetPet");
    } finally {
      setDefaultCACertificates(system);
    }
  });
});
