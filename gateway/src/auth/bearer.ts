/**
 * OAuth 2.0 bearer tokens (JWT access tokens, RFC 9068) checked with jose: signature against the
 * issuer's keys, an allow-list of asymmetric algorithms (never `none` or HS*: an HMAC made with
 * the public key as the secret is refused), the exact issuer, `exp` (required) and `nbf` with
 * 60 s of clock tolerance. A verified token is remembered by its SHA-256 until it expires, so
 * repeated calls with one token cost no signature check. What depends on the endpoint —
 * audience, resource and scopes — is checked on every request by `checkAccess`.
 */
import { createHash, hash } from "node:crypto";
import { errors as joseErrors, jwtVerify } from "jose";
import { type IssuerKeyOptions, IssuerKeys } from "./issuer-keys.ts";
import { AuthRefusal, refusals } from "./refusals.ts";

export const ALLOWED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"];
export const CLOCK_TOLERANCE_SECONDS = 60;
const MAX_TOKEN_LENGTH = 16 * 1024;
const JWS_COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Who a verified token speaks for, and what it allows. */
export interface TokenPrincipal {
  issuer: string;
  subject: string;
  scopes: ReadonlySet<string>;
  audiences: readonly string[];
  /** The `resource` claim, when the token has one. */
  resource: string | undefined;
  /** Until when (ms since the epoch, tolerance included) the verification holds. */
  validUntilMs: number;
  /** Issuer and subject as one opaque value: what a 2025 session is bound to. */
  user: string;
}

/** What one endpoint asks of a token. */
export interface AccessRequirements {
  /** The audience the token must carry: the plan's, or the endpoint's resource URL. */
  audience: string;
  /** The endpoint's resource URL, which a `resource` claim must equal. */
  resource: string;
  requiredScopes: readonly string[];
}

function scopesOf(payload: Record<string, unknown>): Set<string> {
  const scopes = new Set<string>();
  if (typeof payload.scope === "string") for (const scope of payload.scope.split(" ")) if (scope) scopes.add(scope);
  if (Array.isArray(payload.scp)) for (const scope of payload.scp) if (typeof scope === "string") scopes.add(scope);
  return scopes;
}

/** jose's errors as refusals: a token that fails a check is invalid (401); anything else means the keys are out of reach. */
function refusalOf(error: unknown, issuer: string): AuthRefusal {
  if (error instanceof AuthRefusal) return error;
  if (error instanceof joseErrors.JWTExpired) return refusals.invalidToken("it has expired");
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return refusals.invalidToken(`the "${error.claim}" claim failed its check (${error.reason})`);
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return refusals.invalidToken(`its algorithm is not one of ${ALLOWED_ALGORITHMS.join(", ")}`);
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return refusals.invalidToken("its signature does not verify");
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return refusals.invalidToken("no signing key of the issuer matches it");
  if (
    error instanceof joseErrors.JWSInvalid ||
    error instanceof joseErrors.JWTInvalid ||
    error instanceof joseErrors.JOSENotSupported ||
    error instanceof joseErrors.JWKSMultipleMatchingKeys
  )
    return refusals.invalidToken("it is not a well-formed signed JWT");
  return refusals.keysUnavailable(issuer);
}

/** Verifies the tokens of one issuer; shared by every Exposition that trusts it, with one cache. */
export class BearerVerifier {
  readonly keys: IssuerKeys;
  private readonly cacheSize: number;
  /** SHA-256 of a token → its principal, least recently used first (a Map keeps insertion order). */
  private readonly verified = new Map<string, TokenPrincipal>();

  constructor(keys: IssuerKeys, cacheSize: number) {
    this.keys = keys;
    this.cacheSize = cacheSize;
  }

  async verify(token: string): Promise<TokenPrincipal> {
    if (token.length > MAX_TOKEN_LENGTH) throw refusals.invalidToken("it is not a well-formed signed JWT");
    // One-shot `hash` (no Hash object), and the shape check only for tokens not seen before: on a
    // cached token these were most of the gateway's added cost per call (bench/gateway, first-call).
    const key = hash("sha256", token, "base64");
    const cached = this.verified.get(key);
    if (cached) {
      this.verified.delete(key);
      if (Date.now() > cached.validUntilMs) throw refusals.invalidToken("it has expired");
      this.verified.set(key, cached); // most recently used last: eviction takes the least recently used
      return cached;
    }
    if (!JWS_COMPACT.test(token)) throw refusals.invalidToken("it is not a well-formed signed JWT");
    const principal = await this.verifySignature(token);
    if (this.verified.size >= this.cacheSize) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(key, principal);
    return principal;
  }

  private async verifySignature(token: string): Promise<TokenPrincipal> {
    const { issuer } = this.keys;
    try {
      const { payload } = await jwtVerify(token, await this.keys.getKey(), {
        issuer,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["exp", "sub"],
      });
      const audiences = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
      const subject = String(payload.sub);
      return {
        issuer,
        subject,
        user: createHash("sha256").update(`${issuer}\n${subject}`).digest("base64url").slice(0, 22),
        scopes: scopesOf(payload),
        audiences,
        resource: typeof payload.resource === "string" ? payload.resource : undefined,
        validUntilMs: ((payload.exp as number) + CLOCK_TOLERANCE_SECONDS) * 1000,
      };
    } catch (error) {
      throw refusalOf(error, issuer);
    }
  }
}

/** 403 when a verified token is for another resource or lacks a required scope. */
export function checkAccess(principal: TokenPrincipal, requirements: AccessRequirements): void {
  if (!principal.audiences.includes(requirements.audience))
    throw refusals.notForThisResource(`its audience does not include ${requirements.audience}`);
  if (principal.resource !== undefined && principal.resource !== requirements.resource)
    throw refusals.notForThisResource(`its resource claim is not ${requirements.resource}`);
  const missing = requirements.requiredScopes.filter((scope) => !principal.scopes.has(scope));
  if (missing.length > 0) throw refusals.missingScope(requirements.requiredScopes);
}

/** One verifier per issuer and key-set URL, kept across configuration changes so their caches survive. */
export class BearerVerifiers {
  private readonly byIssuer = new Map<string, BearerVerifier>();
  private readonly options: IssuerKeyOptions & { cacheSize: number };

  constructor(options: IssuerKeyOptions & { cacheSize: number }) {
    this.options = options;
  }

  for(issuer: string, jwksUri: string | undefined): BearerVerifier {
    const id = `${issuer}\n${jwksUri ?? ""}`;
    let verifier = this.byIssuer.get(id);
    if (!verifier) {
      verifier = new BearerVerifier(new IssuerKeys(issuer, jwksUri, this.options), this.options.cacheSize);
      this.byIssuer.set(id, verifier);
    }
    return verifier;
  }
}
