/**
 * Backend tokens of plans whose backend secret is `tokenExchange`: the caller's validated access
 * token exchanged (RFC 8693) at the backend's authorization server for a token of their own.
 *
 * The caller's token goes only to that token endpoint, as `subject_token`; the backend gets the
 * exchanged one. Results are cached per (plan, caller) on this replica until shortly before they
 * expire, and never past the caller's own token, one exchange in flight per key (token-cache.ts); a
 * changed plan or client secret starts afresh. The token endpoint is the plan's `tokenUrl`, or read from its `issuer`'s RFC 8414 (or
 * OpenID Connect) metadata, kept for METADATA_MAX_AGE_MS (a failed read is not kept).
 *
 * With `actorToken: clientCredentials` (delegation, RFC 8693 section 1.1) each exchange also carries
 * the gateway's own access token as `actor_token`, got from the same token endpoint with the same
 * client by the client credentials grant and cached per plan like a backend token; a refused
 * exchange drops it, so the next one gets a fresh actor token.
 */
import type { CompiledExposition } from "@atrium/contract";
import { ACCESS_TOKEN_TYPE } from "@atrium/crds";
import { discoverEndpoints } from "./auth/issuer-keys.ts";
import { fingerprintOf } from "./backend-token.ts";
import { TokenCache } from "./token-cache.ts";
import { requestToken, TOKEN_TIMEOUT_MS, type TokenFailure, type TokenOutcome } from "./token-endpoint.ts";

export type TokenExchangeSettings = NonNullable<
  NonNullable<CompiledExposition["plan"]["backendSecret"]>["tokenExchange"]
>;

/** Who the token is exchanged for: the endpoint's validated caller. */
export interface ExchangeSubject {
  /** Stands for the token's issuer and subject (TokenPrincipal.user). */
  user: string;
  /** The caller's access token, as validated by the endpoint. */
  token: string;
  /** Until when that token holds (ms since the epoch): the exchanged token is not kept past it. */
  validUntilMs?: number;
}

const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange";
/** Callers whose exchanged tokens each replica keeps at most. */
export const MAX_EXCHANGED_TOKENS = 10_000;
/** How long a discovered token endpoint is used before the issuer's metadata is read again. */
export const METADATA_MAX_AGE_MS = 600_000;

export class ExchangedTokens {
  private readonly cache: TokenCache;
  private readonly now: () => number;
  /** The gateway's own tokens, sent as actor_token: one per plan. */
  private readonly actors: TokenCache;
  private readonly endpoints = new Map<string, { url: Promise<string>; readAt: number }>();
  /** Token exchanges this replica sent (tests, metrics). */
  requests = 0;

  constructor(options: { now?: () => number; maxEntries?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.cache = new TokenCache({ now: this.now, maxEntries: options.maxEntries ?? MAX_EXCHANGED_TOKENS });
    this.actors = new TokenCache({ now: this.now });
  }

  /** A backend token for `subject` on `planId`: the cached one, the one being exchanged, or a new one. */
  token(
    planId: string,
    settings: TokenExchangeSettings,
    clientSecret: string,
    subject: ExchangeSubject,
  ): Promise<TokenOutcome> {
    const fingerprint = fingerprintOf(settings, clientSecret);
    return this.cache.token(keyOf(planId, subject), fingerprint, async () => {
      const got = await this.exchange(planId, settings, clientSecret, subject.token);
      // Never act for the caller past their own token: its expiry bounds how long the result is kept.
      if (got.kind !== "token" || subject.validUntilMs === undefined) return got;
      return { ...got, lifetimeMs: Math.max(0, Math.min(got.lifetimeMs, subject.validUntilMs - this.now())) };
    });
  }

  /** The backend refused `token`: the caller's next call gets a new exchange. */
  invalidate(planId: string, subject: ExchangeSubject, token: string): void {
    this.cache.invalidate(keyOf(planId, subject), token);
  }

  private async exchange(planId: string, settings: TokenExchangeSettings, clientSecret: string, subjectToken: string) {
    const tokenUrl = settings.tokenUrl ?? (await this.discover(settings.issuer ?? ""));
    if (typeof tokenUrl !== "string") return tokenUrl;
    const client = { ...settings, secret: clientSecret };
    let actor: string | undefined;
    if (settings.actorToken === "clientCredentials") {
      const own = await this.actors.token(planId, fingerprintOf(settings, clientSecret), () =>
        requestToken({
          tokenUrl,
          form: new URLSearchParams({ grant_type: "client_credentials" }),
          client,
          what: "the gateway's actor token request",
          details: { grant: "client_credentials", for: "actor_token" },
        }),
      );
      if (own.kind !== "token") return own;
      actor = own.token;
    }
    this.requests += 1;
    const form = new URLSearchParams({
      grant_type: GRANT_TYPE,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      requested_token_type: settings.requestedTokenType,
    });
    if (settings.scopes?.length) form.set("scope", settings.scopes.join(" "));
    if (settings.audience !== undefined) form.set("audience", settings.audience);
    if (settings.resource !== undefined) form.set("resource", settings.resource);
    if (actor) {
      form.set("actor_token", actor);
      form.set("actor_token_type", ACCESS_TOKEN_TYPE);
    }
    const exchanged = await requestToken({
      tokenUrl,
      form,
      client,
      // RFC 8693 section 2.2.1: N_A when the issued token is not an access token (a JWT).
      otherTokenTypes: ["n_a"],
      what: "the token exchange",
      details: { grant: "token-exchange" },
    });
    // The actor token may be what was refused (revoked, or the server's keys rotated).
    if (actor && exchanged.kind !== "token") this.actors.invalidate(planId, actor);
    return exchanged;
  }

  /** The issuer's token endpoint, from its metadata (kept a while), or why it is not known. */
  private async discover(issuer: string): Promise<string | TokenFailure> {
    const known = this.endpoints.get(issuer);
    let url: Promise<string>;
    if (known && this.now() - known.readAt < METADATA_MAX_AGE_MS) url = known.url;
    else {
      url = discoverEndpoints(issuer, ["token_endpoint"], TOKEN_TIMEOUT_MS).then((found) => found.token_endpoint);
      this.endpoints.set(issuer, { url, readAt: this.now() });
    }
    try {
      return await url;
    } catch (error) {
      if (this.endpoints.get(issuer)?.url === url) this.endpoints.delete(issuer);
      return {
        kind: "error",
        forClient: "The backend's authorization server's metadata could not be read to find its token endpoint",
        forLog: "backend authorization server metadata unusable",
        details: { issuer, problem: (error as Error).message },
      };
    }
  }
}

function keyOf(planId: string, subject: ExchangeSubject): string {
  return `${planId} ${subject.user}`;
}
