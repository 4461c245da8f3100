/**
 * Resources (a plural kind; there is no `Resource`): MCP resources and resource templates of a Service.
 */
import { z } from "zod";
import { artifactStatus, listMap, objectRef } from "../common.ts";
import { defineKind } from "../kind.ts";
import { exactlyOneOf } from "../rules.ts";

const backendPath = z
  .object({
    path: z
      .string()
      .regex(/^\//, { message: "must start with '/'" })
      .describe("Path under the backend endpoint, read with GET; {{variable}} placeholders are URL-encoded."),
  })
  .describe("Content read from the backend when the resource is read.");

/** A fixed resource's backend content, which may be watched for changes. */
const polledBackendPath = backendPath
  .extend({
    pollSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe(
        "While a client subscribes to the resource, the gateway reads it this often (If-None-Match with its ETag) and sends notifications/resources/updated when its content changes. Not polled when absent, nor on plans whose backend credential is elicited from each user.",
      ),
  })
  .describe("Content read from the backend when the resource is read.");

const resourceFields = {
  name: z.string().min(1).max(256).describe("Name of the resource, unique within this list."),
  title: z.string().max(256).optional().describe("Human-readable title."),
  description: z.string().max(8192).optional().describe("What the resource holds."),
  mimeType: z.string().max(256).optional().describe("MIME type of the content."),
};

export const mcpResource = exactlyOneOf(
  z.object({
    uri: z
      .string()
      .min(1)
      .max(2048)
      .regex(/^[A-Za-z][A-Za-z0-9+.-]*:/, { message: "must be an absolute URI" })
      .describe("URI clients read the resource by."),
    ...resourceFields,
    text: z.string().max(1_048_576).optional().describe("Fixed text content."),
    fromBackend: polledBackendPath.optional(),
  }),
  ["text", "fromBackend"],
).describe("An MCP resource: fixed text, or content read from the backend.");

export const mcpResourceTemplate = z
  .object({
    uriTemplate: z.string().min(1).max(2048).describe("RFC 6570 URI template, for example docs://pets/{id}."),
    ...resourceFields,
    fromBackend: backendPath,
  })
  .describe("An MCP resource template, resolved by reading the backend.");

export const resourcesSpec = z
  .object({
    serviceRef: objectRef("Service"),
    resources: listMap(mcpResource, "name").optional().describe("Resources with a fixed URI."),
    resourceTemplates: listMap(mcpResourceTemplate, "name")
      .optional()
      .describe("Resources addressed by a URI template."),
  })
  .describe("MCP resources of a Service, served by every Exposition of it.");

export const Resources = defineKind({
  kind: "Resources",
  plural: "resources",
  shortNames: ["mcpres"],
  description: "MCP resources and resource templates of a Service (plural kind: there is no `Resource`).",
  spec: resourcesSpec,
  status: artifactStatus,
});
