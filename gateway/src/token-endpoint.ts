/**
 * One request to a backend authorization server's token endpoint, with undici: the client's
 * authentication (client_secret_basic, client_secret_post, or private_key_jwt per RFC 7523), a
 * timeout, a bounded answer, and the answer checked for a usable bearer token. Shared by client
 * credentials (backend-token.ts), token exchange (token-exchange.ts) and each user's authorization
 * code grant (elicitation/backend-grant.ts).
 *
 * The token endpoint's answer never reaches the client: a failure is described by its HTTP status
 * (and a registered OAuth error code), with a correlation id added by the caller; the log gets the
 * status and the OAuth `error` code only (never the body, the client secret, a key or a token). No
 * redirects are followed: a redirect would carry the client secret to another address.
 */
import { createPrivateKey, type KeyObject, randomUUID } from "node:crypto";
import { inSpan, SpanKind, SpanStatusCode } from "@atrium/contract/telemetry";
import { SignJWT } from "jose";
import { request } from "undici";

/** A failure for the caller to report: `forClient` to the client, `forLog` and `details` to the log. */
export interface TokenFailure {
  kind: "error";
  forClient: string;
  forLog: string;
  details: Record<string, unknown>;
}
export type TokenOutcome = { kind: "token"; token: string } | TokenFailure;
export type IssuedToken = { kind: "token"; token: string; lifetimeMs: number; refreshToken?: string };

/** How long a token whose answer gives no `expires_in` is kept. */
export const DEFAULT_LIFETIME_MS = 300_000;
/** The whole token request: connection, headers and body. */
export const TOKEN_TIMEOUT_MS = 10_000;
/** The most of a token response that is read. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
/** How long a private_key_jwt client assertion is valid. */
const ASSERTION_LIFETIME_SECONDS = 60;

