/**
 * Every error the REST API returns, as coded constructors in one place. Each renders as an
 * RFC 9457 problem (application/problem+json, `problemDocument` in @atrium/contract/rest) that
 * says what went wrong and how to fix it.
 */
import type { FieldError, ProblemDocument } from "@atrium/contract/rest";

export type { FieldError };

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** Problem-specific members added to the problem document (RFC 9457 extensions). */
  readonly extensions: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    errors?: FieldError[],
    headers: Record<string, string> = {},
    extensions: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.headers = headers;
    this.extensions = extensions;
  }

  toProblem(instance: string): ProblemDocument & { detail: string } {
    return {
      type: `https://atrium.dev/problems/${this.code.toLowerCase().replaceAll("_", "-")}`,
      title: titles[this.status] ?? "Error",
      status: this.status,
      code: this.code,
      detail: this.message,
      instance,
      ...this.extensions,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export const errors = {
  invalidRequest: (fieldErrors: FieldError[]) =>
    new ApiError(
      400,
      "INVALID_REQUEST",
      `The request is invalid: ${fieldErrors.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
      fieldErrors,
    ),
  invalidField: (field: string, message: string) => errors.invalidRequest([{ field, message }]),
  malformedBody: (reason: string) =>
    new ApiError(400, "MALFORMED_BODY", `The request body is not valid JSON: ${reason}`),
  unsupportedMediaType: (type: string | undefined) =>
    new ApiError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type ${type ?? "(none)"} is not accepted: send application/json`,
    ),
  bodyTooLarge: (limit: number) =>
    new ApiError(413, "BODY_TOO_LARGE", `The request body is larger than ${limit} bytes`),
  unauthenticated: (reason: string) =>
    new ApiError(
      401,
      "UNAUTHENTICATED",
      `${reason}: log in again (atrium login) or send a valid API token`,
      undefined,
      {
        "www-authenticate": 'Bearer realm="atrium"',
      },
    ),
  badCredentials: () =>
    new ApiError(401, "BAD_CREDENTIALS", "Organization, user name or password is wrong", undefined, {
      "www-authenticate": 'Bearer realm="atrium"',
    }),
  forbidden: (what: string) => new ApiError(403, "FORBIDDEN", `${what} needs a different role`),
  roleRefused: (what: string, caller: string, allowed: string[]) =>
    new ApiError(
      403,
      "ROLE_REFUSED",
      `${what} is not allowed for ${caller}: it needs ${allowed.join(" or ")} (see docs/security.md, Roles)`,
    ),
  noAccessRule: (method: string, route: string) =>
    new ApiError(403, "NO_ACCESS_RULE", `${method} ${route} has no access rule, so nobody may call it`),
  registrationRefused: (field: string, message: string) =>
    new ApiError(403, "REGISTRATION_REFUSED", `The API token does not allow this registration: ${field} ${message}`, [
      { field, message },
    ]),
  tooManyLoginAttempts: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      "TOO_MANY_LOGIN_ATTEMPTS",
      `Too many login attempts for this user or from this address: try again in ${retryAfterSeconds} s`,
      undefined,
      { "retry-after": String(retryAfterSeconds) },
    ),
  notFound: (kind: string, id: string) =>
    new ApiError(404, "NOT_FOUND", `${kind} '${id}' does not exist in this organization`),
  badUrl: () =>
    new ApiError(
      400,
      "BAD_URL",
      "The URL's path is not valid percent-encoding: encode each path segment (e.g. with encodeURIComponent)",
    ),
  pathParameterTooLong: (maxLength: number) =>
    new ApiError(
      414,
      "PATH_PARAMETER_TOO_LONG",
      `A path parameter is longer than ${maxLength} characters: ids are UUIDs, numbers or names of at most ${maxLength} characters`,
    ),
  routeNotFound: (method: string, url: string) =>
    new ApiError(404, "ROUTE_NOT_FOUND", `No route ${method} ${url}: see /api/v1/openapi.json`),
  conflict: (message: string) => new ApiError(409, "CONFLICT", message),
  alreadyExists: (kind: string, name: string) =>
    new ApiError(409, "ALREADY_EXISTS", `${kind} '${name}' already exists in this organization: choose another name`),
  inUse: (kind: string, id: string, by: string) =>
    new ApiError(409, "IN_USE", `${kind} '${id}' is still used by ${by}: delete those first`),
  tooManyElicitedCredentials: (expositionId: string, limit: number) =>
    new ApiError(
      409,
      "TOO_MANY_ELICITED_CREDENTIALS",
      `Exposition '${expositionId}' already holds ${limit} elicited credentials: delete unused ones before storing another user's`,
    ),
  tooManyElicitedCredentialWrites: (expositionId: string, perMinute: number) =>
    new ApiError(
      429,
      "TOO_MANY_ELICITED_CREDENTIAL_WRITES",
      `Exposition '${expositionId}' had ${perMinute} elicited credentials written in the last minute: try again in a minute`,
      undefined,
      { "retry-after": "60" },
    ),
  tooManyPendingElicitations: (expositionId: string, limit: number) =>
    new ApiError(
      429,
      "TOO_MANY_PENDING_ELICITATIONS",
      `Exposition '${expositionId}' has ${limit} pending elicitations: try again when some have expired`,
      undefined,
      { "retry-after": "60" },
    ),
  tooManyPendingElicitationsOfUser: (expositionId: string, limit: number) =>
    new ApiError(
      429,
      "TOO_MANY_PENDING_ELICITATIONS",
      `This user has ${limit} pending elicitations on Exposition '${expositionId}': open one of the pages already given, or try again when they have expired`,
      undefined,
      { "retry-after": "60" },
    ),
  elicitationSpent: (idHash: string, how: "used" | "expired") =>
    new ApiError(
      409,
      how === "used" ? "ELICITATION_USED" : "ELICITATION_EXPIRED",
      `Elicitation '${idHash}' has ${how === "used" ? "already been used" : "expired"}: the client must call the tool again for a new one`,
    ),
  unprocessable: (code: string, message: string, fieldErrors?: FieldError[]) =>
    new ApiError(422, code, message, fieldErrors),
  /** Fail closed: a Service of a kind the gateways cannot call yet is imported, never published. */
  kindNotPublishable: (kind: string, field: string, reason: string) => {
    const message = `${reason}: the gateways cannot call ${kind === "graphql" ? "GraphQL" : kind} backends yet, so a ${kind} Service cannot be published by a ConfigurationPlan`;
    return new ApiError(422, "SERVICE_KIND_NOT_PUBLISHABLE", message, [{ field, message }]);
  },
  /** A plan's backendEndpoint whose scheme is not the one its Service's kind is called at (routes/service-kinds.ts). */
  endpointSchemeMismatch: (kind: string, schemes: readonly string[], scheme: string, field: string, reason: string) => {
    const allowed = schemes.map((s) => `${s}//`).join(" or ");
    const message = `${reason}: the backendEndpoint of a ${kind} Service must start with ${allowed}${scheme ? `, not ${scheme}//` : ""}`;
    return new ApiError(422, "BACKEND_ENDPOINT_SCHEME", message, [{ field, message }]);
  },
  invalidOpenApi: (code: string, message: string, field: string, location: unknown) =>
    new ApiError(422, code, message, [{ field, message }], {}, location ? { location } : {}),
  databaseUnavailable: () =>
    new ApiError(
      503,
      "DATABASE_UNAVAILABLE",
      "The database is unavailable (restarting or unreachable): try again in a few seconds. " +
        "A change sent as it went away may or may not have been saved: read it back before repeating it",
      undefined,
      { "retry-after": "5" },
    ),
  internal: () => new ApiError(500, "INTERNAL", "Unexpected error; the server log has the details"),
};
