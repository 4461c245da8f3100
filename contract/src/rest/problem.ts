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

/** Problem-specific members (such as an import error's `location`) are kept as they come. */
export const problemDocument = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  code: z.string().optional().describe("What went wrong, for programs: e.g. NOT_FOUND, INVALID_REQUEST."),
  detail: z.string().optional().describe("What went wrong and how to fix it, for people."),
  instance: z.string().optional(),
  errors: z.array(fieldError).optional(),
});
export type ProblemDocument = z.output<typeof problemDocument>;
