/**
 * A gRPC method's messages between proto3 JSON (the tool's arguments and results) and the
 * protobuf binary format, with `@bufbuild/protobuf` and the descriptors the call recipe carries
 * (a base64 `FileDescriptorSet`, complete with its imports).
 *
 * Each descriptor set is decoded into a registry once per compiled Exposition (`GrpcRegistries`:
 * the operations of one Service usually share one set), never per call. The recipe is checked
 * against it: the service, the method, its kind and message types must be what the set says.
 *
 * JSON out follows the proto3 JSON mapping (64-bit integers as strings, enums by name, the
 * well-known types in their JSON forms) with every field present: a field at its default value is
 * written too (`alwaysEmitImplicit`), so a result always shows the message's whole shape, and `0`
 * or `""` is never mistaken for an absent field.
 */

import type { GrpcCall } from "@atrium/contract";
import {
  createFileRegistry,
  type DescMessage,
  type FileRegistry,
  fromBinary,
  fromJson,
  type JsonValue,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import { type DescriptorProto, type FileDescriptorSet, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

export type MethodCodec = {
  /** The request message of proto3 JSON arguments; throws (with the library's words) on a value the mapping refuses. */
  encode(args: Record<string, unknown>): Uint8Array;
  /** One response message as proto3 JSON; throws on bytes that are no such message. */
  decode(bytes: Uint8Array): JsonValue;
};

/** Registries of the descriptor sets met while compiling one Exposition, by their base64 text. */
export class GrpcRegistries {
  private readonly byText = new Map<string, FileRegistry>();

  of(descriptorSet: string): FileRegistry {
    let registry = this.byText.get(descriptorSet);
    if (!registry) {
      const set = fromBinary(FileDescriptorSetSchema, Buffer.from(descriptorSet, "base64"));
      registry = createFileRegistry(withJsonNames(set));
      this.byText.set(descriptorSet, registry);
    }
    return registry;
  }
}

/**
 * Fields without a json_name get protoc's (lowerCamelCase): descriptors not written by protoc, or
 * by a reflection server that leaves it out, would otherwise read and write JSON under "".
 */
function withJsonNames(set: FileDescriptorSet): FileDescriptorSet {
  const visit = (message: DescriptorProto): void => {
    for (const field of message.field) if (!field.jsonName) field.jsonName = protoCamelCase(field.name);
    message.nestedType.forEach(visit);
  };
  for (const file of set.file) file.messageType.forEach(visit);
  return set;
}

const methodKinds = { unary: "unary", server: "server_streaming" } as const;

/** The codec of `call`'s method; throws when the recipe does not match its own descriptors. */
export function methodCodec(call: GrpcCall, registries: GrpcRegistries): MethodCodec {
  const registry = registries.of(call.descriptorSet);
  const service = registry.getService(call.service);
  if (!service) throw new Error(`its descriptor set has no service ${call.service}`);
  const method = service.methods.find((candidate) => candidate.name === call.method);
  if (!method) throw new Error(`service ${call.service} has no method ${call.method}`);
  if (method.methodKind !== methodKinds[call.streaming])
    throw new Error(`${call.service}/${call.method} is ${method.methodKind}, not ${methodKinds[call.streaming]}`);
  const request = checkedType(method.input, call.requestType, "request");
  const response = checkedType(method.output, call.responseType, "response");
  const readOptions = { registry };
  const writeOptions = { registry, alwaysEmitImplicit: true };
  return {
    encode: (args) => toBinary(request, fromJson(request, args as JsonValue, readOptions)),
    decode: (bytes) => toJson(response, fromBinary(response, bytes), writeOptions),
  };
}

function checkedType(declared: DescMessage, named: string, what: string): DescMessage {
  if (declared.typeName !== named)
    throw new Error(`the method's ${what} message is ${declared.typeName}, the recipe says ${named}`);
  return declared;
}
