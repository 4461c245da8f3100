/**
 * The gRPC contestants' contract: `GetPet(petId)` answering the same pet as backend.ts, as .proto
 * text (the control plane imports it for the gateway), as descriptors (for the gRPC pass-through,
 * which has no .proto compiler: the same file, written out as protoc would), and the two messages
 * in the protobuf binary format, written and read by hand for the backend (grpc-backend.ts): three
 * fields are not worth a compiler there, and the backend should spend the harness core's time on
 * the load.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from "@bufbuild/protobuf/wkt";

export const PETS_PROTO = `syntax = "proto3";
package pets.v1;

// A pet of the store.
message Pet {
  int32 id = 1;
  string name = 2;
  string status = 3;
}

message GetPetRequest {
  int32 pet_id = 1;
}

service Pets {
  // One pet by id.
  rpc GetPet(GetPetRequest) returns (Pet);
}
`;

export const GET_PET_PATH = "/pets.v1.Pets/GetPet";

const field = (name: string, jsonName: string, number: number, type: Type) => ({
  name,
  jsonName,
  number,
  type,
  label: Label.OPTIONAL,
});

/** PETS_PROTO as a FileDescriptorSet, base64. */
export const PETS_DESCRIPTOR_SET = Buffer.from(
  toBinary(
    FileDescriptorSetSchema,
    create(FileDescriptorSetSchema, {
      file: [
        create(FileDescriptorProtoSchema, {
          name: "pets-grpc.proto",
          package: "pets.v1",
          syntax: "proto3",
          messageType: [
            {
              name: "Pet",
              field: [
                field("id", "id", 1, Type.INT32),
                field("name", "name", 2, Type.STRING),
                field("status", "status", 3, Type.STRING),
              ],
            },
            { name: "GetPetRequest", field: [field("pet_id", "petId", 1, Type.INT32)] },
          ],
          service: [
            {
              name: "Pets",
              method: [{ name: "GetPet", inputType: ".pets.v1.GetPetRequest", outputType: ".pets.v1.Pet" }],
            },
          ],
        }),
      ],
    }),
  ),
).toString("base64");

/** `GetPetRequest.pet_id` of the message's bytes (field 1, a varint); 0 when absent. */
export function petIdOf(message: Buffer): number {
  let offset = 0;
  while (offset < message.length) {
    const key = message[offset++] ?? 0;
    const value = readVarint(message, offset);
    offset = value.next;
    if (key === 0x08) return value.value | 0;
    // Only varint fields are expected; anything else ends the read.
    if ((key & 7) !== 0) break;
  }
  return 0;
}

function readVarint(bytes: Buffer, start: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let offset = start;
  while (offset < bytes.length) {
    const byte = bytes[offset++] ?? 0;
    value |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
    shift += 7;
  }
  return { value, next: offset };
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return bytes;
}

function text(field: number, value: string): number[] {
  const bytes = Buffer.from(value);
  return [(field << 3) | 2, ...varint(bytes.length), ...bytes];
}

/** The pet of `petId` as backend.ts answers it, `{id, name: "pet-<id>", status: "available"}`, as a Pet message. */
export function petMessage(petId: number): Buffer {
  return Buffer.from([0x08, ...varint(petId), ...text(2, `pet-${petId}`), ...text(3, "available")]);
}
