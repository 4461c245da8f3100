/**
 * Importing gRPC services into normalized operations: from uploaded .proto files (compiled by
 * parse-protos.ts) or from the FileDescriptorProtos a reflection server sent (reflection.ts).
 * Every unary method is a tool, every server-streaming method a tool whose messages the gateway
 * collects; client-streaming and bidirectional methods are reported as not exposed. Each
 * operation carries its call recipe (`grpc`) with a self-contained FileDescriptorSet; method and
 * path say what gRPC does, `POST /<service>/<method>`. Runs in the import worker.
 */
import type { GrpcCall, NormalizedOperation } from "@atrium/contract";
import type { ImportWarning } from "@atrium/contract/rest";
import {
  create,
  createFileRegistry,
  type DescMethod,
  type DescService,
  type FileRegistry,
  fromBinary,
  toBinary,
} from "@bufbuild/protobuf";
import { type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { checkContract } from "../openapi/contract-check.ts";
import type { ImportedDocument } from "../openapi/imported-document.ts";
import { countNodes } from "../openapi/json-schema.ts";
import { maxImportWarnings, maxSchemaNodes } from "../openapi/limits.ts";
import type { JsonValue } from "../openapi/plain-json.ts";
import { invalidDescriptors, noMethods, toolsTooLarge } from "./errors.ts";
import { isJsonObject, SchemaBuilder } from "./json-schema.ts";
import { compileProtos, dependencyOrder, type ProtoUpload } from "./parse-protos.ts";
import { completeReflectedFiles } from "./reflected-files.ts";
import { wellKnownFiles } from "./well-known.ts";

/** What the import worker is given for a gRPC Service. */
export type GrpcSource =
  | { protoFiles: ProtoUpload[] }
  /** From reflection: serialized FileDescriptorProtos, and the services the server listed. */
  | { fileDescriptors: Uint8Array[]; services: string[] };

export function importGrpc(source: GrpcSource): ImportedDocument {
  if ("protoFiles" in source) {
    const compiled = compileProtos(source.protoFiles);
    const services = compiled.files
      .filter((file) => compiled.uploaded.has(file.name))
      .flatMap((file) =>
        file.service.map((service) => (file.package ? `${file.package}.${service.name}` : service.name)),
      );
    return importDescriptors(compiled.files, services, compiled.comments, compiled.httpRules);
  }
  const received = source.fileDescriptors.map((bytes) => {
    try {
      return fromBinary(FileDescriptorProtoSchema, bytes);
    } catch (error) {
      throw invalidDescriptors(`a file descriptor the server sent does not decode (${(error as Error).message})`);
    }
  });
  const files = new Map(completeReflectedFiles(received).map((file) => [file.name, file]));
  const ordered = dependencyOrder(
    [...files.keys()],
    (path) => (files.get(path) ?? wellKnownFiles.get(path))?.dependency ?? [],
  );
  const all = ordered.map((path) => files.get(path) ?? wellKnownFiles.get(path));
  const missing = ordered.filter((_, i) => all[i] === undefined);
  if (missing.length > 0) throw invalidDescriptors(`the server did not send ${missing.join(", ")}`);
  return importDescriptors(all as FileDescriptorProto[], source.services, new Map(), new Map());
}

function importDescriptors(
  files: FileDescriptorProto[],
  serviceNames: readonly string[],
  comments: ReadonlyMap<string, string>,
  httpRules: ReadonlyMap<string, string>,
): ImportedDocument {
  const registry = registryOf(files);
  const byName = new Map(files.map((file) => [file.name, file]));
  const sets = new Map<string, string>();
  /** The method's file and every file it imports, serialized once per file. */
  const descriptorSet = (fileName: string): string => {
    let set = sets.get(fileName);
    if (set === undefined) {
      const closure = dependencyOrder([fileName], (path) => byName.get(path)?.dependency ?? []);
      const file = closure.map((path) => byName.get(path) as FileDescriptorProto);
      set = Buffer.from(toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file }))).toString(
        "base64",
      );
      sets.set(fileName, set);
    }
    return set;
  };
  const schemas = new SchemaBuilder(comments);
  const operations: NormalizedOperation[] = [];
  const warnings: ImportWarning[] = [];
  const taken = new Set<string>();
  const services = serviceNames.map((name) => registry.getService(name)).filter((s) => s !== undefined);
  const shortNames = new Map<string, number>();
  for (const service of services) shortNames.set(service.name, (shortNames.get(service.name) ?? 0) + 1);
  for (const service of services) {
    for (const method of service.methods) {
      const refusal = whyNotATool(method);
      if (refusal) {
        warnings.push({ code: "GRPC_METHOD_NOT_EXPOSED", message: `${service.typeName}/${method.name} ${refusal}` });
        continue;
      }
      const prefix = (shortNames.get(service.name) ?? 0) > 1 ? service.typeName.replaceAll(".", "_") : service.name;
      const operationId = uniqueId(`${prefix}_${method.name}`, taken);
      const call: GrpcCall = {
        service: service.typeName,
        method: method.name,
        streaming: method.methodKind === "server_streaming" ? "server" : "unary",
        requestType: method.input.typeName,
        responseType: method.output.typeName,
        descriptorSet: descriptorSet(service.file.proto.name),
      };
      operations.push(methodOperation(service, method, operationId, call, schemas, comments, httpRules));
    }
  }
  if (operations.length === 0) throw noMethods(warnings.length);
  // Each operation carries the messages it uses (shared in memory, copied once stored) and its descriptors.
  if (countNodes(operations as unknown as JsonValue) > maxSchemaNodes) throw toolsTooLarge(maxSchemaNodes);
  const document: ImportedDocument = {
    kind: "grpc",
    title: titleOf(services.map((service) => service.typeName)),
    version: "",
    servers: [],
    operations,
    warnings: warnings.slice(0, maxImportWarnings),
  };
  return checkContract(document, [], () => ({}));
}

