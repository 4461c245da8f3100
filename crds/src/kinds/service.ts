/**
 * Service: an API contract (an OpenAPI 2.0 / 3.x document, or a GraphQL schema) that plans bind to
 * a backend.
 */
import { z } from "zod";
import { condition, httpUrl, listMap, objectName, reconcileStatus } from "../common.ts";
import { defineKind } from "../kind.ts";
import { exactlyOneOf } from "../rules.ts";

/**
 * The kinds of contract a Service is imported from. gRPC is refused until it is imported; a
 * graphql Service is imported, but plans on it are refused until the gateways call GraphQL.
 */
export const serviceKind = z
  .enum(["openapi", "graphql"], {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not a kind of Service: openapi or graphql (grpc is not supported yet)`,
  })
  .describe(
    "The kind of contract: openapi (an OpenAPI 2.0 / 3.0 / 3.1 document) or graphql (a GraphQL schema, SDL or an introspection result in JSON; ConfigurationPlans on it are refused until the gateways call GraphQL). grpc is not supported yet.",
  );
export type ServiceKind = z.infer<typeof serviceKind>;

export const openApiSource = exactlyOneOf(
  z.object({
    inline: z
      .string()
      .min(1)
      .optional()
      .describe("The document itself: OpenAPI as JSON or YAML; for kind graphql, SDL or an introspection result."),
    url: httpUrl.optional().describe("Where the control plane downloads the document from."),
    configMapRef: z
      .object({
        name: objectName.describe("Name of the ConfigMap in the same namespace."),
        key: z.string().min(1).describe("Key of the ConfigMap entry holding the document."),
      })
      .describe("A ConfigMap entry holding the document; the operator reads it and sends it inline.")
      .optional(),
  }),
  ["inline", "url", "configMapRef"],
).describe(
  "Where the contract document comes from (the OpenAPI document, or the GraphQL schema for kind graphql): exactly one of inline, url, configMapRef.",
);

export const serviceSpec = z
  .object({
    displayName: z.string().max(256).optional().describe("Human-readable name; metadata.name when absent."),
    version: z.string().min(1).max(64).describe("Version of the API contract, for example 1.0.0."),
    description: z.string().max(4096).optional().describe("What the API is for."),
    kind: serviceKind.default("openapi"),
    openapi: openApiSource,
  })
  .describe("An API contract imported from an OpenAPI document or a GraphQL schema.");

/** The condition type saying what the last import changed in the document's schemas. */
export const IMPORT_WARNINGS_CONDITION = "ImportWarnings";

export const serviceStatus = reconcileStatus
  .extend({
    conditions: listMap(condition, "type")
      .optional()
      .describe(
        `${IMPORT_WARNINGS_CONDITION}: True when the last import changed the document so that every JSON Schema validator compiles its tools' schemas (a pattern rewritten or dropped, an unknown format dropped); its message gives how many changes and the first few.`,
      ),
  })
  .describe(
    "Observed state, written by the operator through the status subresource; the import's warnings as a condition.",
  );

export const Service = defineKind({
  kind: "Service",
  plural: "services",
  shortNames: ["asvc"],
  description:
    "An API contract imported from an OpenAPI document (or a GraphQL schema, not yet publishable), which ConfigurationPlans bind to a backend.",
  spec: serviceSpec,
  status: serviceStatus,
});
