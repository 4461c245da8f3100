/**
 * Each user's own grant at the backend's authorization server (`backendSecret.oauth2AuthorizationCode`):
 * authorization code with PKCE S256 (RFC 6749 section 4.1, RFC 7636) started from the elicitation
 * page, its tokens kept in the elicited-credential store, refreshed when they expire, and revoked
 * (RFC 7009) when the user removes them.
 *
 * - `start` seals the redirect's state (redirect-state.ts) with the cluster key's grant-state key:
 *   nothing is kept server-side, so any replica finishes what another started, and the PKCE
 *   verifier never leaves the gateway but sealed. The redirect URI is exact:
 *   `<origin>/elicitations/authorized`.
 * - `finish` opens the state (once the page consumed the elicitation, it cannot be used again)
 *   and exchanges the code at the token endpoint with the verifier and the client's
 *   authentication; the grant is what the page stores.
 * - `current` turns a stored grant into an access token, refreshing it (one refresh in flight per
 *   grant on this replica) when it expires within a minute; a refused refresh (`invalid_grant`)
 *   says the grant is gone, and the caller forgets it and asks again.
 * Codes, tokens and the verifier are never logged or shown; a failure is described by the token
 * endpoint's status and OAuth error code (token-endpoint.ts).
 */
import type { CompiledExposition } from "@atrium/contract";
import { AUTHORIZATION_CALLBACK_PATH } from "@atrium/crds";
import type { FastifyReply, FastifyRequest } from "fastify";
import { request } from "undici";
import { discoverEndpoints } from "../auth/issuer-keys.ts";
import { requestOrigin } from "../auth/resource.ts";
import { secretValue } from "../backend.ts";
import { type ClientAuthentication, requestToken, TOKEN_TIMEOUT_MS, type TokenFailure } from "../token-endpoint.ts";
import type { ClusterKeyring } from "./cluster-keys.ts";
import {
  callbackCode,
  openRedirectState,
  type RedirectState,
  type SignInRefused,
  sealRedirectState,
} from "./redirect-state.ts";

export type AuthorizationCodeSettings = NonNullable<
  NonNullable<CompiledExposition["plan"]["backendSecret"]>["authorizationCode"]
>;

/** A user's grant as stored (JSON, sealed by the credential store): access token, its expiry (ms), refresh token. */
export interface StoredGrant {
  a: string;
  x: number;
  r?: string;
}

/** A token expiring sooner is refreshed before it is sent. */
const REFRESH_MARGIN_MS = 60_000;
const METADATA_TTL_MS = 600_000;

type Endpoints = { authorization: string; token: string; revocation: string | undefined };

export type GrantOutcome = { kind: "token"; token: string } | { kind: "gone" } | TokenFailure;

export class BackendGrants {
  private readonly keyring: ClusterKeyring;
  private readonly endpoints = new Map<string, { value: Endpoints; until: number }>();
  private readonly refreshing = new Map<string, Promise<{ grant?: StoredGrant; outcome: GrantOutcome }>>();

  constructor(keyring: ClusterKeyring) {
    this.keyring = keyring;
  }

  /** The authorization request's URL for this elicitation; sets the browser binding cookie. */
  async start(request: FastifyRequest, reply: FastifyReply, id: string, settings: AuthorizationCodeSettings) {
    const { authorization } = await this.endpointsOf(settings);
    const { sealed, challenge } = sealRedirectState(this.keyring, "grant-state", request, reply, id, {});
    const url = new URL(authorization);
    const params: Record<string, string> = {
      response_type: "code",
      client_id: settings.clientId,
      redirect_uri: redirectUri(request),
      state: sealed,
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    if (settings.scopes?.length) params.scope = settings.scopes.join(" ");
    if (settings.resource) params.resource = settings.resource;
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.href;
  }

  /** The elicitation id a callback's state names, or why it names none (before the authorization server is asked). */
  openState(request: FastifyRequest, state: unknown): { ok: true; state: RedirectState } | SignInRefused {
    return openRedirectState(this.keyring, "grant-state", request, state);
  }

  /** The callback: the authorization server's error, or the code exchanged for the user's grant. */
  async finish(
    request: FastifyRequest,
    query: Record<string, unknown>,
    state: RedirectState,
    settings: AuthorizationCodeSettings,
  ): Promise<{ ok: true; grant: StoredGrant } | SignInRefused> {
    const id = state.i;
    const called = callbackCode(query, id);
    if (!called.ok) return called;
    const form = new URLSearchParams({
      grant_type: "authorization_code",
      code: called.code,
      redirect_uri: redirectUri(request),
      code_verifier: state.v,
    });
    const issued = await this.tokenRequest(settings, form, "the authorization code");
    if (issued.kind === "error") {
      request.log.warn({ ...issued.details }, `backend authorization: ${issued.forLog}`);
      return { ok: false, refusal: "unreachable", id };
    }
    return { ok: true, grant: grantOf(issued) };
  }

  /**
   * The access token of a stored grant, refreshed first when it expires within a minute
   * (`refreshed` gets the new grant, to store); `gone` when it expired with no way to refresh it,
   * or the authorization server refused the refresh (invalid_grant).
   */
  async current(
    stored: string,
    settings: AuthorizationCodeSettings,
    key: string,
    refreshed: (grant: StoredGrant) => Promise<void>,
  ): Promise<GrantOutcome> {
    const grant = parseGrant(stored);
    if (!grant) return { kind: "gone" };
    if (grant.x - REFRESH_MARGIN_MS > Date.now()) return { kind: "token", token: grant.a };
    if (!grant.r) return { kind: "gone" };
    let pending = this.refreshing.get(key);
    if (!pending) {
      pending = this.refresh(grant.r, settings).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, pending);
    }
    const { grant: next, outcome } = await pending;
    if (next) await refreshed(next);
    return outcome;
  }

