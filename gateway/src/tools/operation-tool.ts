/**
 * One normalized OpenAPI operation into one tool: its definition, argument validator, request
 * builder and result mapping, all compiled here once.
 *
 * Arguments (the inputSchema's properties):
 * - path, query and header parameters under their own names (made valid, see naming.ts), with
 *   their schema and description; the request body as `body`. When two would share a name (the
 *   same name in two locations, or a parameter called `body` beside a request body), the first in
 *   the order path, query, header keeps it and the others get their location as a prefix:
 *   `query_id`, `header_body` (and `query___proto__`: JSON Schema validators ignore a property named
 *   `__proto__`); a name still taken then gets `_2`, `_3`, …; a renamed argument's
 *   description says which parameter it is;
 * - cookie parameters are left out: the gateway keeps no cookies for a backend, and credentials
 *   reach it through the plan's backend secret;
 * - header parameters OpenAPI says to ignore (`Accept`, `Content-Type`, `Authorization`) and the
 *   message-framing headers are left out too (request.ts);
 * - unknown arguments are rejected (`additionalProperties: false`): a misspelt name is reported
 *   rather than silently dropped.
 * A path template variable without a declared parameter becomes a required string argument.
 *
 * `outputSchema` is published only when the first 2xx response is JSON whose schema's root is
 * `type: "object"` and compiles as written; results are then made to conform (result.ts).
 *
 * An operation marked `x-mcp-content: true` answers its own MCP content blocks (a JSON array,
 * content.ts): its results carry no `structuredContent`, so it publishes no `outputSchema`.
 */
import { setOwn } from "@atrium/contract/json-schema";
import { describeOperation } from "@atrium/contract/tool-names";
import { methodAnnotations, overrideAnnotations } from "./annotations.ts";
import { isJsonMediaType, mediaTypeOf } from "./body.ts";
import { type CatalogEntry, operationSearchText } from "./discovery.ts";
import type { JsonSchema, McpTool } from "./mcp.ts";
import { createNameAllocator, MAX_PROPERTY_NAME_LENGTH, validName } from "./naming.ts";
import { annotateParamHeaders } from "./param-headers.ts";
import { openApiPlaceholder } from "./path.ts";
import { type BoundParameter, compileOperationRequest, isSettableHeader } from "./request.ts";
import { conformingResult, toolResult } from "./result.ts";
import type { ToolRuntime } from "./runtime.ts";
import { hoistDefs, isPlainObject, prepareSchema } from "./schema.ts";
import type { Operation, OperationParameter } from "./source.ts";
import type { Validator, ValidatorCompiler } from "./validator.ts";

const BODY_PROPERTY = "body";
const locationOrder = { path: 0, query: 1, header: 2, cookie: 3 } as const;

export function compileOperationTool(operation: Operation, name: string, validators: ValidatorCompiler): CatalogEntry {
  const bound = bindParameters(operation);
  const hasBody = operation.requestBody !== undefined;
  const defs: Record<string, unknown> = {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const { parameter, property } of bound) {
    // A parameter may be named __proto__: an own property, never the object's prototype.
    setOwn(
      properties,
      property,
      describedSchema(parameter.schema, parameter.description, defs, renameNote(parameter, property)),
    );
    if (parameter.required) required.push(property);
  }
  if (operation.requestBody) {
    const { schema, description } = operation.requestBody;
    properties[BODY_PROPERTY] = describedSchema(schema, description, defs, undefined);
    if (operation.requestBody.required) required.push(BODY_PROPERTY);
  }
  const inputSchema: McpTool["inputSchema"] = { type: "object", properties };
  if (required.length > 0) inputSchema.required = required;
  inputSchema.additionalProperties = false;
  if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
  const paramHeaders = annotateParamHeaders(
    inputSchema,
    Object.fromEntries(bound.map(({ parameter, property }) => [property, parameter.schema])),
    (problem) => validators.warnings.push(`tool ${name}: ${problem}`),
  );

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

/** The parameters exposed as arguments, each with its argument name (see the module comment). */
export function bindParameters(operation: Pick<Operation, "path" | "parameters" | "requestBody">): BoundParameter[] {
  const templateNames = new Set([...operation.path.matchAll(openApiPlaceholder)].map((match) => match[1] ?? ""));
  const parameters: OperationParameter[] = operation.parameters.filter((parameter) => {
    if (parameter.in === "cookie") return false;
    if (parameter.in === "header") return isSettableHeader(parameter.name);
    if (parameter.in === "path") return templateNames.has(parameter.name);
    return true;
  });
  for (const variable of templateNames) {
    if (!parameters.some((parameter) => parameter.in === "path" && parameter.name === variable)) {
      parameters.push({ name: variable, in: "path", required: true, schema: { type: "string" } });
    }
  }
  // stable sort: document order within a location
  const ordered = [...parameters].sort((a, b) => locationOrder[a.in] - locationOrder[b.in]);
  // ajv (the gateway's and clients') ignores a property named __proto__: that name would never be validated.
  const reserved = [...(operation.requestBody ? [BODY_PROPERTY] : []), "__proto__"];
  const names = createNameAllocator(MAX_PROPERTY_NAME_LENGTH, reserved);
  return ordered.map((parameter) => {
    const base = validName(parameter.name, MAX_PROPERTY_NAME_LENGTH, "parameter");
    const property = names.has(base)
      ? names.claim(validName(`${parameter.in}_${base}`, MAX_PROPERTY_NAME_LENGTH, "parameter"))
      : names.claim(base);
    return { parameter, property };
  });
}

function renameNote(parameter: OperationParameter, property: string): string | undefined {
  return property === parameter.name ? undefined : `(${parameter.in} parameter "${parameter.name}")`;
}

/** A parameter's or body's schema as an inputSchema property: prepared, its `$defs` hoisted, its description set. */
function describedSchema(
  schema: Record<string, unknown>,
  description: string | undefined,
  defs: Record<string, unknown>,
  note: string | undefined,
): JsonSchema {
  const property = hoistDefs(prepareSchema(schema, "input"), defs);
  const text = [description ?? (typeof property.description === "string" ? property.description : undefined), note]
    .filter((part) => part)
    .join(" ");
  if (text !== "") property.description = text;
  return property;
}

/** Whether the operation's JSON answer is an MCP content array; a value other than a boolean is ignored, with a warning. */
function declaresContent(operation: Operation, name: string, validators: ValidatorCompiler): boolean {
  const marked = operation.extensions["x-mcp-content"];
  if (marked === undefined || typeof marked === "boolean") return marked === true;
  validators.warnings.push(`tool ${name}: x-mcp-content must be true or false, not ${JSON.stringify(marked)}: ignored`);
  return false;
}

/** The first 2xx JSON answer's schema, when it is an object ajv compiles as written, and its validator. */
export function outputSchemaOf(
  operation: Operation,
  name: string,
  validators: ValidatorCompiler,
): { schema: McpTool["inputSchema"]; validate: Validator } | undefined {
  const success = operation.responses.find((response) => response.status.startsWith("2"));
  if (!success?.schema || !success.contentType || !isJsonMediaType(mediaTypeOf(success.contentType))) return undefined;
  if (!isPlainObject(success.schema) || success.schema.type !== "object") return undefined;
  const schema = prepareSchema(success.schema, "output");
  if (schema.type !== "object") return undefined;
  const validate = validators.compileExact(schema, `tool ${name} output schema`, "result");
  return validate && { schema: schema as McpTool["inputSchema"], validate };
}
