/** .proto files for the gRPC import's tests: a pet store in two files, using the well-known types. */
import type { ProtoUpload } from "./parse-protos.ts";

export const petProto = `syntax = "proto3";

package petstore.v1;

import "google/protobuf/timestamp.proto";

// A pet of the store.
message Pet {
  // How the pet is called.
  string name = 1;
  uint64 id = 2 [json_name = "petId"];
  Kind kind = 3;
  repeated string tags = 4;
  map<string, int32> scores = 5;
  map<int64, Pet> friends_by_id = 6;
  // Who keeps the pet.
  oneof keeper {
    string person = 7;
    string shelter = 8;
  }
  optional bool vaccinated = 9;
  bytes photo = 10;
  double weight_kg = 11;
  google.protobuf.Timestamp born_at = 12;
  Pet parent = 13;
  Toy toy = 14;
  float height = 15;
  sint32 age = 16;
  fixed64 chip = 17;

  enum Kind {
    KIND_UNSPECIFIED = 0;
    DOG = 1;
    CAT = 2;
  }

  message Toy {
    string name = 1;
  }
}
`;

export const petsProto = `syntax = "proto3";

package petstore.v1;

import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/empty.proto";
import "google/protobuf/field_mask.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "petstore/v1/pet.proto";

// The pet store.
service PetService {
  // Gets one pet by its id.
  rpc GetPet(GetPetRequest) returns (Pet) {
    option idempotency_level = NO_SIDE_EFFECTS;
  }
  // Adds a pet.
  rpc CreatePet(CreatePetRequest) returns (Pet);
  // Sends the pets of a kind, one message each.
  rpc WatchPets(WatchPetsRequest) returns (stream Pet);
  rpc UploadPets(stream Pet) returns (google.protobuf.Empty);
  rpc Chat(stream Pet) returns (stream Pet);
  rpc Ping(google.protobuf.Empty) returns (google.protobuf.Empty) {
    option idempotency_level = IDEMPOTENT;
  }
  rpc Now(google.protobuf.Empty) returns (google.protobuf.Timestamp);
}

message GetPetRequest {
  int64 pet_id = 1;
}

message CreatePetRequest {
  Pet pet = 1;
  google.protobuf.FieldMask mask = 2;
  google.protobuf.Struct labels = 3;
  google.protobuf.Value extra = 4;
  google.protobuf.Any detail = 5;
  google.protobuf.Duration ttl = 6;
  google.protobuf.StringValue nickname = 7;
  google.protobuf.Int64Value weight = 8;
  google.protobuf.Timestamp at = 9;
  google.protobuf.ListValue list = 10;
}

message WatchPetsRequest {
  Pet.Kind kind = 1;
}
`;

export const petstoreFiles: ProtoUpload[] = [
  { path: "petstore/v1/pets.proto", content: petsProto },
  { path: "petstore/v1/pet.proto", content: petProto },
];
