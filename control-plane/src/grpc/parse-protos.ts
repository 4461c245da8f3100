/**
 * Uploaded .proto files to descriptors: each file is parsed by protobufjs on its own, its type
 * references resolved by protobuf's scoping rules against the files it imports (transitively),
 * and written as the `FileDescriptorProto` protoc would produce (json_name, proto3 optional, map
 * entries, method options). A missing import, a type no imported file defines, or a name defined
 * twice is refused with the file that has it. Comments are kept by fully-qualified name, to
 * become the tools' and schemas' descriptions.
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import {
  type DescriptorProto,
  type DescriptorProtoSchema,
  type EnumDescriptorProto,
  type EnumDescriptorProtoSchema,
  type FieldDescriptorProtoSchema,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  type ServiceDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import protobuf from "protobufjs";
import type { OpenApiImportError } from "../openapi/errors.ts";
import {
  duplicateFile,
  duplicateSymbol,
  missingImport,
  protoSyntax,
  protoTooDeep,
  unknownType,
  unsupportedProto,
} from "./errors.ts";
import { wellKnownFiles } from "./well-known.ts";

export type ProtoUpload = { path: string; content: string };

export type CompiledProtos = {
  /** The uploaded files' descriptors and the well-known ones they use, each after its imports. */
  files: FileDescriptorProto[];
  /** The paths of the uploaded files (whose services are imported). */
  uploaded: Set<string>;
  /** Comments of messages, fields, enums, services and methods, by fully-qualified name. */
  comments: Map<string, string>;
  /** `GET /v1/pets/{id}` for a method carrying a google.api.http rule, by fully-qualified name. */
  httpRules: Map<string, string>;
};

type MessageInit = MessageInitShape<typeof DescriptorProtoSchema>;
type FieldInit = MessageInitShape<typeof FieldDescriptorProtoSchema>;
type EnumInit = MessageInitShape<typeof EnumDescriptorProtoSchema>;
type ServiceInit = MessageInitShape<typeof ServiceDescriptorProtoSchema>;
type ParsedFile = {
  path: string;
  text: string;
  syntax: "proto2" | "proto3";
  packageName: string;
  imports: string[];
  root: protobuf.Root;
};
type Defined = { kind: "message" | "enum" | "service" | "package"; file: string };
type Symbols = Map<string, Defined>;

const scalarTypes: Record<string, number> = {
  double: 1,
  float: 2,
  int64: 3,
  uint64: 4,
  int32: 5,
  fixed64: 6,
  fixed32: 7,
  bool: 8,
  string: 9,
  bytes: 12,
  uint32: 13,
  sfixed32: 15,
  sfixed64: 16,
  sint32: 17,
  sint64: 18,
};
const LABEL_OPTIONAL = 1;
const LABEL_REQUIRED = 2;
const LABEL_REPEATED = 3;
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const idempotencyLevels: Record<string, number> = { NO_SIDE_EFFECTS: 1, IDEMPOTENT: 2 };

export function compileProtos(uploads: readonly ProtoUpload[]): CompiledProtos {
  const parsed = new Map<string, ParsedFile>();
  for (const upload of uploads) {
    if (parsed.has(upload.path)) throw duplicateFile(upload.path);
    // The bundled well-known types win over an uploaded copy: they are what the gateways decode with.
    if (wellKnownFiles.has(upload.path)) continue;
    parsed.set(upload.path, parseFile(upload));
  }
  for (const file of parsed.values()) {
    for (const imported of file.imports) {
      if (!parsed.has(imported) && !wellKnownFiles.has(imported))
        throw missingImport(file.path, imported, importLine(file.text, imported));
    }
  }
  const symbols = collectSymbols(parsed);
  const comments = new Map<string, string>();
  const httpRules = new Map<string, string>();
  const ordered = dependencyOrder([...parsed.keys()], (path) => parsed.get(path)?.imports ?? wellKnownImports(path));
  const files = ordered.map((path) => {
    const file = parsed.get(path);
    if (!file) return wellKnownFiles.get(path) as FileDescriptorProto;
    const writer = new FileWriter(file, symbols, visibleFiles(file.path, parsed), comments, httpRules);
    return writer.write();
  });
  return { files, uploaded: new Set(parsed.keys()), comments, httpRules };
}

