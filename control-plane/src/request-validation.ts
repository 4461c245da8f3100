/**
 * How the REST API validates a request part against its route's Zod schema: in the words the
 * webhook, the CLI's `validate` and the API server use (@atrium/crds' `kubernetesWording` and
 * `issueMessage`), each issue as one field error (`body.oauth.issuer`, `querystring.name`).
 */
import { issueMessage, kubernetesWording } from "@atrium/crds";
import type { FastifySchemaCompiler } from "fastify";
import type { z } from "zod";
import { errors } from "./errors.ts";

export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { error: kubernetesWording });
    if (result.success) return { value: result.data };
    return {
      error: errors.invalidRequest(
        result.error.issues.map((issue) => ({
          field: [httpPart ?? "body", ...issue.path.map(String)].join("."),
          message: issueMessage(issue),
        })),
      ),
    };
  };
