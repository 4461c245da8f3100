/**
 * Service: an API contract (an OpenAPI 2.0 / 3.x document) that plans bind to a backend.
 */
import { z } from "zod";
import { condition, httpUrl, listMap, objectName, reconcileStatus } from "../common.ts";
import { defineKind } from "../kind.ts";
import { exactlyOneOf } from "../rules.ts";

export const openApiSource = exactlyOneOf(
  z.object({
    inline: z.string().min(1).optional().describe("The OpenAPI document itself, JSON or YAML."),
    url: httpUrl.optional().describe("Where the control plane downloads the OpenAPI document from."),
    configMapRef: z
      .object({
        name: objectName.describe("Name of the ConfigMap in the same namespace."),
        key: z.string().min(1).describe("Key of the ConfigMap entry holding the document."),
      })
      .describe("A ConfigMap entry holding the document; the operator reads it and sends it inline.")
      .optional(),
  }),
  ["inline", "url", "configMapRef"],
).describe("Where the OpenAPI 2.0 / 3.0 / 3.1 document comes from: exactly one of inline, url, configMapRef.");

export const serviceSpec = z
  .object({
    displayName: z.string().max(256).optional().describe("Human-readable name; metadata.name when absent."),
    version: z.string().min(1).max(64).describe("Version of the API contract, for example 1.0.0."),
    description: z.string().max(4096).optional().describe("What the API is for."),
    openapi: openApiSource,
  })
  .describe("An API contract imported from an OpenAPI document.");

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
  description: "An API contract imported from an OpenAPI document, which ConfigurationPlans bind to a backend.",
  spec: serviceSpec,
  status: serviceStatus,
});
