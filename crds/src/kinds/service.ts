/**
 * Service: an API contract (an OpenAPI 2.0 / 3.x document, a GraphQL schema, or gRPC .proto files)
 * that plans bind to a backend.
 */
import { z } from "zod";
import { objectName, reconcileStatusWithConditions, urlProblem } from "../common.ts";
import { defineKind } from "../kind.ts";
import { type CelRule, exactlyOneOf } from "../rules.ts";

/**
 * The kinds of contract a Service is imported from. A plan on a kind the gateways do not call is
 * refused by the control plane (routes/service-kinds.ts), whatever the schema takes.
 */
export const serviceKind = z
  .enum(["openapi", "graphql", "grpc"], {
    error: (issue) => `${JSON.stringify(issue.input)} is not a kind of Service: openapi, graphql or grpc`,
  })
  .describe(
    "The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document), graphql (a GraphQL schema, SDL or an introspection result in JSON) or grpc (proto3/proto2 .proto files, or a gRPC server's reflection). A ConfigurationPlan on a Service of a kind the gateways do not call is refused (SERVICE_KIND_NOT_PUBLISHABLE).",
  );
export type ServiceKind = z.infer<typeof serviceKind>;

/** Why `value` is not a usable gRPC server address (`grpc://host:port` or `grpcs://host:port`), or undefined. */
export function grpcUrlProblem(value: string): string | undefined {
  const shape = "must be grpc://host:port (h2c) or grpcs://host:port (TLS)";
  if (!/^grpcs?:\/\/[^\s/?#@]+\/?$/i.test(value)) return `${shape}, with no path, query or credentials`;
  // WHATWG URL reads the host of a scheme it does not know as it would an http one's: give it one.
  const problem = urlProblem(value.replace(/^grpc(s?):/i, "http$1:"));
  return problem ? `${shape}: ${problem}` : undefined;
}

const contractUrlPattern = "^(https?|grpcs?)://[^\\s/?#]+[^\\s]*$";
/**
 * An http(s) URL or a gRPC server's address (grpc:// or grpcs://): where a contract is read from (a
 * document, or a server's reflection), and where a plan's backend answers.
 */
export const contractUrl = z
  .string()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = /^grpcs?:/i.test(value) ? grpcUrlProblem(value) : urlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ pattern: contractUrlPattern });

/** Caps of an upload of .proto files (the import's byte limit applies to their total besides). */
export const maxProtoFiles = 1_000;
/** Why `path` cannot name an uploaded .proto file, or undefined. */
function protoPathProblem(path: string): string | undefined {
  const fine =
    /^[A-Za-z0-9_.\-/]+\.proto$/.test(path) &&
    !path.startsWith("/") &&
    path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
  return fine
    ? undefined
    : "must be a relative path ending in .proto (letters, digits, '_', '-', '.', '/'; no empty, '.' or '..' segment), as the files' import statements name it";
}

const protoPath = z
  .string()
  .min(1)
  .max(1024)
  .superRefine((value, ctx) => {
    const problem = protoPathProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ pattern: "^[A-Za-z0-9_.\\-/]+\\.proto$" })
  .describe("The file's path relative to its import root, as import statements name it, e.g. petstore/v1/pets.proto.");

export const protoFile = z
  .object({
    path: protoPath,
    content: z.string().describe("The .proto file's text (UTF-8)."),
  })
  .describe("One .proto file.");

export const openApiSource = exactlyOneOf(
  z.object({
    inline: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The document itself: OpenAPI as JSON or YAML; for kind graphql, SDL or an introspection result; for kind grpc, one .proto file that imports nothing but Google's well-known types.",
      ),
    url: contractUrl
      .optional()
      .describe(
        "Where the control plane reads the contract: an http(s) URL of the document, or for kind grpc the server's address, grpc://host:port (h2c) or grpcs://host:port (TLS), read through server reflection (grpc.reflection.v1, else v1alpha).",
      ),
    configMapRef: z
      .object({
        name: objectName.describe("Name of the ConfigMap in the same namespace."),
        key: z.string().min(1).describe("Key of the ConfigMap entry holding the document."),
      })
      .describe(
        "A ConfigMap entry holding the document (for kind grpc, one .proto file); the operator reads it and sends it inline.",
      )
      .optional(),
    protoFiles: z
      .array(protoFile)
      .min(1)
      .max(maxProtoFiles)
      .optional()
      .describe(
        "For kind grpc: the .proto files, each with its path relative to its import root, with every file they import (Google's well-known types google/protobuf/*.proto need none). Every service in them is imported.",
      ),
  }),
  ["inline", "url", "configMapRef", "protoFiles"],
).describe(
  "Where the contract comes from (the OpenAPI document, the GraphQL schema for kind graphql, .proto files or a reflection server for kind grpc): exactly one of inline, url, configMapRef, protoFiles.",
);

const isGrpc = (value: Record<string, unknown>) => value.kind === "grpc";
const sourceOf = (value: Record<string, unknown>) =>
  (value.openapi !== null && typeof value.openapi === "object" ? value.openapi : {}) as Record<string, unknown>;
/** The source fits the kind: .proto files and grpc(s) URLs for grpc only, http(s) URLs for the others (Service.spec and the REST body apply them). */
export const serviceSourceRules: CelRule[] = [
  {
    message: "protoFiles are for kind grpc only",
    path: ["openapi", "protoFiles"],
    cel: "!has(self.openapi.protoFiles) || (has(self.kind) && self.kind == 'grpc')",
    holds: (value) => sourceOf(value).protoFiles === undefined || isGrpc(value),
  },
  {
    message:
      "url must be grpc://host:port or grpcs://host:port for kind grpc (read through reflection), and an http(s) URL for the other kinds",
    path: ["openapi", "url"],
    cel: "!has(self.openapi.url) || ((has(self.kind) && self.kind == 'grpc') == self.openapi.url.matches('^[gG][rR][pP][cC]'))",
    holds: (value) => {
      const url = sourceOf(value).url;
      return typeof url !== "string" || isGrpc(value) === /^grpc/i.test(url);
    },
  },
];

export const serviceSpec = z
  .object({
    displayName: z.string().max(256).optional().describe("Human-readable name; metadata.name when absent."),
    version: z.string().min(1).max(64).describe("Version of the API contract, for example 1.0.0."),
    description: z.string().max(4096).optional().describe("What the API is for."),
    kind: serviceKind.default("openapi"),
    openapi: openApiSource,
  })
  .describe("An API contract imported from an OpenAPI document, a GraphQL schema or gRPC .proto files.");

/** The condition type saying what the last import changed in the document's schemas. */
export const IMPORT_WARNINGS_CONDITION = "ImportWarnings";

export const serviceStatus = reconcileStatusWithConditions(
  `${IMPORT_WARNINGS_CONDITION}: True when the last import changed the document so that every JSON Schema validator compiles its tools' schemas (a pattern rewritten or dropped, an unknown format dropped); its message gives how many changes and the first few.`,
  "the import's warnings as a condition.",
);

export const Service = defineKind({
  kind: "Service",
  plural: "services",
  shortNames: ["asvc"],
  description:
    "An API contract imported from an OpenAPI document, a GraphQL schema or gRPC .proto files, which ConfigurationPlans bind to a backend.",
  spec: serviceSpec,
  rules: serviceSourceRules,
  status: serviceStatus,
});
