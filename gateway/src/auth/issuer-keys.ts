/**
 * Where an issuer's signing keys come from: the plan's `jwksUri`, or the `jwks_uri` of the
 * issuer's metadata (RFC 8414 path-inserted, then OpenID Connect), discovered once and retried
 * with a growing pause while it fails. The key set itself is jose's remote JWKS: cached, and
 * refetched — at most once per cooldown — when a token names a `kid` it does not hold, so a
 * rotation at the authorization server needs no restart.
 */
import { inSpan, SpanKind, tracing } from "@atrium/contract/telemetry";
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from "jose";
import { request } from "undici";
import { refusals } from "./refusals.ts";

export interface IssuerKeyOptions {
  /** Least time between two fetches of a key set (jose's cooldown); an unknown `kid` waits for it. */
  cooldownMs: number;
  /** A fetched key set is kept this long before it is fetched again. */
  maxAgeMs: number;
  /** Time a metadata or key-set fetch may take. */
  timeoutMs: number;
}

export const DEFAULT_ISSUER_KEY_OPTIONS: IssuerKeyOptions = { cooldownMs: 30_000, maxAgeMs: 600_000, timeoutMs: 5_000 };

const MAX_METADATA_BYTES = 256 * 1024;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 60_000;

/** RFC 8414 section 3.1: the well-known segment goes between the host and the issuer's path; then OIDC's appended form. */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  return inSpan("GET", fetchSpanOptions(url, "metadata"), () => fetchJsonNow(url, timeoutMs));
}

/** A key or metadata fetch's client span (issue 24): the issuer's URLs are settings, no secret. */
function fetchSpanOptions(url: string, document: "metadata" | "jwks") {
  return {
    kind: SpanKind.CLIENT,
    attributes: { "http.request.method": "GET", "url.full": url, "atrium.auth.document": document },
  };
}

/** jose's own fetch of a key set, in a span when tracing. */
const tracedJwksFetch: FetchImplementation = (url, options) =>
  inSpan("GET", fetchSpanOptions(url, "jwks"), async (span) => {
    const response = await fetch(url, options);
    span?.setAttribute("http.response.status_code", response.status);
    return response;
  });

async function fetchJsonNow(url: string, timeoutMs: number): Promise<unknown> {
  // undici's request follows no redirects.
  const response = await request(url, {
    headers: { accept: "application/json" },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const length = Number(response.headers["content-length"] ?? 0);
  if (response.statusCode !== 200 || length > MAX_METADATA_BYTES) {
    await response.body.dump();
    throw new Error(`HTTP ${response.statusCode}`);
  }
  const text = await response.body.text();
  if (text.length > MAX_METADATA_BYTES) throw new Error("metadata too large");
  return JSON.parse(text);
}

/**
 * The URLs an issuer's metadata names under `fields` (`jwks_uri`, `token_endpoint`...), from the
 * first metadata document that names the same issuer (RFC 8414 section 3.3) and has them all.
 */
export async function discoverEndpoints<F extends string>(
  issuer: string,
  fields: readonly F[],
  timeoutMs: number,
): Promise<Record<F, string>> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const metadata = (await fetchJson(url, timeoutMs)) as Record<string, unknown>;
      if (metadata.issuer !== issuer) {
        problems.push(`${url}: names issuer ${JSON.stringify(metadata.issuer)}`);
        continue;
      }
      const missing = fields.filter((field) => {
        const value = metadata[field];
        return typeof value !== "string" || !URL.canParse(value);
      });
      if (missing.length > 0) {
        problems.push(`${url}: no ${missing.join(", ")}`);
        continue;
      }
      return Object.fromEntries(fields.map((field) => [field, metadata[field]])) as Record<F, string>;
    } catch (error) {
      problems.push(`${url}: ${(error as Error).message}`);
    }
  }
  throw new Error(`no usable authorization server metadata for ${issuer} (${problems.join("; ")})`);
}

/** The `jwks_uri` an issuer publishes. */
export async function discoverJwksUri(issuer: string, timeoutMs: number): Promise<string> {
  return (await discoverEndpoints(issuer, ["jwks_uri"], timeoutMs)).jwks_uri;
}

/** The signing keys of one issuer, shared by every Exposition that trusts it. */
export class IssuerKeys {
  readonly issuer: string;
  private readonly configuredJwksUri: string | undefined;
  private readonly options: IssuerKeyOptions;
  private keySet: JWTVerifyGetKey | undefined;
  private discovered: string | undefined;
  private discovering: Promise<string> | undefined;
  private retryAt = 0;
  private retryPauseMs = RETRY_MIN_MS;
  private lastProblem = "";

  constructor(issuer: string, jwksUri: string | undefined, options: IssuerKeyOptions) {
    this.issuer = issuer;
    this.configuredJwksUri = jwksUri;
    this.options = options;
  }

  /** The key-set URL, once known (for the protected-resource metadata). */
  get jwksUri(): string | undefined {
    return this.configuredJwksUri ?? this.discovered;
  }

  /** What went wrong with the last discovery, for the log (never sent to clients). */
  get problem(): string {
    return this.lastProblem;
  }

  /** jose's key resolver; throws `keysUnavailable` while discovery fails. */
  async getKey(): Promise<JWTVerifyGetKey> {
    if (this.keySet) return this.keySet;
    const uri = this.configuredJwksUri ?? (await this.discover());
    this.keySet ??= createRemoteJWKSet(new URL(uri), {
      cooldownDuration: this.options.cooldownMs,
      cacheMaxAge: this.options.maxAgeMs,
      timeoutDuration: this.options.timeoutMs,
      ...(tracing() ? { [customFetch]: tracedJwksFetch } : {}),
    });
    return this.keySet;
  }

  private discover(): Promise<string> {
    if (Date.now() < this.retryAt) return Promise.reject(refusals.keysUnavailable(this.issuer));
    this.discovering ??= discoverJwksUri(this.issuer, this.options.timeoutMs)
      .then((uri) => {
        this.discovered = uri;
        return uri;
      })
      .catch((error: Error) => {
        // Every caller in the pause gets the same answer, without a request to the issuer each.
        this.lastProblem = error.message;
        this.retryAt = Date.now() + this.retryPauseMs;
        this.retryPauseMs = Math.min(this.retryPauseMs * 2, RETRY_MAX_MS);
        throw refusals.keysUnavailable(this.issuer);
      })
      .finally(() => {
        this.discovering = undefined;
      });
    return this.discovering;
  }
}
