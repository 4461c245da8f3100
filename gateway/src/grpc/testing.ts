/**
 * Test support for gRPC backends: a real `@grpc/grpc-js` server of a small pet store (unary,
 * server-streaming, failing and slow methods, and one that echoes the metadata it received), over
 * h2c or TLS, and the descriptors of its `.proto` (PETSTORE_PROTO) as a gRPC Service's operations
 * carry them.
 *
 * The descriptors are written out here with `@bufbuild/protobuf`'s own descriptor messages, so the
 * gateway's tests need no .proto compiler; PETSTORE_PROTO is the same contract as text, for tests
 * that import it through the control plane. The server speaks proto3 JSON to its handlers and the
 * binary format on the wire.
 */

import type { NormalizedOperation } from "@atrium/contract";
import { create, createFileRegistry, fromBinary, fromJson, type JsonValue, toBinary, toJson } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  file_google_protobuf_timestamp,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from "@bufbuild/protobuf/wkt";
import {
  type Metadata,
  type MethodDefinition,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServerWritableStream,
  status,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";

export const PETSTORE_SERVICE = "petstore.v1.PetService";

/** The contract below, as .proto text (for imports through the control plane). */
export const PETSTORE_PROTO = `syntax = "proto3";
package petstore.v1;

import "google/protobuf/timestamp.proto";

enum PetStatus {
  PET_STATUS_UNSPECIFIED = 0;
  PET_STATUS_AVAILABLE = 1;
  PET_STATUS_SOLD = 2;
}

message Pet {
  int64 id = 1;
  string name = 2;
  PetStatus status = 3;
  google.protobuf.Timestamp born = 4;
  map<string, string> labels = 5;
}

message GetPetRequest {
  int64 id = 1;
}

message ListPetsRequest {
  // How many pets the stream sends.
  int32 count = 1;
}

message SlowRequest {
  int32 millis = 1;
}

message EchoRequest {}

message EchoReply {
  map<string, string> metadata = 1;
}

service PetService {
  // Get a pet by its id.
  rpc GetPet(GetPetRequest) returns (Pet);
  // Stream count pets.
  rpc ListPets(ListPetsRequest) returns (stream Pet);
  // Answers after millis.
  rpc Slow(SlowRequest) returns (Pet);
  // The metadata the call carried.
  rpc Echo(EchoRequest) returns (EchoReply);
}
`;

// json_name as protoc writes it.
const scalar = (name: string, number: number, type: Type, typeName?: string) => ({
  name,
  jsonName: name,
  number,
  type,
  label: Label.OPTIONAL,
  ...(typeName ? { typeName } : {}),
});
const stringMapEntry = (name: string) => ({
  name,
  field: [scalar("key", 1, Type.STRING), scalar("value", 2, Type.STRING)],
  options: { mapEntry: true },
});
const mapField = (name: string, number: number, entry: string) => ({
  name,
  jsonName: name,
  number,
  type: Type.MESSAGE,
  label: Label.REPEATED,
  typeName: entry,
});

const petsFile = create(FileDescriptorProtoSchema, {
  name: "petstore/v1/pets.proto",
  package: "petstore.v1",
  syntax: "proto3",
  dependency: ["google/protobuf/timestamp.proto"],
  enumType: [
    {
      name: "PetStatus",
      value: [
        { name: "PET_STATUS_UNSPECIFIED", number: 0 },
        { name: "PET_STATUS_AVAILABLE", number: 1 },
        { name: "PET_STATUS_SOLD", number: 2 },
      ],
    },
  ],
  messageType: [
    {
      name: "Pet",
      field: [
        scalar("id", 1, Type.INT64),
        scalar("name", 2, Type.STRING),
        scalar("status", 3, Type.ENUM, ".petstore.v1.PetStatus"),
        scalar("born", 4, Type.MESSAGE, ".google.protobuf.Timestamp"),
        mapField("labels", 5, ".petstore.v1.Pet.LabelsEntry"),
      ],
      nestedType: [stringMapEntry("LabelsEntry")],
    },
    { name: "GetPetRequest", field: [scalar("id", 1, Type.INT64)] },
    { name: "ListPetsRequest", field: [scalar("count", 1, Type.INT32)] },
    { name: "SlowRequest", field: [scalar("millis", 1, Type.INT32)] },
    { name: "EchoRequest" },
    {
      name: "EchoReply",
      field: [mapField("metadata", 1, ".petstore.v1.EchoReply.MetadataEntry")],
      nestedType: [stringMapEntry("MetadataEntry")],
    },
  ],
  service: [
    {
      name: "PetService",
      method: [
        { name: "GetPet", inputType: ".petstore.v1.GetPetRequest", outputType: ".petstore.v1.Pet" },
        {
          name: "ListPets",
          inputType: ".petstore.v1.ListPetsRequest",
          outputType: ".petstore.v1.Pet",
          serverStreaming: true,
        },
        { name: "Slow", inputType: ".petstore.v1.SlowRequest", outputType: ".petstore.v1.Pet" },
        { name: "Echo", inputType: ".petstore.v1.EchoRequest", outputType: ".petstore.v1.EchoReply" },
      ],
    },
  ],
});

const descriptorSet = create(FileDescriptorSetSchema, { file: [file_google_protobuf_timestamp.proto, petsFile] });
const registry = createFileRegistry(descriptorSet);

/** The FileDescriptorSet of the pet store (its file and google/protobuf/timestamp.proto), base64. */
export const PETSTORE_DESCRIPTOR_SET = Buffer.from(toBinary(FileDescriptorSetSchema, descriptorSet)).toString("base64");

/** How the server answers: a method's handler gets the request in proto3 JSON and the call's metadata. */
type Method = {
  name: string;
  input: string;
  output: string;
  streaming: boolean;
};
const METHODS: Method[] = [
  { name: "GetPet", input: "GetPetRequest", output: "Pet", streaming: false },
  { name: "ListPets", input: "ListPetsRequest", output: "Pet", streaming: true },
  { name: "Slow", input: "SlowRequest", output: "Pet", streaming: false },
  { name: "Echo", input: "EchoRequest", output: "EchoReply", streaming: false },
];

/** The pet store's pet `id` in proto3 JSON, every field written: what GetPet answers. */
export const petOfId = (id: number) => ({
  id: String(id),
  name: id === 7 ? "Rex" : `pet ${id}`,
  status: id % 2 === 0 ? "PET_STATUS_SOLD" : "PET_STATUS_AVAILABLE",
  born: "2020-02-29T12:00:00Z",
  labels: { color: id === 7 ? "brown" : "grey" },
});

/** The operation a gRPC Service's import gives for `method` (what the control plane would send). */
export function petstoreOperation(methodName: string): NormalizedOperation {
  const method = METHODS.find((candidate) => candidate.name === methodName);
  if (!method) throw new Error(`no method ${methodName}`);
  const petSchema = {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^-?[0-9]+$" },
      name: { type: "string" },
      status: { type: "string", enum: ["PET_STATUS_UNSPECIFIED", "PET_STATUS_AVAILABLE", "PET_STATUS_SOLD"] },
      born: { type: "string", format: "date-time" },
      labels: { type: "object", additionalProperties: { type: "string" } },
    },
  };
  const inputs: Record<string, Record<string, unknown>> = {
    GetPetRequest: { id: { type: "string", pattern: "^-?[0-9]+$" } },
    ListPetsRequest: { count: { type: "integer", minimum: -2147483648, maximum: 2147483647 } },
    SlowRequest: { millis: { type: "integer" } },
    EchoRequest: {},
  };
  const output =
    method.output === "Pet"
      ? petSchema
      : { type: "object", properties: { metadata: { type: "object", additionalProperties: { type: "string" } } } };
  return {
    operationId: `PetService_${method.name}`,
    method: "POST",
    path: `/${PETSTORE_SERVICE}/${method.name}`,
    summary: `${method.name} of the pet store`,
    deprecated: false,
    tags: [PETSTORE_SERVICE],
    parameters: [],
    requestBody: {
      required: false,
      contentType: "application/json",
      schema: { type: "object", properties: inputs[method.input] ?? {}, additionalProperties: false },
    },
    responses: [
      {
        status: "200",
        contentType: "application/json",
        schema: method.streaming
          ? {
              type: "object",
              properties: { messages: { type: "array", items: output }, truncated: { type: "boolean" } },
              required: ["messages", "truncated"],
            }
          : output,
      },
    ],
    extensions: {},
    grpc: {
      service: PETSTORE_SERVICE,
      method: method.name,
      streaming: method.streaming ? "server" : "unary",
      requestType: `petstore.v1.${method.input}`,
      responseType: `petstore.v1.${method.output}`,
      descriptorSet: PETSTORE_DESCRIPTOR_SET,
    },
  };
}