function parseFile(upload: ProtoUpload): ParsedFile {
  const text = upload.content.startsWith("\uFEFF") ? upload.content.slice(1) : upload.content;
  let result: protobuf.IParserResult;
  try {
    result = protobuf.parse(text, new protobuf.Root(), { keepCase: true, alternateCommentMode: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message === "max depth exceeded") throw tooDeepProto(upload.path, text);
    throw parseError(upload.path, text, message);
  }
  // protobufjs reads editions too; the descriptors written here (and the gateways) know proto2 and proto3 only.
  const statements = text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "");
  const edition = /^\s*edition\s*=\s*["']([^"']*)["']/m.exec(statements);
  if (edition) throw unsupportedProto(upload.path, `edition ${edition[1]} (only proto2 and proto3 syntax)`);
  const syntax = /^\s*syntax\s*=\s*["']proto3["']/m.test(statements) ? "proto3" : "proto2";
  return {
    path: upload.path,
    text,
    syntax,
    packageName: result.package ?? "",
    imports: [...(result.imports ?? []), ...(result.weakImports ?? [])],
    root: result.root,
  };
}

/**
 * protobufjs's "max depth exceeded", located: the first message (or group) nested past protoc's
 * limit of 32 levels (`nestingLimit`), or the first brace of an option value past 100 levels
 * (`recursionLimit`). Comments and strings are blanked first, their lines kept.
 */
function tooDeepProto(path: string, text: string): OpenApiImportError {
  const code = text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (skipped) =>
    skipped.replace(/[^\n]/g, " "),
  );
  const { nestingLimit, recursionLimit } = protobuf.util;
  const bodies: boolean[] = []; // each open brace: a message's or group's body, or not
  let messages = 0;
  let declared = false; // a `message` or `group` keyword since the last `;`, `{` or `}`
  for (const match of code.matchAll(/\b(?:message|group)\b|[{};]/g)) {
    const token = match[0];
    if (token === "message" || token === "group") {
      declared = true;
      continue;
    }
    if (token === "}" && bodies.pop()) messages--;
    if (token === "{") {
      bodies.push(declared);
      if (declared) messages++;
      const line = () => code.slice(0, match.index).split("\n").length;
      if (messages > nestingLimit) return protoTooDeep(messagesTooDeep(nestingLimit), path, line());
      if (bodies.length > recursionLimit)
        return protoTooDeep(
          `an option value is nested more than ${recursionLimit} levels deep (protoc's limit)`,
          path,
          line(),
        );
    }
    declared = false;
  }
  return protoTooDeep(messagesTooDeep(nestingLimit), path, undefined);
}

const messagesTooDeep = (limit: number) =>
  `messages are nested more than ${limit} levels deep (protoc's limit): declare the inner messages at the top level and refer to them by name`;

/** protobufjs says `illegal token 'x' (line 3)`: the line, and the column where the token is on it. */
function parseError(path: string, text: string, message: string): OpenApiImportError {
  const lineMatch = /\(?(?:[^,()]*, )?line (\d+)\)?/.exec(message);
  const reason = message.replace(/\s*\((?:[^,()]*, )?line \d+\)/, "");
  if (!lineMatch) {
    const duplicate = /^duplicate name '([^']+)' in (.+)$/.exec(message);
    if (duplicate) {
      // protobufjs names the scope as `Root`, `Namespace .pkg` or `Type .pkg.Message`.
      const scope = /^\w+ \.(.+)$/.exec(duplicate[2] ?? "")?.[1];
      return duplicateSymbol(scope ? `${scope}.${duplicate[1]}` : (duplicate[1] as string), path, path);
    }
    return protoSyntax(reason, { file: path });
  }
  const line = Number(lineMatch[1]);
  const token = /'([^']+)'/.exec(reason)?.[1];
  const lineText = text.split("\n")[line - 1] ?? "";
  const index = token === undefined ? -1 : lineText.indexOf(token);
  return protoSyntax(reason, { file: path, line, ...(index >= 0 ? { column: index + 1 } : {}) });
}