function registryOf(files: FileDescriptorProto[]): FileRegistry {
  try {
    return createFileRegistry(create(FileDescriptorSetSchema, { file: files }));
  } catch (error) {
    throw invalidDescriptors((error as Error).message);
  }
}

/** Why a method cannot be a tool, or undefined when it can. */
function whyNotATool(method: DescMethod): string | undefined {
  if (method.methodKind === "client_streaming")
    return "is client-streaming: a tool call sends one request, so it is not exposed";
  if (method.methodKind === "bidi_streaming")
    return "is bidirectional streaming: a tool call sends one request and reads one answer, so it is not exposed";
  if (!isJsonObject(method.input))
    return `takes ${method.input.typeName}, whose JSON is not an object: tool arguments are an object, so it is not exposed`;
  if (!isJsonObject(method.output))
    return `returns ${method.output.typeName}, whose JSON is not an object: a tool's structured result is an object, so it is not exposed`;
  return undefined;
}

function methodOperation(
  service: DescService,
  method: DescMethod,
  operationId: string,
  call: GrpcCall,
  schemas: SchemaBuilder,
  comments: ReadonlyMap<string, string>,
  httpRules: ReadonlyMap<string, string>,
): NormalizedOperation {
  const input = schemas.root(method.input);
  const comment = comments.get(`${service.typeName}.${method.name}`);
  const rule = httpRules.get(`${service.typeName}.${method.name}`);
  const streamed =
    call.streaming === "server" ? "Server-streaming: the messages it sends are collected into a list." : undefined;
  const description = [comment, rule ? `HTTP: ${rule}` : undefined, streamed].filter(Boolean).join("\n\n");
  const deprecated = method.proto.options?.deprecated === true;
  return {
    operationId,
    method: "POST",
    path: `/${service.typeName}/${method.name}`,
    ...(comment ? { summary: comment.split("\n")[0] } : {}),
    ...(description ? { description } : {}),
    deprecated,
    tags: [service.typeName],
    parameters: [],
    requestBody: {
      required: Array.isArray(input.required) && input.required.length > 0,
      contentType: "application/json",
      schema: input,
    },
    responses: [
      { status: "200", contentType: "application/json", schema: outputSchema(call, schemas.root(method.output)) },
    ],
    extensions: { "x-mcp-annotations": annotationsOf(method) },
    grpc: call,
  };
}

/**
 * The tool's output: the response message, or for a server-streaming method what the gateway
 * answers (gateway/src/grpc/result.ts): `{messages: [...], truncated}`, the message's `$defs` at
 * the root, where its references resolve.
 */
function outputSchema(call: GrpcCall, message: Record<string, unknown>): Record<string, unknown> {
  if (call.streaming !== "server") return message;
  const { $defs, ...item } = message;
  return {
    type: "object",
    properties: {
      messages: { type: "array", items: item, description: "The messages the stream sent, in order." },
      truncated: {
        type: "boolean",
        description: "True when the stream was cut at the plan's grpc.maxStreamMessages (or the gateway's read limit).",
      },
    },
    required: ["messages", "truncated"],
    ...($defs === undefined ? {} : { $defs }),
  };
}

/** Read-only only when the method says so (`option idempotency_level = NO_SIDE_EFFECTS`). */
function annotationsOf(method: DescMethod): Record<string, boolean> {
  const level = method.proto.options?.idempotencyLevel;
  if (level === 1) return { readOnlyHint: true, destructiveHint: false };
  if (level === 2) return { readOnlyHint: false, idempotentHint: true };
  return { readOnlyHint: false };
}

/** `PetService_GetPet`; a name taken already gets a number: `PetService_GetPet_2`. */
function uniqueId(name: string, taken: Set<string>): string {
  let id = name;
  for (let n = 2; taken.has(id); n++) id = `${name}_${n}`;
  taken.add(id);
  return id;
}

function titleOf(services: string[]): string {
  if (services.length === 1) return services[0] as string;
  const shown = services.slice(0, 3).join(", ");
  return `${services.length} gRPC services (${shown}${services.length > 3 ? ", …" : ""})`;
}
