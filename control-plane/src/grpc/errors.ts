/**
 * Coded errors of the gRPC import, every message built here. They are import errors like the
 * OpenAPI importer's (same class, same 422 problem), with GRPC_ codes; `location` names the
 * .proto file and, when known, the line and column.
 */
import type { SourceLocation } from "@atrium/contract/rest";
import { describeLocation, OpenApiImportError } from "../openapi/errors.ts";

export function protoSyntax(reason: string, location: SourceLocation): OpenApiImportError {
  return new OpenApiImportError(
    "GRPC_SYNTAX",
    `The .proto file does not parse${describeLocation(location)}: ${reason}`,
    location,
  );
}

/** A .proto file nested past protobufjs's limits (protoc's): `reason` says which nesting, and what to do. */
export function protoTooDeep(reason: string, file: string, line: number | undefined): OpenApiImportError {
  const location = { file, ...(line === undefined ? {} : { line }) };
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The .proto file is nested too deep${describeLocation(location)}: ${reason}`,
    location,
  );
}

export function missingImport(file: string, imported: string, line: number | undefined): OpenApiImportError {
  const location = { file, ...(line === undefined ? {} : { line }) };
  return new OpenApiImportError(
    "GRPC_INVALID",
    `${file}${line === undefined ? "" : ` (line ${line})`} imports '${imported}', which was not uploaded: send it too, with the path its import statement gives (Google's well-known types google/protobuf/*.proto need no file)`,
    location,
  );
}

export function duplicateSymbol(name: string, first: string, second: string): OpenApiImportError {
  return new OpenApiImportError(
    "GRPC_INVALID",
    `'${name}' is defined twice, in ${first}${second === first ? "" : ` and in ${second}`}: every fully-qualified name must be defined once; rename one, or leave out the file that repeats it`,
    { file: second },
  );
}

export function duplicateFile(path: string): OpenApiImportError {
  return new OpenApiImportError("GRPC_INVALID", `The file ${path} was sent twice: send each .proto file once`, {
    file: path,
  });
}

export function unknownType(file: string, name: string, where: string, definedIn?: string): OpenApiImportError {
  const hint = definedIn
    ? `it is defined in ${definedIn}, which ${file} does not import: add the import`
    : "no uploaded file defines it: send the file that does, and import it";
  return new OpenApiImportError("GRPC_INVALID", `${file}: ${where} uses the type '${name}', but ${hint}`, {
    file,
  });
}

export function unsupportedProto(file: string, what: string): OpenApiImportError {
  return new OpenApiImportError("GRPC_INVALID", `${file}: ${what} cannot be imported`, { file });
}

export function invalidDescriptors(reason: string): OpenApiImportError {
  return new OpenApiImportError(
    "GRPC_INVALID",
    `The .proto files do not make a consistent set of descriptors: ${reason}`,
  );
}

export function noMethods(notExposed: number): OpenApiImportError {
  const why =
    notExposed > 0
      ? ` (${notExposed} method${notExposed === 1 ? " is" : "s are"} client-streaming, bidirectional or use messages whose JSON is not an object, and cannot be tools)`
      : "";
  return new OpenApiImportError(
    "GRPC_NO_OPERATIONS",
    `The .proto files define no service with a unary or server-streaming method to publish as a tool${why}: add a service, or send the file that defines it`,
  );
}

export function toolsTooLarge(maxNodes: number): OpenApiImportError {
  return new OpenApiImportError(
    "OPENAPI_TOO_LARGE",
    `The gRPC services' tools come to more than ${maxNodes} JSON nodes, each tool carrying the messages it uses and its descriptors: split the services into several Services`,
  );
}

export function reflectionFailed(url: string, reason: string, cause?: unknown): OpenApiImportError {
  return new OpenApiImportError(
    "GRPC_REFLECTION",
    `Could not read the services of ${url} through server reflection: ${reason}. Check the address, that the server enables reflection (grpc.reflection.v1 or v1alpha) and that the control plane can reach it, or upload the .proto files`,
    undefined,
    cause,
  );
}