function importLine(text: string, imported: string): number | undefined {
  const at = text.search(new RegExp(`import\\s+(?:weak\\s+|public\\s+)?["']${escapeRegExp(imported)}["']`));
  return at < 0 ? undefined : text.slice(0, at).split("\n").length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function wellKnownImports(path: string): string[] {
  return wellKnownFiles.get(path)?.dependency ?? [];
}

/** Every path reachable from `roots` through `importsOf`, each after the files it imports. */
export function dependencyOrder(roots: readonly string[], importsOf: (path: string) => readonly string[]): string[] {
  const ordered: string[] = [];
  const seen = new Set<string>();
  // Iterative depth-first walk: a long import chain must not exhaust the stack.
  for (const root of roots) {
    const stack: { path: string; next: number }[] = [];
    if (!seen.has(root)) {
      seen.add(root);
      stack.push({ path: root, next: 0 });
    }
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { path: string; next: number };
      const imports = importsOf(top.path);
      const child = imports[top.next++];
      if (child === undefined) {
        ordered.push(top.path);
        stack.pop();
      } else if (!seen.has(child)) {
        seen.add(child);
        stack.push({ path: child, next: 0 });
      }
    }
  }
  return ordered;
}

/** The file itself and every file it imports, transitively (protoc allows fewer; no set is made invalid by it). */
function visibleFiles(path: string, parsed: Map<string, ParsedFile>): Set<string> {
  return new Set(dependencyOrder([path], (p) => parsed.get(p)?.imports ?? wellKnownImports(p)));
}

function collectSymbols(parsed: Map<string, ParsedFile>): Symbols {
  const symbols: Symbols = new Map();
  const add = (name: string, symbol: Defined) => {
    const known = symbols.get(name);
    if (known && (known.kind !== "package" || symbol.kind !== "package"))
      throw duplicateSymbol(name, known.file, symbol.file);
    symbols.set(name, symbol);
  };
  for (const [path, file] of wellKnownFiles) {
    const walk = (prefix: string, messages: DescriptorProto[], enums: EnumDescriptorProto[]) => {
      for (const message of messages) {
        add(`${prefix}.${message.name}`, { kind: "message", file: path });
        walk(`${prefix}.${message.name}`, message.nestedType, message.enumType);
      }
      for (const enumType of enums) add(`${prefix}.${enumType.name}`, { kind: "enum", file: path });
    };
    walk(file.package, file.messageType, file.enumType);
  }
  for (const file of parsed.values()) {
    const parts = file.packageName ? file.packageName.split(".") : [];
    parts.forEach((_, i) => {
      add(parts.slice(0, i + 1).join("."), { kind: "package", file: file.path });
    });
    const walk = (namespace: protobuf.NamespaceBase) => {
      for (const nested of namespace.nestedArray) {
        const name = nested.fullName.slice(1);
        if (nested instanceof protobuf.Type) {
          add(name, { kind: "message", file: file.path });
          walk(nested);
        } else if (nested instanceof protobuf.Service) add(name, { kind: "service", file: file.path });
        else if (nested instanceof protobuf.Enum) add(name, { kind: "enum", file: file.path });
        else if (nested instanceof protobuf.Namespace) walk(nested);
      }
    };
    walk(file.root);
  }
  return symbols;
}

/** Writes one parsed file as a FileDescriptorProto, resolving every type it names. */
class FileWriter {
  private readonly file: ParsedFile;
  private readonly symbols: Symbols;
  private readonly visible: Set<string>;
  private readonly comments: Map<string, string>;
  private readonly httpRules: Map<string, string>;

  constructor(
    file: ParsedFile,
    symbols: Symbols,
    visible: Set<string>,
    comments: Map<string, string>,
    httpRules: Map<string, string>,
  ) {
    this.file = file;
    this.symbols = symbols;
    this.visible = visible;
    this.comments = comments;
    this.httpRules = httpRules;
  }

  write(): FileDescriptorProto {
    const messageType: MessageInit[] = [];
    const enumType: EnumInit[] = [];
    const service: ServiceInit[] = [];
    const walk = (namespace: protobuf.NamespaceBase) => {
      for (const nested of namespace.nestedArray) {
        if (nested instanceof protobuf.Type) messageType.push(this.message(nested));
        else if (nested instanceof protobuf.Service) service.push(this.service(nested));
        else if (nested instanceof protobuf.Enum) enumType.push(this.enumType(nested));
        else if (nested instanceof protobuf.Namespace) walk(nested);
        // Extensions (custom options) are left out: the JSON mapping and the calls do not use them.
      }
    };
    walk(this.file.root);
    return create(FileDescriptorProtoSchema, {
      name: this.file.path,
      package: this.file.packageName,
      dependency: this.file.imports,
      messageType,
      enumType,
      service,
      syntax: this.file.syntax,
    });
  }

