/**
 * The RFC 9457 problem document (application/problem+json) every REST failure is answered
 * with: the control plane renders it, its clients read it.
 */
import { z } from "zod";

/** One offending field of a request, e.g. `body.backendEndpoint`. */
export const fieldError = z.object({
  field: z.string().describe("Path of the offending field in the request, e.g. `body.backendEndpoint`."),
  message: z.string(),
});
export type FieldError = z.output<typeof fieldError>;

/** Where a submitted or downloaded document is wrong (the OpenAPI import's problems). */
export const sourceLocation = z.object({
  pointer: z.string().optional().describe("JSON pointer (RFC 6901) of the offending node, e.g. `/paths/~1pets/get`."),
  file: z
    .string()
    .optional()
    .describe("For an import of several files (gRPC .proto files): the path of the file in question."),
  line: z.number().int().optional().describe("1-based line in the submitted or downloaded text."),
  column: z.number().int().optional().describe("1-based column in the submitted or downloaded text."),
});
export type SourceLocation = z.output<typeof sourceLocation>;

/** Problem-specific members beyond `location` are kept as they come. */
export const problemDocument = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  code: z.string().optional().describe("What went wrong, for programs: e.g. NOT_FOUND, INVALID_REQUEST."),
  detail: z.string().optional().describe("What went wrong and how to fix it, for people."),
  instance: z.string().optional(),
  errors: z.array(fieldError).optional(),
  location: sourceLocation.optional().describe("Where the submitted document is wrong (an OpenAPI import's problem)."),
});
export type ProblemDocument = z.output<typeof problemDocument>;
