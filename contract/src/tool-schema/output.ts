/**
 * The outputSchema a tool publishes, built here for gateways (`tools/list`) and the control plane
 * (`GET /expositions/:id/tools`) alike: its operation's first 2xx answer's schema, when that
 * answer is JSON and its schema's root is `type: "object"` (MCP clients accept no other root),
 * prepared for output (prepare.ts). A gateway publishes it only when ajv also compiles it as
 * written, and then makes results conform to it.
 *
 * An OpenAPI operation marked `x-mcp-content: true` answers its own MCP content blocks: its
 * results carry no `structuredContent`, so it publishes none.
 */
import type { NormalizedOperation } from "../operation.ts";
import type { ObjectSchema } from "./input.ts";
import { isPlainObject, prepareSchema } from "./prepare.ts";

const jsonMediaType = /^(?:application|text)\/(?:[\w.+-]*\+)?json$/;

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/** `application/json`, `text/json` or any `+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return jsonMediaType.test(mediaType);
}

/** The first 2xx JSON answer's schema, prepared, when its root is an object. */
export function answerSchema(operation: Pick<NormalizedOperation, "responses">): ObjectSchema | undefined {
  const success = operation.responses.find((response) => response.status.startsWith("2"));
  if (!success?.schema || !success.contentType || !isJsonMediaType(mediaTypeOf(success.contentType))) return undefined;
  if (!isPlainObject(success.schema) || success.schema.type !== "object") return undefined;
  const schema = prepareSchema(success.schema, "output");
  return schema.type === "object" ? (schema as ObjectSchema) : undefined;
}

/** The outputSchema of an operation's tool, whatever its protocol, before ajv is asked. */
export function operationOutputSchema(operation: NormalizedOperation): ObjectSchema | undefined {
  const declaresContent = !operation.grpc && !operation.graphql && operation.extensions["x-mcp-content"] === true;
  return declaresContent ? undefined : answerSchema(operation);
}

/** A custom tool's outputSchema: one with a GraphQL document has its selection's, a request template none. */
export function customToolOutputSchema(custom: {
  graphql?: { outputSchema?: Record<string, unknown> };
}): ObjectSchema | undefined {
  const schema = custom.graphql?.outputSchema;
  return schema && answerSchema({ responses: [{ status: "200", contentType: "application/json", schema }] });
}