  /** RFC 7009: revokes the grant's refresh token (and so, at most servers, its access tokens), best effort. */
  async revoke(stored: string, settings: AuthorizationCodeSettings): Promise<boolean> {
    const grant = parseGrant(stored);
    if (!grant) return false;
    try {
      const { revocation } = await this.endpointsOf(settings);
      if (!revocation) return false;
      const [token, hint] = grant.r ? [grant.r, "refresh_token"] : [grant.a, "access_token"];
      const form = new URLSearchParams({ token, token_type_hint: hint });
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
      authenticateForm(clientOf(settings), form, headers);
      const response = await request(revocation, {
        method: "POST",
        headers,
        body: form.toString(),
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
      await response.body.dump();
      return response.statusCode === 200;
    } catch {
      return false;
    }
  }

  private async refresh(
    refreshToken: string,
    settings: AuthorizationCodeSettings,
  ): Promise<{ grant?: StoredGrant; outcome: GrantOutcome }> {
    const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
    const issued = await this.tokenRequest(settings, form, "the refresh of your authorization");
    if (issued.kind === "error") {
      // The grant is over (RFC 6749 section 5.2): asking the user again is the only way on.
      if (issued.details.error === "invalid_grant") return { outcome: { kind: "gone" } };
      return { outcome: issued };
    }
    // A server that does not rotate refresh tokens answers without one: the old one stays good.
    const grant = grantOf(issued, refreshToken);
    return { grant, outcome: { kind: "token", token: grant.a } };
  }

  private async tokenRequest(settings: AuthorizationCodeSettings, form: URLSearchParams, what: string) {
    try {
      const { token } = await this.endpointsOf(settings);
      const client = clientOf(settings);
      return await requestToken({ tokenUrl: token, form, client, what, details: { clientId: settings.clientId } });
    } catch (error) {
      return {
        kind: "error" as const,
        forClient: "The backend's authorization server's metadata could not be read",
        forLog: "backend authorization server metadata unreadable",
        details: { problem: (error as Error).message.split("\n")[0] },
      };
    }
  }

  private async endpointsOf(settings: AuthorizationCodeSettings): Promise<Endpoints> {
    if (!settings.issuer) {
      return {
        authorization: settings.authorizationUrl as string,
        token: settings.tokenUrl as string,
        revocation: settings.revocationUrl,
      };
    }
    const cached = this.endpoints.get(settings.issuer);
    if (cached && cached.until > Date.now()) return cached.value;
    const found = await discoverEndpoints(
      settings.issuer,
      ["authorization_endpoint", "token_endpoint"],
      TOKEN_TIMEOUT_MS,
    );
    const revocation =
      settings.revocationUrl ??
      (await discoverEndpoints(settings.issuer, ["revocation_endpoint"], TOKEN_TIMEOUT_MS).then(
        (more) => more.revocation_endpoint,
        () => undefined,
      ));
    const value = { authorization: found.authorization_endpoint, token: found.token_endpoint, revocation };
    this.endpoints.set(settings.issuer, { value, until: Date.now() + METADATA_TTL_MS });
    return value;
  }
}

function clientOf(settings: AuthorizationCodeSettings): ClientAuthentication {
  const secret = settings.clientSecret ? (secretValue(settings.clientSecret) ?? "") : "";
  const method = settings.tokenEndpointAuthMethod ?? (settings.clientSecret ? "client_secret_basic" : "none");
  return { clientId: settings.clientId, tokenEndpointAuthMethod: method, secret };
}

/** The client's authentication on a revocation request (RFC 7009 section 2.1: as at the token endpoint). */
function authenticateForm(client: ClientAuthentication, form: URLSearchParams, headers: Record<string, string>) {
  if (client.tokenEndpointAuthMethod === "client_secret_basic") {
    const basic = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString("base64")}`;
    return;
  }
  form.set("client_id", client.clientId);
  if (client.tokenEndpointAuthMethod === "client_secret_post") form.set("client_secret", client.secret);
}

function grantOf(issued: { token: string; lifetimeMs: number; refreshToken?: string }, previousRefresh?: string) {
  const refresh = issued.refreshToken ?? previousRefresh;
  return { a: issued.token, x: Date.now() + issued.lifetimeMs, ...(refresh ? { r: refresh } : {}) };
}

function parseGrant(stored: string): StoredGrant | undefined {
  try {
    const grant = JSON.parse(stored) as Partial<StoredGrant>;
    return typeof grant.a === "string" && typeof grant.x === "number" ? (grant as StoredGrant) : undefined;
  } catch {
    return undefined;
  }
}

function redirectUri(request: FastifyRequest): string {
  return `${requestOrigin(request.headers)}${AUTHORIZATION_CALLBACK_PATH}`;
}
