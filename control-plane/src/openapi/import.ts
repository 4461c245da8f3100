/**
 * Importing an OpenAPI 2.0 / 3.0 / 3.1 document (text, or downloaded from a URL) into normalized
 * operations. @readme/openapi-parser validates and dereferences; this module only decides what it
 * may read (nothing but the document: `$ref`s to files or URLs are refused before the parser runs)
 * and reshapes its output.
 */
import { dereference, validate } from "@readme/openapi-parser";
import {
  cyclicYaml,
  externalRef,
  invalidDocument,
  noOperations,
  notADocument,
  tooLarge,
  unsupportedVersion,
} from "./errors.ts";
import { fetchDocument } from "./fetch-document.ts";
import { childPointer } from "./json-pointer.ts";
import { createSchemaConverter, type SchemaDialect } from "./json-schema.ts";
import { type Locate, textLocator } from "./locate.ts";
import { normalizeDocument } from "./normalize.ts";
import type { ImportedDocument } from "./operation.ts";
import { parseDocumentText } from "./parse-text.ts";
import { validationFailureError } from "./parser-errors.ts";
import { copyJson, isPlainObject, type JsonObject, type RefSite } from "./plain-json.ts";

export { OpenApiImportError } from "./errors.ts";

export type OpenApiSource = { text: string } | { url: string };

export type ImportOptions = {
  /** Time allowed for downloading the document from a URL; default 10 s. */
  fetchTimeoutMs?: number;
  /** Largest document accepted, downloaded or inline, in bytes of UTF-8; default 10 MiB. */
  maxBytes?: number;
};

export const defaultFetchTimeoutMs = 10_000;
export const defaultMaxBytes = 10 * 1024 * 1024;
/** Inlining shared schemas into every operation can multiply them; this bounds the stored result. */
export const maxSchemaNodes = 2_000_000;

type ApiDocument = Parameters<typeof validate>[0];

const parserOptions = {
  // Defense in depth: external `$ref`s are refused before the parser runs; it must not resolve any.
  resolve: { external: false, file: false },
  validate: {
    // Checked by `normalizeDocument`, whose message names both operations.
    rules: { openapi: { "duplicate-operation-id": "warning" }, swagger: { "duplicate-operation-id": "warning" } },
  },
} as const;

export async function importOpenApi(source: OpenApiSource, options: ImportOptions = {}): Promise<ImportedDocument> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  let text: string;
  let documentUrl: string | undefined;
  if ("url" in source) {
    const fetched = await fetchDocument(source.url, options.fetchTimeoutMs ?? defaultFetchTimeoutMs, maxBytes);
    text = fetched.text;
    documentUrl = fetched.url;
  } else {
    if (Buffer.byteLength(source.text, "utf8") > maxBytes) throw tooLarge("The OpenAPI document", maxBytes);
    text = source.text;
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const locate = textLocator(text);

  const refs: RefSite[] = [];
  // A fresh tree: YAML aliases no longer share nodes, and a cyclic alias is caught here.
  const tree = copyJson(parseDocumentText(text), { refs, onCycle: (pointer) => cyclicYaml(locate(pointer)) });
  const { dialect, version } = detectVersion(tree, locate);
  const external = refs.filter(({ ref }) => !ref.startsWith("#"));
  const [firstExternal] = external;
  if (firstExternal) {
    throw externalRef(firstExternal.ref, locate(childPointer(firstExternal.pointer, "$ref")), external.length - 1);
  }

  // The parser works in place: each of its passes gets its own copy.
  let validation: Awaited<ReturnType<typeof validate>>;
  try {
    validation = await validate(structuredClone(tree) as ApiDocument, parserOptions);
  } catch (error) {
    throw invalidDocument([error instanceof Error ? error.message : String(error)], undefined, error);
  }
  if (!validation.valid) {
    throw await validationFailureError(validation, {
      locate,
      refs,
      validatedDocument: () =>
        dereference(structuredClone(tree) as ApiDocument, { ...parserOptions, dereference: { circular: "ignore" } }),
    });
  }

  const refOrigins = new Map<object, string>();
  let dereferenced: unknown;
  try {
    dereferenced = await dereference(tree as ApiDocument, {
      ...parserOptions,
      dereference: {
        circular: true,
        onDereference: (ref, value) => {
          if (typeof value === "object" && value !== null && !refOrigins.has(value)) refOrigins.set(value, ref);
        },
      },
    });
  } catch (error) {
    throw invalidDocument([error instanceof Error ? error.message : String(error)], undefined, error);
  }

  const onCycle = (pointer: string) =>
    invalidDocument([`a value at ${pointer} contains itself through $refs, which only schemas may do`], { pointer });
  const imported = normalizeDocument(dereferenced as JsonObject, {
    dialect,
    openapiVersion: version,
    converter: createSchemaConverter({ dialect, refOrigins, maxNodes: maxSchemaNodes, onCycle }),
    ...(documentUrl === undefined ? {} : { documentUrl }),
    locate,
    onCycle,
  });
  if (imported.operations.length === 0) throw noOperations();
  return imported;
}

function detectVersion(tree: unknown, locate: Locate): { dialect: SchemaDialect; version: string } {
  if (!isPlainObject(tree)) {
    throw notADocument(tree === null ? "empty" : Array.isArray(tree) ? "a list" : `a single ${typeof tree} value`);
  }
  if ("swagger" in tree) {
    // Unquoted `swagger: 2.0` is the number 2 in YAML; the intent is clear.
    if (tree.swagger === 2) tree.swagger = "2.0";
    if (tree.swagger === "2.0") return { dialect: "2.0", version: "2.0" };
    throw unsupportedVersion("swagger", tree.swagger, locate("/swagger"));
  }
  if ("openapi" in tree) {
    const version = tree.openapi;
    if (typeof version === "string" && /^3\.0\.\d+(-.+)?$/.test(version)) return { dialect: "3.0", version };
    if (typeof version === "string" && /^3\.1\.\d+(-.+)?$/.test(version)) return { dialect: "3.1", version };
    throw unsupportedVersion("openapi", version, locate("/openapi"));
  }
  throw notADocument("a JSON/YAML object without an 'openapi' or 'swagger' field");
}
