/**
 * Access tokens for backends whose plan's backend secret is `oauth2ClientCredentials`: the
 * client credentials grant (RFC 6749 section 4.4) at the plan's token URL, with undici.
 *
 * One cache entry per plan on this replica: the token is kept until shortly before it expires
 * (`expires_in` minus a margin) and one request at most is in flight per plan, every call that
 * needs a token meanwhile waiting on the same promise. A failed request is not cached: the next
 * call tries again. A changed plan (token URL, client, secret, scopes…) starts afresh.
 *
 * The token endpoint's answer never reaches the client: a failure is described by its HTTP status
 * or error code class, with a correlation id; the log gets, under that id, the status and the
 * OAuth `error` code only (never the body, the client secret or a token). No redirects are
 * followed: a redirect would carry the client secret to another address.
 */
import { createHash } from "node:crypto";
import type { CompiledExposition } from "@atrium/contract";
import { request } from "undici";

export type ClientCredentials = NonNullable<
  NonNullable<CompiledExposition["plan"]["backendSecret"]>["clientCredentials"]
>;

/** A failure for the caller to report: `forClient` to the client, `forLog` and `details` to the log. */
export interface TokenFailure {
  kind: "error";
  forClient: string;
  forLog: string;
  details: Record<string, unknown>;
}
export type TokenOutcome = { kind: "token"; token: string } | TokenFailure;

/** A token is refreshed this long before it expires (a tenth of its lifetime when that is shorter). */
export const EXPIRY_MARGIN_MS = 30_000;
/** How long a token whose answer gives no `expires_in` is kept. */
export const DEFAULT_LIFETIME_MS = 300_000;
/** The whole token request: connection, headers and body. */
export const TOKEN_TIMEOUT_MS = 10_000;
/** The most of a token response that is read. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** An access token as it may be sent in a header: RFC 6750's b64token characters, bounded. */
const TOKEN_PATTERN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN_LENGTH = 16 * 1024;
/** An OAuth error code (RFC 6749 section 5.2): logged only when it looks like one. */
const ERROR_CODE_PATTERN = /^[\x20\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

interface Entry {
  fingerprint: string;
  token?: string;
  /** When the token is due for refresh (ms, the clock given). */
  refreshAt: number;
  pending?: Promise<TokenOutcome>;
}

export class BackendTokens {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  /** Token requests this replica sent (tests, metrics). */
  requests = 0;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  /** A valid token for `planId`: the cached one, the one being fetched, or a new one. */
  token(planId: string, credentials: ClientCredentials, clientSecret: string): Promise<TokenOutcome> {
    const fingerprint = fingerprintOf(credentials, clientSecret);
    let entry = this.entries.get(planId);
    if (entry?.fingerprint !== fingerprint) {
      entry = { fingerprint, refreshAt: 0 };
      this.entries.set(planId, entry);
    }
    if (entry.token !== undefined && this.now() < entry.refreshAt)
      return Promise.resolve({ kind: "token", token: entry.token });
    if (entry.pending) return entry.pending;
    const current = entry;
    current.pending = this.fetch(credentials, clientSecret).then((outcome) => {
      current.pending = undefined;
      if (outcome.kind === "token") {
        current.token = outcome.token;
        current.refreshAt = this.now() + outcome.lifetimeMs - Math.min(EXPIRY_MARGIN_MS, outcome.lifetimeMs / 10);
        return { kind: "token", token: outcome.token };
      }
      current.token = undefined;
      return outcome;
    });
    return current.pending;
  }

  /** The backend refused `token`: the next call for the plan gets a new one (unless one is already coming). */
  invalidate(planId: string, token: string): void {
    const entry = this.entries.get(planId);
    if (entry?.token === token) entry.token = undefined;
  }

  private async fetch(
    credentials: ClientCredentials,
    clientSecret: string,
  ): Promise<{ kind: "token"; token: string; lifetimeMs: number } | TokenFailure> {
    this.requests += 1;
    const tokenUrl = credentials.tokenUrl;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (credentials.scopes?.length) form.set("scope", credentials.scopes.join(" "));
    if (credentials.audience !== undefined) form.set("audience", credentials.audience);
    if (credentials.resource !== undefined) form.set("resource", credentials.resource);
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    if (credentials.tokenEndpointAuthMethod === "client_secret_post") {
      form.set("client_id", credentials.clientId);
      form.set("client_secret", clientSecret);
    } else {
      // RFC 6749 section 2.3.1: each part form-encoded, then Basic.
      const basic = `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
    }
    const failed = (forClient: string, forLog: string, details: Record<string, unknown>): TokenFailure => ({
      kind: "error",
      forClient,
      forLog,
      details: { tokenUrl, clientId: credentials.clientId, ...details },
    });
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
            "The backend's authorization server answered the token request with too large a response",
            "backend token response too large",
            { status },
          );
        }
        chunks.push(chunk);
      }
      body = Buffer.concat(chunks);
    } catch (error) {
      const { code, name } = error as Error & { code?: string };
      return failed(
        "The backend's authorization server could not be reached for a token",
        "backend token request failed",
        { code: code ?? name },
      );
    }
    const answer = parseJson(body);
    if (status !== 200) {
      const errorCode =
        typeof answer?.error === "string" && ERROR_CODE_PATTERN.test(answer.error) ? answer.error : undefined;
      return failed(
        `The backend's authorization server refused the token request (HTTP ${status})`,
        "backend token request refused",
        { status, ...(errorCode ? { error: errorCode } : {}) },
      );
    }
    const token = answer?.access_token;
    const tokenType = answer?.token_type;
    const expiresIn = answer?.expires_in;
    const problem =
      typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !TOKEN_PATTERN.test(token)
        ? "no usable access_token"
        : tokenType !== undefined && (typeof tokenType !== "string" || tokenType.toLowerCase() !== "bearer")
          ? "a token_type other than Bearer"
          : expiresIn !== undefined && !(typeof expiresIn === "number" && expiresIn > 0)
            ? "an expires_in that is not a positive number"
            : undefined;
    if (problem || typeof token !== "string") {
      return failed(
        "The backend's authorization server gave no usable bearer token",
        "backend token response unusable",
        { status, problem },
      );
    }
    return {
      kind: "token",
      token,
      lifetimeMs: typeof expiresIn === "number" ? expiresIn * 1000 : DEFAULT_LIFETIME_MS,
    };
  }
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What the token depends on, the client secret hashed: a changed plan gets a new token. */
function fingerprintOf(credentials: ClientCredentials, clientSecret: string): string {
  const { clientSecret: _source, ...settings } = credentials;
  return createHash("sha256").update(JSON.stringify(settings)).update("\0").update(clientSecret).digest("hex");
}
