/**
 * AdmissionReview v1: reads the API server's review, validates the object of CREATE and UPDATE,
 * and answers with the same review carrying the verdict.
 *
 * A refusal is `status.code` 422 with reason `Invalid` and one `details.causes` entry per field:
 * the code and reason the API server itself uses when a CRD's schema refuses an object, so a
 * client sees the same kind of error whichever of the two caught the mistake. (The API server
 * would turn a missing code into 400.) A request that is not an AdmissionReview v1 is an error
 * of the caller, answered with HTTP 400 (see errors.ts), never a verdict.
 */
import { isDeepStrictEqual } from "node:util";
import { API_GROUP, fieldPath, kubernetesWording, type Violation, validateResource } from "@atrium/crds";
import { z } from "zod";
import { errors } from "./errors.ts";

export const ADMISSION_API_VERSION = "admission.k8s.io/v1";
/** HTTP-like code of a refusal, as the API server answers for objects its schema refuses. */
export const DENIED_STATUS_CODE = 422;

const admissionRequest = z.looseObject({
  uid: z.string().min(1),
  kind: z.looseObject({ group: z.string(), version: z.string(), kind: z.string() }),
  operation: z.enum(["CREATE", "UPDATE", "DELETE", "CONNECT"]),
  name: z.string().optional(),
  namespace: z.string().optional(),
  subResource: z.string().optional(),
  // null (not absent) for DELETE and for CREATE's oldObject.
  object: z.unknown().optional(),
  oldObject: z.unknown().optional(),
});

const admissionReview = z.looseObject({
  apiVersion: z.literal(ADMISSION_API_VERSION),
  kind: z.literal("AdmissionReview"),
  request: admissionRequest,
});

export type AdmissionRequest = z.output<typeof admissionRequest>;

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: {
    status: "Failure";
    code: number;
    reason: "Invalid";
    message: string;
    details: {
      name?: string;
      group: string;
      kind: string;
      causes: { reason: "FieldValueInvalid" | "FieldValueRequired"; field: string; message: string }[];
    };
  };
  warnings?: string[];
}

export interface AdmissionReviewAnswer {
  apiVersion: typeof ADMISSION_API_VERSION;
  kind: "AdmissionReview";
  response: AdmissionResponse;
}

/** The answer, and what logs and metrics need to know about it. */
export interface Reviewed {
  answer: AdmissionReviewAnswer;
  request: AdmissionRequest;
  /** The refusal message, when refused. */
  message?: string;
}

function parseReview(body: unknown): AdmissionRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw errors.malformedReview("the body must be a JSON object");
  }
  const apiVersion = (body as { apiVersion?: unknown }).apiVersion;
  if (
    typeof apiVersion === "string" &&
    apiVersion.startsWith("admission.k8s.io/") &&
    apiVersion !== "admission.k8s.io/v1"
  ) {
    throw errors.unsupportedReviewVersion(apiVersion);
  }
  const parsed = admissionReview.safeParse(body, { error: kubernetesWording });
  if (!parsed.success) {
    throw errors.malformedReview(
      parsed.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join("; "),
    );
  }
  return parsed.data.request;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function denied(request: AdmissionRequest, message: string, violations: Violation[]): AdmissionResponse {
  const object = request.object as { metadata?: { name?: unknown } };
  const name = typeof object.metadata?.name === "string" ? object.metadata.name : request.name;
  return {
    uid: request.uid,
    allowed: false,
    status: {
      status: "Failure",
      code: DENIED_STATUS_CODE,
      reason: "Invalid",
      message,
      details: {
        ...(name ? { name } : {}),
        group: API_GROUP,
        kind: request.kind.kind,
        causes: violations.map(({ field, message }) => ({
          reason: message === "Required value" ? "FieldValueRequired" : "FieldValueInvalid",
          field,
          message,
        })),
      },
    },
  };
}

function respond(request: AdmissionRequest): { response: AdmissionResponse; message?: string } {
  const allow = (warnings?: string[]) => ({
    response: { uid: request.uid, allowed: true, ...(warnings?.length ? { warnings } : {}) },
  });
  if (request.operation === "DELETE" || request.operation === "CONNECT") return allow();
  if (!isObject(request.object)) {
    throw errors.malformedReview(
      `request.object: must be the object being ${request.operation === "CREATE" ? "created" : "updated"}`,
    );
  }
  const metadata = isObject(request.object.metadata) ? request.object.metadata : {};
  // A resource being deleted only loses finalizers: never block that, or deletion would hang.
  if (request.operation === "UPDATE" && metadata.deletionTimestamp) return allow();

  const verdict = validateResource(request.object);
  if (verdict.allowed) return allow(verdict.warnings);
  // Ratcheting, like the API server's for CRD schemas: an UPDATE that leaves an invalid spec as it
  // was (labels, annotations, finalizers) passes with warnings, so stricter rules in a new release
  // do not freeze existing resources.
  if (
    request.operation === "UPDATE" &&
    isObject(request.oldObject) &&
    isDeepStrictEqual(request.object.spec, request.oldObject.spec) &&
    request.object.kind === request.oldObject.kind &&
    request.object.apiVersion === request.oldObject.apiVersion
  ) {
    return allow(verdict.violations.map((v) => `${v.field}: ${v.message} (spec unchanged, so not enforced)`));
  }
  return { response: denied(request, verdict.message, verdict.violations), message: verdict.message };
}

/**
 * Answers one review. Throws a WebhookError (HTTP 400) when `body` is not an AdmissionReview v1
 * request; otherwise always returns a verdict.
 */
export function reviewAdmission(body: unknown): Reviewed {
  const request = parseReview(body);
  const { response, message } = respond(request);
  return {
    answer: { apiVersion: ADMISSION_API_VERSION, kind: "AdmissionReview", response },
    request,
    ...(message === undefined ? {} : { message }),
  };
}