  private remember(name: string, comment: string | null | undefined): void {
    const text = comment?.trim();
    if (text) this.comments.set(name, text);
  }

  private message(type: protobuf.Type): MessageInit {
    const fullName = type.fullName.slice(1);
    if ((type as { group?: boolean }).group)
      throw unsupportedProto(this.file.path, `the group ${fullName} (proto2 groups)`);
    this.remember(fullName, type.comment);
    const real = type.oneofsArray.filter((oneof) => !isSynthetic(oneof));
    const synthetic = type.oneofsArray.filter(isSynthetic);
    const oneofs = [...real, ...synthetic];
    const nestedType: MessageInit[] = [];
    const enumType: EnumInit[] = [];
    for (const nested of type.nestedArray) {
      if (nested instanceof protobuf.Type) nestedType.push(this.message(nested));
      else if (nested instanceof protobuf.Enum) enumType.push(this.enumType(nested));
    }
    const field = type.fieldsArray.map((f) => {
      this.remember(`${fullName}.${f.name}`, f.comment);
      if (f instanceof protobuf.MapField) {
        const entry = mapEntryName(f.name);
        nestedType.push({
          name: entry,
          field: [
            this.field(type, f, { name: "key", number: 1, type: f.keyType }),
            this.field(type, f, { name: "value", number: 2, type: f.type }),
          ],
          options: { mapEntry: true },
        });
        return this.field(type, f, { typeName: `.${fullName}.${entry}`, label: LABEL_REPEATED });
      }
      const index = f.partOf ? oneofs.indexOf(f.partOf) : -1;
      return this.field(type, f, index >= 0 ? { oneofIndex: index } : {});
    });
    return { name: type.name, field, nestedType, enumType, oneofDecl: oneofs.map((oneof) => ({ name: oneof.name })) };
  }

  /** One field; `entry` fields of a map entry (key, value) and the map field itself pass what they override. */
  private field(
    owner: protobuf.Type,
    field: protobuf.Field,
    override: { name?: string; number?: number; type?: string; typeName?: string; label?: number; oneofIndex?: number },
  ): FieldInit {
    const name = override.name ?? field.name;
    const options = (field.options ?? {}) as Record<string, unknown>;
    const isEntryPart = override.name !== undefined;
    // The rule as written (protobufjs's `required` getter reads editions features, unresolved here).
    const rule = (field as { rule?: string }).rule;
    const label = isEntryPart
      ? LABEL_OPTIONAL
      : (override.label ??
        (rule === "repeated" ? LABEL_REPEATED : rule === "required" ? LABEL_REQUIRED : LABEL_OPTIONAL));
    const typeName = override.type ?? field.type;
    const scalar = scalarTypes[typeName];
    const typeFields =
      override.typeName !== undefined
        ? { type: TYPE_MESSAGE, typeName: override.typeName }
        : scalar !== undefined
          ? { type: scalar }
          : this.reference(owner, typeName, `field ${owner.fullName.slice(1)}.${field.name}`);
    const jsonName = !isEntryPart && typeof options.json_name === "string" ? options.json_name : jsonNameOf(name);
    return {
      name,
      number: override.number ?? field.id,
      label,
      ...typeFields,
      jsonName,
      ...(override.oneofIndex !== undefined ? { oneofIndex: override.oneofIndex } : {}),
      ...(!isEntryPart && options.proto3_optional === true ? { proto3Optional: true } : {}),
      ...(!isEntryPart && (typeof options.packed === "boolean" || options.deprecated === true)
        ? {
            options: {
              ...(typeof options.packed === "boolean" ? { packed: options.packed } : {}),
              ...(options.deprecated === true ? { deprecated: true } : {}),
            },
          }
        : {}),
    };
  }

