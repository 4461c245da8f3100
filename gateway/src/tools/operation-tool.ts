/**
 * One normalized OpenAPI operation into one tool: its definition, argument validator, request
 * builder and result mapping, all compiled here once.
 *
 * Its inputSchema (the arguments: path, query and header parameters, the request body as `body`)
 * and outputSchema are built by @atrium/contract/tool-schema, which the control plane shows
 * too; unknown arguments are rejected (`additionalProperties: false`).
 *
 * `outputSchema` is published only when the first 2xx response is JSON whose schema's root is
 * `type: "object"` and compiles as written; results are then made to conform (result.ts).
 *
 * An operation marked `x-mcp-content: true` answers its own MCP content blocks (a JSON array,
 * content.ts): its results carry no `structuredContent`, so it publishes no `outputSchema`.
 */

import { describeOperation } from "@atrium/contract/tool-names";
import { answerSchema, BODY_PROPERTY, parameterInputSchema } from "@atrium/contract/tool-schema";
import { methodAnnotations, overrideAnnotations } from "./annotations.ts";
import { type CatalogEntry, operationSearchText } from "./discovery.ts";
import type { McpTool } from "./mcp.ts";
import { compileOperationRequest } from "./request.ts";
import { conformingResult, toolResult } from "./result.ts";
import type { ToolRuntime } from "./runtime.ts";
import type { Operation } from "./source.ts";
import type { Validator, ValidatorCompiler } from "./validator.ts";

export function compileOperationTool(operation: Operation, name: string, validators: ValidatorCompiler): CatalogEntry {
  const { inputSchema, bound, paramHeaders } = parameterInputSchema(operation, (problem) =>
    validators.warnings.push(`tool ${name}: ${problem}`),
  );
  const hasBody = operation.requestBody !== undefined;

  const declaredContent = declaresContent(operation, name, validators);
  const output = declaredContent ? undefined : outputSchemaOf(operation, name, validators);
  const tool: McpTool = {
    name,
    ...(operation.summary ? { title: operation.summary } : {}),
    description: describeOperation(operation),
    inputSchema,
    ...(output ? { outputSchema: output.schema } : {}),
  };
  const annotations = overrideAnnotations(
    methodAnnotations(operation.method),
    operation.extensions["x-mcp-annotations"],
  );
  if (operation.summary && annotations.title === undefined) annotations.title = operation.summary;
  tool.annotations = annotations;

  const validateArguments = validators.compile(inputSchema, `tool ${name} (${operation.method} ${operation.path})`);
  const request = compileOperationRequest(operation, bound, hasBody ? BODY_PROPERTY : undefined);
  const runtime: ToolRuntime = {
    tool,
    validate(args) {
      const value = args ?? {};
      const violations = validateArguments(value);
      return violations.length > 0 ? violations : request.checkPath(value as Record<string, unknown>);
    },
    buildRequest: request.build,
    route: { template: operation.path },
    toResult: output
      ? (response, options) => conformingResult(toolResult(response, options), output.validate)
      : declaredContent
        ? (response, options) => toolResult(response, { ...options, declaredContent })
        : toolResult,
    ...(paramHeaders.length > 0 ? { paramHeaders } : {}),
  };
  return {
    runtime,
    searchText: operationSearchText(name, operation, operation.method, operation.path),
  };
}

/** Whether the operation's JSON answer is an MCP content array; a value other than a boolean is ignored, with a warning. */
function declaresContent(operation: Operation, name: string, validators: ValidatorCompiler): boolean {
  const marked = operation.extensions["x-mcp-content"];
  if (marked === undefined || typeof marked === "boolean") return marked === true;
  validators.warnings.push(`tool ${name}: x-mcp-content must be true or false, not ${JSON.stringify(marked)}: ignored`);
  return false;
}

/** The first 2xx JSON answer's schema (@atrium/contract/tool-schema), when ajv compiles it as written, and its validator. */
export function outputSchemaOf(
  operation: Operation,
  name: string,
  validators: ValidatorCompiler,
): { schema: McpTool["inputSchema"]; validate: Validator } | undefined {
  const schema = answerSchema(operation);
  if (!schema) return undefined;
  const validate = validators.compileExact(schema, `tool ${name} output schema`, "result");
  return validate && { schema, validate };
}