/** An access token as it may be sent in a header: RFC 6750's b64token characters, bounded. */
const TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 16 * 1024;
/** An OAuth error code (RFC 6749 section 5.2): logged only when it looks like one. */
const ERROR_CODE_PATTERN = /^[\x20\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

export interface ClientAuthentication {
  clientId: string;
  tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt" | "none";
  /** The client secret, or for private_key_jwt the PEM private key; unused by a public client (none). */
  secret: string;
}

export interface TokenRequest {
  tokenUrl: string;
  form: URLSearchParams;
  client: ClientAuthentication;
  /** token_type values accepted besides Bearer (lower case): RFC 8693's N_A for an issued JWT. */
  otherTokenTypes?: readonly string[];
  /** Words for the client naming the request: "the token request", "the token exchange". */
  what: string;
  /** Put before each failure's log details. */
  details: Record<string, unknown>;
}

/** Signing algorithm of a private key: RS256 for RSA, ES256 for EC P-256, EdDSA for Ed25519. */
function assertionKey(pem: string): { key: KeyObject; alg: string } {
  const key = createPrivateKey(pem);
  const type = key.asymmetricKeyType;
  if (type === "rsa") return { key, alg: "RS256" };
  if (type === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") return { key, alg: "ES256" };
  if (type === "ed25519") return { key, alg: "EdDSA" };
  throw new Error(`a ${type} key (use RSA, EC P-256 or Ed25519)`);
}

/** Adds the client's authentication to the request (RFC 6749 section 2.3, RFC 7523 section 2.2). */
async function authenticate(
  client: ClientAuthentication,
  tokenUrl: string,
  form: URLSearchParams,
  headers: Record<string, string>,
): Promise<void> {
  if (client.tokenEndpointAuthMethod === "none") {
    // A public client (RFC 6749 section 2.1): its id only; PKCE protects the code.
    form.set("client_id", client.clientId);
  } else if (client.tokenEndpointAuthMethod === "client_secret_post") {
    form.set("client_id", client.clientId);
    form.set("client_secret", client.secret);
  } else if (client.tokenEndpointAuthMethod === "private_key_jwt") {
    const { key, alg } = assertionKey(client.secret);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg })
      .setIssuer(client.clientId)
      .setSubject(client.clientId)
      .setAudience(tokenUrl)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${ASSERTION_LIFETIME_SECONDS}s`)
      .sign(key);
    form.set("client_id", client.clientId);
    form.set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    form.set("client_assertion", assertion);
  } else {
    // RFC 6749 section 2.3.1: each part form-encoded, then Basic.
    const basic = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
  }
}

/** RFC 6749 and RFC 8693 error codes, named to the client: they say what to fix and carry nothing secret. */
const REGISTERED_ERRORS = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
]);

/**
 * A token from the backend's authorization server; in a client span when tracing (issue 24),
 * named by its grant type, never carrying the form's values beyond it.
 */
export function requestToken(asked: TokenRequest): Promise<IssuedToken | TokenFailure> {
  const attributes = {
    "http.request.method": "POST",
    "url.full": asked.tokenUrl,
    "atrium.oauth.grant_type": asked.form.get("grant_type") ?? "",
  };
  return inSpan("POST", { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const got = await requestTokenNow(asked);
    if (span && got.kind === "error") {
      const status = got.details.status;
      if (typeof status === "number") span.setAttribute("http.response.status_code", status);
      span.setAttribute("error.type", typeof got.details.error === "string" ? got.details.error : got.forLog);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return got;
  });
}

async function requestTokenNow(asked: TokenRequest): Promise<IssuedToken | TokenFailure> {
  const { tokenUrl, form, client } = asked;
  const failed = (forClient: string, forLog: string, details: Record<string, unknown>): TokenFailure => ({
    kind: "error",
    forClient,
    forLog,
    details: { ...asked.details, tokenUrl, clientId: client.clientId, ...details },
  });
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  try {
    await authenticate(client, tokenUrl, form, headers);
  } catch (error) {
    return failed(
      "The gateway's client key for the backend's authorization server is unusable",
      "backend client key unusable",
      { problem: (error as Error).message.split("\n")[0] },
    );
  }
  let status: number;
  let body: Buffer;
  try {
    const response = await request(tokenUrl, {
      method: "POST",
      headers,
      body: form.toString(),
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    status = response.statusCode;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_TOKEN_RESPONSE_BYTES) {
        response.body.destroy();
        return failed(
          `The backend's authorization server answered ${asked.what} with too large a response`,
          "backend token response too large",
          { status },
        );
      }
      chunks.push(chunk);
    }
    body = Buffer.concat(chunks);
  } catch (error) {
    const { code, name } = error as Error & { code?: string };
    const timedOut = name === "TimeoutError" || name === "AbortError";
    return failed(
      timedOut
        ? `The backend's authorization server did not answer ${asked.what} within ${TOKEN_TIMEOUT_MS / 1000} s`
        : `The backend's authorization server could not be reached for ${asked.what}`,
      "backend token request failed",
      { code: code ?? name },
    );
  }
  const answer = parseJson(body);
  if (status !== 200) {
    const errorCode =
      typeof answer?.error === "string" && ERROR_CODE_PATTERN.test(answer.error) ? answer.error : undefined;
    const named = errorCode !== undefined && REGISTERED_ERRORS.has(errorCode) ? `, ${errorCode}` : "";
    return failed(
      `The backend's authorization server refused ${asked.what} (HTTP ${status}${named})`,
      "backend token request refused",
      { status, ...(errorCode ? { error: errorCode } : {}) },
    );
  }
  const token = answer?.access_token;
  const tokenType = answer?.token_type;
  const expiresIn = answer?.expires_in;
  const typeOk =
    tokenType === undefined ||
    (typeof tokenType === "string" &&
      (tokenType.toLowerCase() === "bearer" || (asked.otherTokenTypes ?? []).includes(tokenType.toLowerCase())));
  const problem =
    typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !TOKEN_PATTERN.test(token)
      ? "no usable access_token"
      : !typeOk
        ? "a token_type other than Bearer"
        : expiresIn !== undefined && !(typeof expiresIn === "number" && expiresIn > 0)
          ? "an expires_in that is not a positive number"
          : undefined;
  if (problem || typeof token !== "string") {
    return failed("The backend's authorization server gave no usable bearer token", "backend token response unusable", {
      status,
      problem,
    });
  }
  const refreshToken = answer?.refresh_token;
  return {
    kind: "token",
    token,
    lifetimeMs: typeof expiresIn === "number" ? expiresIn * 1000 : DEFAULT_LIFETIME_MS,
    // Kept only when it could be sent back: a refresh token is opaque, but bounded and printable.
    ...(typeof refreshToken === "string" &&
    refreshToken.length <= MAX_TOKEN_LENGTH &&
    /^[\x21-\x7e]+$/.test(refreshToken)
      ? { refreshToken }
      : {}),
  };
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
