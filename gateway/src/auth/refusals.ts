/**
 * Every way the gateway refuses a client's credential, in one place: the HTTP status, the
 * reason recorded in audit events, the message the client reads and, for OAuth, the
 * `WWW-Authenticate` error (RFC 6750 section 3.1). Messages never repeat the credential.
 */

/** `event.reason` of a failed authentication audit event. */
export type AuthFailureReason =
  | "invalid_api_key"
  | "missing_bearer_token"
  | "invalid_token"
  | "missing_scope"
  | "session_user_mismatch"
  | "keys_unavailable";

export class AuthRefusal extends Error {
  readonly status: 401 | 403 | 503;
  readonly reason: AuthFailureReason;
  /** RFC 6750 error code for the challenge; absent when no token was sent. */
  readonly oauthError: "invalid_token" | "insufficient_scope" | undefined;
  /** Scopes the client should ask for (insufficient_scope). */
  readonly scope: string | undefined;

  constructor(
    status: 401 | 403 | 503,
    reason: AuthFailureReason,
    message: string,
    oauthError?: "invalid_token" | "insufficient_scope",
    scope?: string,
  ) {
    super(message);
    this.status = status;
    this.reason = reason;
    this.oauthError = oauthError;
    this.scope = scope;
  }
}

export const refusals = {
  missingApiKey: () => new AuthRefusal(401, "invalid_api_key", "Missing API key: send it in the x-atrium-key header"),
  invalidApiKey: () => new AuthRefusal(401, "invalid_api_key", "Invalid API key"),
  missingBearerToken: () =>
    new AuthRefusal(
      401,
      "missing_bearer_token",
      "Missing bearer token: send an access token in the Authorization header (Authorization: Bearer <token>)",
    ),
  invalidToken: (why: string) => new AuthRefusal(401, "invalid_token", `Invalid access token: ${why}`, "invalid_token"),
  /** A valid token issued for another resource (RFC 8707): 403, the client must get one for this endpoint. */
  notForThisResource: (why: string) =>
    new AuthRefusal(403, "invalid_token", `The access token is not for this endpoint: ${why}`, "invalid_token"),
  missingScope: (scopes: readonly string[]) =>
    new AuthRefusal(
      403,
      "missing_scope",
      `Insufficient scope: the access token needs ${scopes.join(" ")}`,
      "insufficient_scope",
      scopes.join(" "),
    ),
  sessionOfAnotherUser: () =>
    new AuthRefusal(
      403,
      "session_user_mismatch",
      "This session belongs to another user: send initialize to open your own",
    ),
  /** Fail closed: without the issuer's keys no token can be checked, so nothing is served. */
  keysUnavailable: (issuer: string) =>
    new AuthRefusal(
      503,
      "keys_unavailable",
      `The signing keys of the token issuer ${issuer} cannot be fetched now; the endpoint serves no request until they can`,
    ),
};
