/**
 * The gRPC contestants' own pass-through: the least an MCP → gRPC hop can do, doing the same
 * protocol work the gateway must. fastify parses the JSON-RPC body; `params.arguments` are encoded
 * as the request message (proto3 JSON to binary with @bufbuild/protobuf and the .proto's
 * descriptors, as the gateway does with the imported ones); one `@grpc/grpc-js` client calls GetPet;
 * the response message is decoded to proto3 JSON and wrapped as a text result. No validation, no headers, no
 * metadata, no metrics: the practical Node ceiling for one MCP → gRPC hop.
 *
 *   node bench/gateway/grpc-pass-through.ts <grpc://host:port> <descriptor set, base64>   (prints `listening <url>`)
 */
import {
  createFileRegistry,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Client, credentials } from "@grpc/grpc-js";
import Fastify from "fastify";
import { GET_PET_PATH } from "./pets-grpc.ts";

const [backendUrl, descriptorSet] = process.argv.slice(2);
if (!backendUrl?.startsWith("grpc://") || !descriptorSet)
  throw new Error("usage: grpc-pass-through.ts <grpc://host:port> <descriptor set, base64>");
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, Buffer.from(descriptorSet, "base64")));
function messageType(name: string): DescMessage {
  const type = registry.getMessage(name);
  if (!type) throw new Error(`the descriptor set has no message ${name}`);
  return type;
}
const requestType = messageType("pets.v1.GetPetRequest");
const responseType = messageType("pets.v1.Pet");
const client = new Client(backendUrl.slice("grpc://".length), credentials.createInsecure());
const bytes = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

interface ToolCall {
  id: string | number;
  params: { arguments: JsonValue };
}

function getPet(args: JsonValue): Promise<Buffer> {
  const message = toBinary(requestType, fromJson(requestType, args));
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(
      GET_PET_PATH,
      bytes,
      (value: Buffer) => value,
      message,
      (error, value) => (error || !value ? reject(error ?? new Error("no response message")) : resolve(value)),
    ),
  );
}

const app = Fastify({ logger: false });
app.post("/mcp", async (request, reply) => {
  const call = request.body as ToolCall;
  const pet = toJson(responseType, fromBinary(responseType, await getPet(call.params.arguments)));
  reply.type("application/json");
  return JSON.stringify({
    jsonrpc: "2.0",
    id: call.id,
    result: { content: [{ type: "text", text: JSON.stringify(pet) }] },
  });
});

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(`listening ${url}`);
process.on("SIGTERM", () => {
  client.close();
  app.close().then(() => process.exit(0));
});