  private reference(owner: protobuf.ReflectionObject, name: string, where: string): { type: number; typeName: string } {
    const isType = (candidate: string) => {
      const kind = this.symbols.get(candidate)?.kind;
      return kind === "message" || kind === "enum";
    };
    const resolved = resolveName(name, owner.fullName.slice(1), isType);
    const symbol = resolved === undefined ? undefined : this.symbols.get(resolved);
    if (resolved === undefined || !symbol || (symbol.kind !== "message" && symbol.kind !== "enum"))
      throw unknownType(this.file.path, name, where);
    if (!this.visible.has(symbol.file)) throw unknownType(this.file.path, name, where, symbol.file);
    return { type: symbol.kind === "message" ? TYPE_MESSAGE : TYPE_ENUM, typeName: `.${resolved}` };
  }

  private enumType(enumType: protobuf.Enum): EnumInit {
    const fullName = enumType.fullName.slice(1);
    this.remember(fullName, enumType.comment);
    const options = (enumType.options ?? {}) as Record<string, unknown>;
    return {
      name: enumType.name,
      value: Object.entries(enumType.values).map(([name, number]) => {
        this.remember(`${fullName}.${name}`, enumType.comments[name]);
        return { name, number };
      }),
      ...(options.allow_alias === true ? { options: { allowAlias: true } } : {}),
    };
  }

  private service(service: protobuf.Service): ServiceInit {
    const fullName = service.fullName.slice(1);
    this.remember(fullName, service.comment);
    const method = service.methodsArray.map((m) => {
      const methodName = `${fullName}.${m.name}`;
      this.remember(methodName, m.comment);
      const options = (m.options ?? {}) as Record<string, unknown>;
      const rule = httpRuleOf(m);
      if (rule) this.httpRules.set(methodName, rule);
      const level =
        typeof options.idempotency_level === "string" ? idempotencyLevels[options.idempotency_level] : undefined;
      return {
        name: m.name,
        inputType: this.reference(service, m.requestType, `method ${methodName}`).typeName,
        outputType: this.reference(service, m.responseType, `method ${methodName}`).typeName,
        clientStreaming: m.requestStream === true,
        serverStreaming: m.responseStream === true,
        ...(level !== undefined || options.deprecated === true
          ? {
              options: {
                ...(level !== undefined ? { idempotencyLevel: level } : {}),
                ...(options.deprecated === true ? { deprecated: true } : {}),
              },
            }
          : {}),
      };
    });
    return { name: service.name, method };
  }
}

function isSynthetic(oneof: protobuf.OneOf): boolean {
  const [only, ...others] = oneof.fieldsArray;
  return others.length === 0 && (only?.options as Record<string, unknown> | undefined)?.proto3_optional === true;
}

/** protoc's: `tag_ids` → `TagIdsEntry`. */
function mapEntryName(field: string): string {
  const camel = jsonNameOf(field);
  return `${camel.charAt(0).toUpperCase()}${camel.slice(1)}Entry`;
}

/** protoc's json_name: each letter after an underscore upper-cased, the underscores dropped. */
export function jsonNameOf(name: string): string {
  return name.replace(/_+([a-z]?)/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * protobuf's scoping: a relative name is looked up from the innermost scope outwards; a name with
 * a leading dot is fully qualified. Returns the full name (no leading dot) of a type `isType` knows.
 */
export function resolveName(name: string, scope: string, isType: (name: string) => boolean): string | undefined {
  if (name.startsWith(".")) return isType(name.slice(1)) ? name.slice(1) : undefined;
  let current = scope;
  for (;;) {
    const candidate = current ? `${current}.${name}` : name;
    if (isType(candidate)) return candidate;
    if (!current) return undefined;
    const dot = current.lastIndexOf(".");
    current = dot < 0 ? "" : current.slice(0, dot);
  }
}

/** `GET /v1/{name=pets/*}` from a method's google.api.http option, as protobufjs keeps it. */
function httpRuleOf(method: protobuf.Method): string | undefined {
  const parsed = (method.parsedOptions ?? []) as Record<string, unknown>[];
  for (const option of parsed) {
    const rule = option["(google.api.http)"];
    if (rule === null || typeof rule !== "object") continue;
    for (const verb of ["get", "put", "post", "delete", "patch"]) {
      const path = (rule as Record<string, unknown>)[verb];
      if (typeof path === "string") return `${verb.toUpperCase()} ${path}`;
    }
  }
  return undefined;
}
