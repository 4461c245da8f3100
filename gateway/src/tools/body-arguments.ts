/**
 * The definition of a tool whose arguments are its operation's request body as a whole: a
 * GraphQL operation's variables, a gRPC method's request message. The importer made the schemas:
 * the request body's is the `inputSchema` (an object, whatever it says), the first 2xx answer's
 * the `outputSchema` when ajv compiles it as written (both built by @atrium/contract/tool-schema). Annotations are a POST's, overridden by
 * `x-mcp-annotations`; the description falls back to `what` (say `gRPC <service>/<method>`).
 */

import { describeOperation } from "@atrium/contract/tool-names";
import { bodyInputSchema } from "@atrium/contract/tool-schema";
import { methodAnnotations, overrideAnnotations } from "./annotations.ts";
import type { McpTool } from "./mcp.ts";
import { outputSchemaOf } from "./operation-tool.ts";
import type { Operation } from "./source.ts";
import type { Validator, ValidatorCompiler } from "./validator.ts";

export type BodyArgumentsTool = {
  tool: McpTool;
  validateArguments: Validator;
  /** The outputSchema's validator, when the tool publishes one. */
  validateOutput: Validator | undefined;
};

export function bodyArgumentsTool(
  operation: Operation,
  name: string,
  validators: ValidatorCompiler,
  what: string,
): BodyArgumentsTool {
  const inputSchema = bodyInputSchema(operation.requestBody?.schema);
  const output = outputSchemaOf(operation, name, validators);
  const tool: McpTool = {
    name,
    ...(operation.summary ? { title: operation.summary } : {}),
    description: describeOperation(operation, what),
    inputSchema,
    ...(output ? { outputSchema: output.schema } : {}),
  };
  const annotations = overrideAnnotations(methodAnnotations("POST"), operation.extensions["x-mcp-annotations"]);
  if (operation.summary && annotations.title === undefined) annotations.title = operation.summary;
  tool.annotations = annotations;
  return {
    tool,
    validateArguments: validators.compile(inputSchema, `tool ${name} (${what})`),
    validateOutput: output?.validate,
  };
}
