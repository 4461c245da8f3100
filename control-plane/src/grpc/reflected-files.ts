/**
 * Descriptors a reflection server sent, made whole. protoc-built servers (Go, Java, C++) send the
 * files as compiled; servers whose descriptors are rebuilt from parsed .proto text (Node's
 * @grpc/reflection, through protobufjs) send one file per package, with no `dependency` list, and
 * the well-known types they use in a file of their own, and type names as written in the .proto
 * text. So: a file that only repeats well-known types is replaced by the bundled ones, each type
 * name is resolved to its full name, and each file's dependencies are completed with the files
 * defining the types it uses. A set that was whole already is left as it was.
 */
import type { DescriptorProto, FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { jsonNameOf, resolveName } from "./parse-protos.ts";
import { wellKnownFiles } from "./well-known.ts";

/** Every message and enum a file defines, by full name (no leading dot). */
function definedNames(file: FileDescriptorProto): string[] {
  const names: string[] = [];
  const prefix = file.package ? `${file.package}.` : "";
  const walk = (scope: string, messages: DescriptorProto[]) => {
    for (const message of messages) {
      names.push(`${scope}${message.name}`);
      for (const nested of message.enumType) names.push(`${scope}${message.name}.${nested.name}`);
      walk(`${scope}${message.name}.`, message.nestedType);
    }
  };
  walk(prefix, file.messageType);
  for (const enumType of file.enumType) names.push(`${prefix}${enumType.name}`);
  return names;
}

/**
 * The full names of the types a file's fields and methods use; a relative name (protobufjs writes
 * them as in the .proto text) is resolved in its scope and written back fully qualified, and an
 * empty json_name is given protoc's.
 */
function usedNames(file: FileDescriptorProto, isType: (name: string) => boolean): string[] {
  const used: string[] = [];
  const absolute = (name: string, scope: string): string => {
    const resolved = resolveName(name, scope, isType);
    if (resolved !== undefined) used.push(resolved);
    return resolved === undefined ? name : `.${resolved}`;
  };
  const walk = (scope: string, messages: DescriptorProto[]) => {
    for (const message of messages) {
      const inner = scope ? `${scope}.${message.name}` : message.name;
      for (const field of message.field) {
        if (field.typeName) field.typeName = absolute(field.typeName, inner);
        // protobufjs writes an empty json_name, which would make every JSON name empty.
        if (!field.jsonName) field.jsonName = jsonNameOf(field.name);
      }
      walk(inner, message.nestedType);
    }
  };
  walk(file.package, file.messageType);
  for (const service of file.service) {
    const scope = file.package ? `${file.package}.${service.name}` : service.name;
    for (const method of service.method) {
      method.inputType = absolute(method.inputType, scope);
      method.outputType = absolute(method.outputType, scope);
    }
  }
  return used;
}

export function completeReflectedFiles(received: FileDescriptorProto[]): FileDescriptorProto[] {
  const definedBy = new Map<string, string>();
  for (const [path, file] of wellKnownFiles) for (const name of definedNames(file)) definedBy.set(name, path);
  const kept = received.filter(
    (file) =>
      wellKnownFiles.has(file.name) ||
      file.service.length > 0 ||
      !definedNames(file).every((name) => definedBy.has(name)),
  );
  for (const file of kept)
    for (const name of definedNames(file)) if (!definedBy.has(name)) definedBy.set(name, file.name);
  for (const file of kept) {
    if (wellKnownFiles.has(file.name)) continue;
    for (const name of usedNames(file, (candidate) => definedBy.has(candidate))) {
      const path = definedBy.get(name);
      if (path !== undefined && path !== file.name && !file.dependency.includes(path)) file.dependency.push(path);
    }
  }
  return kept.filter((file) => !wellKnownFiles.has(file.name));
}
