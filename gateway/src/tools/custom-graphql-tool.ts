/**
 * A CustomTools entry carrying its own GraphQL document (a graphql Service) into a tool. The
 * control plane validated the document against the Service's schema when it was written, and
 * derived the arguments' schema (from its variables) and the data's (from its selection) unless
 * given: the entry is seen as the operation the importer would have made of it, and runs through
 * the same GraphQL call path (graphql-tool.ts), unchanged. A query is read-only; the entry's own
 * annotations override that.
 */
import type { CatalogEntry } from "./discovery.ts";
import { compileGraphqlTool } from "./graphql-tool.ts";
import type { CustomTool, Operation } from "./source.ts";
import type { ValidatorCompiler } from "./validator.ts";

export function compileCustomGraphqlTool(
  custom: CustomTool,
  call: NonNullable<CustomTool["graphql"]>,
  name: string,
  validators: ValidatorCompiler,
): CatalogEntry {
  const { operationType, fieldName, document, operationName, outputSchema } = call;
  const readOnly = operationType === "query" ? { readOnlyHint: true, destructiveHint: false } : { readOnlyHint: false };
  const operation: Operation = {
    operationId: custom.name,
    method: "POST",
    path: "/",
    ...(custom.title ? { summary: custom.title } : {}),
    description: custom.description,
    deprecated: false,
    tags: ["Custom"],
    parameters: [],
    requestBody: {
      required: false,
      contentType: "application/json",
      schema: custom.inputSchema ?? { type: "object", properties: {}, additionalProperties: false },
    },
    responses: [{ status: "200", contentType: "application/json", ...(outputSchema ? { schema: outputSchema } : {}) }],
    extensions: { "x-mcp-annotations": { ...readOnly, ...custom.annotations } },
  };
  const entry = compileGraphqlTool(operation, { operationType, fieldName, document, operationName }, name, validators);
  entry.runtime.tool.description = custom.description; // as written, like an HTTP custom tool's (not title + description)
  return entry;
}
