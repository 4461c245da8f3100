/** Services: an OpenAPI document, GraphQL schema or .proto files imported inline, from a URL or as an upload, and how one is shown. */
import { openApiSource, serviceKind, serviceSourceRules, serviceSpec, withRules } from "@atrium/crds";
import { z } from "zod";
import { sourceLocation } from "./problem.ts";
import { recordName, timestamps } from "./records.ts";

export const serviceBody = withRules(
  serviceSpec.pick({ version: true, description: true, kind: true }).extend({
    name: recordName,
    openapi: openApiSource,
  }),
  serviceSourceRules,
);
export type ServiceBody = z.input<typeof serviceBody>;
/** POST /services/import: the document is the body, the rest is in the query. */
export const serviceImportQuery = serviceSpec.pick({ version: true, description: true }).extend({
  name: recordName,
  kind: serviceKind
    .optional()
    .describe(
      "openapi, graphql or grpc; when absent, told from the body: JSON with '__schema' (or 'data.__schema') or GraphQL SDL is graphql, a .proto file (a syntax, edition or package statement first) grpc, anything else openapi. For grpc the body is one .proto file importing only Google's well-known types; send several files as protoFiles to POST /services.",
    ),
});

export const operationSummary = z.object({
  operationId: z.string(),
  method: z.string(),
  path: z.string(),
  summary: z.string().optional(),
});
export type OperationSummary = z.output<typeof operationSummary>;
/** The warning codes this control plane writes. */
export type ImportWarningCode =
  | "PATTERN_REWRITTEN"
  | "PATTERN_DROPPED"
  | "FORMAT_DROPPED"
  | "GRAPHQL_DUPLICATE_FIELD_DROPPED"
  | "GRAPHQL_SUBSCRIPTION_NOT_EXPOSED"
  | "GRAPHQL_SELECTION_TOO_LARGE"
  | "GRPC_METHOD_NOT_EXPOSED";

/**
 * What the import changed to make the document publishable: each pattern rewritten or dropped,
 * each format dropped. The code is read as any text: a CLI or operator older than its control
 * plane must still read a Service whose warnings carry a code added since.
 */
export const importWarning = z.object({
  code: z
    .string()
    .describe(
      "PATTERN_REWRITTEN: a pattern was written the ECMAScript Unicode-mode way, with the same meaning; PATTERN_DROPPED: it has no such equivalent and is no longer checked (the schema's description says so); FORMAT_DROPPED: a format strict JSON Schema validators (ajv with ajv-formats) do not know was removed, and the schema's description keeps it as a hint; GRAPHQL_DUPLICATE_FIELD_DROPPED: a GraphQL field defined twice identically in one type was kept once; GRAPHQL_SUBSCRIPTION_NOT_EXPOSED: a Subscription field is not a tool (a tool call has one answer); GRAPHQL_SELECTION_TOO_LARGE: a root field is not a tool, its generated selection taking the Service past the selected-fields budget. GRPC_METHOD_NOT_EXPOSED: a gRPC method is not a tool (client-streaming or bidirectional, or a message whose JSON is not an object); the message says which and why.",
    ),
  message: z.string().describe("What was changed and why, for people."),
  location: sourceLocation.optional().describe("Where the pattern or format is in the submitted or downloaded text."),
});
export type ImportWarning = z.output<typeof importWarning>;

export const serviceView = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string().optional(),
  // A default: an older control plane's answers lack it, and all its Services are OpenAPI.
  kind: serviceKind.default("openapi"),
  title: z.string(),
  openapiVersion: z.string().optional().describe("The OpenAPI version of the document; absent for graphql and grpc."),
  servers: z.array(z.string()),
  operationCount: z.number(),
  // A default: an older control plane's answers lack it (the CLI and the operator parse them with this schema).
  importWarnings: z
    .array(importWarning)
    .default([])
    .describe(
      "What the last import of the document changed so that every JSON Schema validator compiles its tools' schemas.",
    ),
  ...timestamps,
});
export type ServiceView = z.output<typeof serviceView>;
export const serviceDetail = serviceView.extend({ operations: z.array(operationSummary) });
export type ServiceDetail = z.output<typeof serviceDetail>;
