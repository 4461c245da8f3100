/**
 * Importing an OpenAPI 2.0 / 3.0 / 3.1 document (text, or downloaded from a URL) into normalized
 * operations. @readme/openapi-parser validates and dereferences; this module decides what it may
 * read (nothing but the document: `$ref`s to files or URLs are refused before the parser runs),
 * bounds the work (see limits.ts), reshapes the output and checks it against the contract the
 * gateways parse with. The work itself runs in a worker thread (see run-import.ts); the download
 * stays here, behind the SSRF guard of fetch-document.ts.
 */
import type { ServiceKind } from "@atrium/crds";
import { dereference, validate } from "@readme/openapi-parser";
import { introspectionRequest, isGraphqlEndpoint } from "../graphql/endpoint.ts";
import { checkContract } from "./contract-check.ts";
import {
  cyclicYaml,
  invalidDocument,
  noOperations,
  notADocument,
  OpenApiImportError,
  tooLarge,
  unsupportedVersion,
  withoutContent,
} from "./errors.ts";
import { type FetchPolicy, fetchDocument, redactUrl } from "./fetch-document.ts";
import type { ImportedDocument } from "./imported-document.ts";
import { createSchemaConverter, type SchemaDialect } from "./json-schema.ts";
import {
  checkDepth,
  defaultImportBudgetMs,
  defaultMaxBytes,
  maxDocumentDepth,
  maxSchemaNodes,
  maxValidationNodes,
} from "./limits.ts";
import { type Locate, textLocator } from "./locate.ts";
import { normalizeDocument } from "./normalize.ts";
import { parseDocumentText } from "./parse-text.ts";
import { validationFailureError } from "./parser-errors.ts";
import { reuseParserValidators } from "./parser-validators.ts";
import { copyJson, isPlainObject, type JsonObject, type RefSite } from "./plain-json.ts";
import { checkDynamicRefs, checkReferences, validationCopy } from "./references.ts";
import { runImportInWorker } from "./run-import.ts";

export { OpenApiImportError } from "./errors.ts";

export type OpenApiSource = { text: string } | { url: string };

export type ImportOptions = {
  /** Time allowed for downloading the document from a URL; default 10 s. */
  fetchTimeoutMs?: number;
  /** Largest document accepted, downloaded or inline, in bytes of UTF-8; default 10 MiB. */
  maxBytes?: number;
  /** Time the worker thread may spend on the document; default 60 s. */
  budgetMs?: number;
  /** Which addresses a URL import may reach (default: public addresses only, see fetch-document.ts). */
  fetchPolicy?: FetchPolicy;
  /**
   * graphql: the text is a GraphQL schema, imported by graphql/import.ts under the same limits
   * (a URL that is not a file's is the endpoint, sent the introspection query: graphql/endpoint.ts); default openapi.
   */
  kind?: ServiceKind;
};

export const defaultFetchTimeoutMs = 10_000;
export { defaultMaxBytes, maxSchemaNodes };

export async function importOpenApi(source: OpenApiSource, options: ImportOptions = {}): Promise<ImportedDocument> {
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const kind = options.kind ?? "openapi";
  const budgetMs = options.budgetMs ?? defaultImportBudgetMs;
  if (!("url" in source)) {
    if (Buffer.byteLength(source.text, "utf8") > maxBytes) throw tooLarge(`The ${documentName(kind)}`, maxBytes);
    return runImportInWorker({ text: source.text, kind }, budgetMs);
  }
  const introspected = kind === "graphql" && isGraphqlEndpoint(source.url);
  const fetched = await fetchDocument(source.url, {
    timeoutMs: options.fetchTimeoutMs ?? defaultFetchTimeoutMs,
    maxBytes,
    ...(options.fetchPolicy ? { policy: options.fetchPolicy } : {}),
    ...(introspected ? { postJson: introspectionRequest } : {}),
  });
  // Credentials of the document's server are not the API's: relative servers resolve without them.
  const documentUrl = redactUrl(new URL(fetched.url));
  try {
    return await runImportInWorker({ text: fetched.text, documentUrl, kind, introspected }, budgetMs);
  } catch (error) {
    if (error instanceof OpenApiImportError) throw withoutContent(error, documentUrl);
    throw error;
  }
}

function documentName(kind: ServiceKind): string {
  return kind === "graphql" ? "GraphQL schema" : "OpenAPI document";
}

// Without it, every validation compiles the OpenAPI meta-schema anew (~40 ms).
reuseParserValidators();

const parserOptions = {
  // Defense in depth: external `$ref`s are refused before the parser runs; it must not resolve any.
  resolve: { external: false, file: false },
  validate: {
    rules: {
      // Checked by `normalizeDocument`, whose message names both operations.
      openapi: { "duplicate-operation-id": "warning" },
      // The validator sees schema $refs cut (see references.ts): properties inherited through
      // `allOf: [{$ref}]` are out of its sight.
      swagger: { "duplicate-operation-id": "warning", "unknown-required-schema-property": "warning" },
    },
  },
} as const;

/**
 * The import proper, on text already at hand: parse, check references and limits, validate,
 * dereference, normalize, check against the contract. Runs in the import worker.
 */
export async function importText(rawText: string, documentUrl?: string): Promise<ImportedDocument> {
  const text = rawText.startsWith("\uFEFF") ? rawText.slice(1) : rawText;
  const { value: parsed, yaml } = parseDocumentText(text);
  const locate = textLocator(text, yaml);
  const onYamlCycle = (pointer: string) => cyclicYaml(locate(pointer));
  checkDepth(parsed, maxDocumentDepth, locate, onYamlCycle);
  const refs: RefSite[] = [];
  // A fresh tree: YAML aliases no longer share nodes.
  const tree = copyJson(parsed, { refs, onCycle: onYamlCycle });
  const { dialect, version } = detectVersion(tree, locate);
  checkReferences(tree, refs, locate);
  checkDynamicRefs(tree, locate);

  // The parser works in place: each of its passes gets its own copy.
  const forValidation = validationCopy(tree, maxValidationNodes);
  let validation: Awaited<ReturnType<typeof validate>>;
  try {
    validation = await validate(forValidation as ApiDocument, parserOptions);
  } catch (error) {
    throw invalidDocument([error instanceof Error ? error.message : String(error)], undefined, error);
  }
  if (!validation.valid) {
    throw await validationFailureError(validation, {
      locate,
      refs,
      validatedDocument: () =>
        dereference(validationCopy(tree, maxValidationNodes) as ApiDocument, {
          ...parserOptions,
          dereference: { circular: "ignore" },
        }),
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
  const { document: imported, sites } = normalizeDocument(dereferenced as JsonObject, {
    dialect,
    openapiVersion: version,
    converter: createSchemaConverter({ dialect, refOrigins, maxNodes: maxSchemaNodes, onCycle, locate }),
    ...(documentUrl === undefined ? {} : { documentUrl }),
    locate,
    onCycle,
  });
  if (imported.operations.length === 0) throw noOperations();
  return checkContract(imported, sites, locate);
}

type ApiDocument = Parameters<typeof validate>[0];

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
