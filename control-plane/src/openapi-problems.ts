/**
 * The OpenAPI document says what every failure looks like: each `/api/v1` operation answers
 * errors with the contract's problem document (`application/problem+json`), declared once as
 * the component `Problem`, so a client generated from the document reads errors too.
 */
import { problemDocument } from "@atrium/contract/rest";
import type { SwaggerTransformObject } from "@fastify/swagger";
import { z } from "zod";

const API_PREFIX = "/api/v1/";

/** The `Problem` schema as the document holds it (converted as the routes' schemas are). */
export function problemJsonSchema(): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(problemDocument, { io: "output", target: "openapi-3.0" });
  return json;
}

/** The document with `components.schemas.Problem` and a `default` problem answer on every API operation. */
export const withProblemAnswers: SwaggerTransformObject = (documentObject) => {
  if (!("openapiObject" in documentObject)) return documentObject.swaggerObject;
  const document = documentObject.openapiObject;
  const problem = {
    description: "An RFC 9457 problem: what went wrong and how to fix it",
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  };
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => {
      if (!path.startsWith(API_PREFIX) || !item) return [path, item];
      const operations = Object.entries(item).map(([method, operation]) => {
        if (typeof operation !== "object" || operation === null || !("responses" in operation))
          return [method, operation];
        return [method, { ...operation, responses: { ...operation.responses, default: problem } }];
      });
      return [path, Object.fromEntries(operations)];
    }),
  );
  const components = document.components ?? {};
  return {
    ...document,
    paths,
    components: { ...components, schemas: { ...components.schemas, Problem: problemJsonSchema() } },
  };
};