export interface GrpcPetstore {
  /** `grpc://127.0.0.1:<port>`, or `grpcs://…` with TLS. */
  url: string;
  /** The metadata of every call received, newest last, with the CN of the client certificate presented (mutual TLS). */
  received: { method: string; metadata: Record<string, string>; clientCertificate?: string }[];
  close(): Promise<void>;
}

/**
 * The pet store on a free loopback port. GetPet: pet 404 is NOT_FOUND, a negative id
 * INVALID_ARGUMENT, pet 401 UNAUTHENTICATED; ListPets streams `count` pets; Slow answers after
 * `millis`; Echo returns the call's metadata. With `clientCa`, a TLS server that requires a client
 * certificate that CA signed (mutual TLS).
 */
export async function startGrpcPetstore(tls?: { cert: string; key: string }, clientCa?: string): Promise<GrpcPetstore> {
  const received: GrpcPetstore["received"] = [];
  const server = new Server();
  const definition: Record<string, MethodDefinition<JsonValue, JsonValue>> = {};
  const handlers: UntypedServiceImplementation = {};
  for (const method of METHODS) {
    const input = registry.getMessage(`petstore.v1.${method.input}`);
    const output = registry.getMessage(`petstore.v1.${method.output}`);
    if (!input || !output) throw new Error(`pet store descriptors lack ${method.name}'s messages`);
    definition[method.name] = {
      path: `/${PETSTORE_SERVICE}/${method.name}`,
      requestStream: false,
      responseStream: method.streaming,
      requestSerialize: (value: JsonValue) => Buffer.from(toBinary(input, fromJson(input, value, { registry }))),
      requestDeserialize: (bytes: Buffer) => toJson(input, fromBinary(input, bytes), { registry }),
      responseSerialize: (value: JsonValue) => Buffer.from(toBinary(output, fromJson(output, value, { registry }))),
      responseDeserialize: (bytes: Buffer) => toJson(output, fromBinary(output, bytes), { registry }),
    };
  }
  type Unary = ServerUnaryCall<Record<string, unknown>, JsonValue>;
  const record = (method: string, metadata: Metadata, call?: Pick<Unary, "getAuthContext">) => {
    const map: Record<string, string> = {};
    for (const [key, value] of Object.entries(metadata.getMap())) map[key] = String(value);
    const clientCertificate = call?.getAuthContext()?.sslPeerCertificate?.subject?.CN;
    received.push({
      method,
      metadata: map,
      ...(clientCertificate ? { clientCertificate: String(clientCertificate) } : {}),
    });
    return map;
  };
  type Reply = (error: { code: number; details: string } | null, value?: JsonValue) => void;
  handlers.GetPet = (call: Unary, reply: Reply) => {
    record("GetPet", call.metadata, call);
    const id = Number(call.request.id ?? 0);
    if (id < 0) return reply({ code: status.INVALID_ARGUMENT, details: `pet ids are positive, not ${id}` });
    if (id === 404) return reply({ code: status.NOT_FOUND, details: `no pet ${id}` });
    if (id === 401) return reply({ code: status.UNAUTHENTICATED, details: "who are you?" });
    reply(null, petOfId(id));
  };
  handlers.ListPets = (call: ServerWritableStream<Record<string, unknown>, JsonValue>) => {
    record("ListPets", call.metadata);
    const count = Number(call.request.count ?? 0);
    for (let id = 1; id <= count && !call.cancelled; id++) call.write(petOfId(id));
    call.end();
  };
  handlers.Slow = (call: Unary, reply: Reply) => {
    record("Slow", call.metadata);
    setTimeout(() => reply(null, petOfId(1)), Number(call.request.millis ?? 0)).unref();
  };
  handlers.Echo = (call: Unary, reply: Reply) => reply(null, { metadata: record("Echo", call.metadata) });
  server.addService(definition, handlers);
  const credentials = tls
    ? ServerCredentials.createSsl(
        clientCa === undefined ? null : Buffer.from(clientCa),
        [{ private_key: Buffer.from(tls.key), cert_chain: Buffer.from(tls.cert) }],
        clientCa !== undefined,
      )
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    url: `${tls ? "grpcs" : "grpc"}://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
