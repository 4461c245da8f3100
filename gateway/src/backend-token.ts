/**
 * Access tokens for backends whose plan's backend secret is `oauth2ClientCredentials`: the
 * client credentials grant (RFC 6749 section 4.4) at the plan's token URL (token-endpoint.ts).
 *
 * One cache entry per plan on this replica (token-cache.ts): the token is kept until shortly
 * before it expires and one request at most is in flight per plan. A changed plan (token URL,
 * client, secret, scopes…) starts afresh.
 */
import { createHash } from "node:crypto";
import type { CompiledExposition } from "@atrium/contract";
import { TokenCache } from "./token-cache.ts";
import { requestToken, type TokenOutcome } from "./token-endpoint.ts";

export { EXPIRY_MARGIN_MS } from "./token-cache.ts";
export type { TokenFailure, TokenOutcome } from "./token-endpoint.ts";

export type ClientCredentials = NonNullable<
  NonNullable<CompiledExposition["plan"]["backendSecret"]>["clientCredentials"]
>;

export class BackendTokens {
  private readonly cache: TokenCache;
  /** Token requests this replica sent (tests, metrics). */
  requests = 0;

  constructor(options: { now?: () => number } = {}) {
    this.cache = new TokenCache(options);
  }

  /** A valid token for `planId`: the cached one, the one being fetched, or a new one. */
  token(planId: string, credentials: ClientCredentials, clientSecret: string): Promise<TokenOutcome> {
    return this.cache.token(planId, fingerprintOf(credentials, clientSecret), () => {
      this.requests += 1;
      const form = new URLSearchParams({ grant_type: "client_credentials" });
      if (credentials.scopes?.length) form.set("scope", credentials.scopes.join(" "));
      if (credentials.audience !== undefined) form.set("audience", credentials.audience);
      if (credentials.resource !== undefined) form.set("resource", credentials.resource);
      return requestToken({
        tokenUrl: credentials.tokenUrl,
        form,
        client: { ...credentials, secret: clientSecret },
        what: "the token request",
        details: {},
      });
    });
  }

  /** The backend refused `token`: the next call for the plan gets a new one (unless one is already coming). */
  invalidate(planId: string, token: string): void {
    this.cache.invalidate(planId, token);
  }
}

/** What a token depends on, its client secret hashed: a changed plan gets a new token. */
export function fingerprintOf(settings: { clientSecret: unknown }, clientSecret: string): string {
  const { clientSecret: _source, ...rest } = settings;
  return createHash("sha256").update(JSON.stringify(rest)).update("\0").update(clientSecret).digest("hex");
}
