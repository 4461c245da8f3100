/**
 * Google's well-known types (google/protobuf/*.proto), bundled: an import of one needs no file,
 * and their descriptors are the ones @bufbuild/protobuf ships (the same the gateways decode with).
 */
import type { DescFile } from "@bufbuild/protobuf";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import * as wkt from "@bufbuild/protobuf/wkt";

function isDescFile(value: unknown): value is DescFile {
  return value !== null && typeof value === "object" && (value as { kind?: unknown }).kind === "file";
}

/** The bundled files by path, e.g. `google/protobuf/timestamp.proto`. */
export const wellKnownFiles: ReadonlyMap<string, FileDescriptorProto> = new Map(
  Object.values(wkt)
    .filter(isDescFile)
    .map((file) => [file.proto.name, file.proto]),
);
