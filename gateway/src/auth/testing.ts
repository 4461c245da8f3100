/**
 * Test support: a real OAuth 2.0 / OpenID Connect authorization server (oidc-provider) on
 * 127.0.0.1, issuing RS256 JWT access tokens through client credentials and through
 * authorization code + PKCE (logins finish by themselves, as user `alice` unless told
 * otherwise) with refresh tokens and RFC 7009 revocation, RFC 8693 token exchange (a registered
 * grant: a client allowed it exchanges an access token of this server for one of the same
 * subject and the audience asked, signed with the current key), and the private key it signs
 * with, so tests can also hand-mint hostile tokens.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { recordSecret } from "@atrium/reliability/secrets";
import {
  type CryptoKey,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import Provider from "oidc-provider";

export const CLIENT_ID = "mcp-test-client";
export const CLIENT_SECRET = "mcp-test-client-secret-of-32-characters";
export const PUBLIC_CLIENT_ID = "mcp-public-client";
export const REDIRECT_URI = "http://127.0.0.1/callback";
/** Every scope the authorization server grants for any resource. */
export const SCOPES = ["tools:read", "tools:write", "pets:admin"];
export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
/** A confidential client allowed only the token-exchange grant (kept across key rotations, unlike a registered one). */
export const EXCHANGE_CLIENT = { id: "mcp-exchange-client", secret: "mcp-exchange-client-secret-of-32-chars" };
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid: string, alg = "RS256"): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid, alg, use: "sig" };
  recordSecret("OAuth signing private key", typeof jwk.d === "string" ? jwk.d : undefined);
  return { kid, privateKey, jwk };
}

export interface TestAuthorizationServer {
  issuer: string;
  jwksUri: string;
  /** The key tokens are signed with now (the first of the key set). */
  key: SigningKey;
  /** The user the next interactive login finishes as. */
  loginAs: string;
  /** Replaces the key set (new key first): a rotation at the authorization server. */
  rotate(next: SigningKey): Promise<void>;
  /** A token from the token endpoint (client credentials) for `resource`. */
  clientCredentials(resource: string, scope?: string): Promise<string>;
  /** A token signed with the server's key, with any claims (hostile tokens). */
  mint(claims: JWTPayload, options?: { key?: SigningKey; alg?: string; expiresIn?: string | number }): Promise<string>;
  /** How many times the key set was fetched, revocation requests it answered, tokens it exchanged. */
  jwksFetches: number;
  revocations: number;
  exchanges: number;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Lifetime of the JWT access tokens it issues for a resource (default 300 s). */
  accessTokenTtlSeconds?: number;
}

function configuration(keys: SigningKey[], options: AuthorizationServerOptions) {
  return {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: EXCHANGE_CLIENT.id,
        client_secret: EXCHANGE_CLIENT.secret,
        grant_types: [TOKEN_EXCHANGE_GRANT],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: PUBLIC_CLIENT_ID,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [REDIRECT_URI],
        response_types: ["code"],
      },
    ],
    jwks: { keys: keys.map((key) => key.jwk) },
    scopes: ["openid", "offline_access", ...SCOPES],
    clientBasedCORS: () => true,
    pkce: { required: () => true },
    // A client allowed the refresh_token grant gets a refresh token with every authorization code.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          audience: resource,
          scope: SCOPES.join(" "),
          accessTokenFormat: "jwt",
          accessTokenTTL: options.accessTokenTtlSeconds ?? 300,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
    // Logins finish at once: the interaction URL grants everything asked, as `loginAs`.
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
  };
}

export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  let server: Server | undefined;
  let provider: InstanceType<typeof Provider>;
  recordSecret("OAuth client secret", CLIENT_SECRET);
  recordSecret("OAuth token-exchange client secret", EXCHANGE_CLIENT.secret);
  const state = { loginAs: "alice", jwksFetches: 0, revocations: 0, exchanges: 0, keys: [await signingKey("key-1")] };
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createServer(async (req, res) => {
        if (req.url?.startsWith("/jwks")) state.jwksFetches += 1;
        if (req.url?.startsWith("/token/revocation")) state.revocations += 1;
        const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? "");
        if (!interaction) return provider.callback()(req, res);
        // Auto-login and consent: a grant of every requested scope for every requested resource.
        const details = await provider.interactionDetails(req, res);
        const accountId = state.loginAs;
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        // The test scopes are also in `scopes`, so oidc-provider counts them as OpenID scopes too:
        // without them in the grant's OpenID scope the consent prompt never settles.
        const requested = typeof details.params.scope === "string" ? details.params.scope : "";
        grant.addOIDCScope(`openid offline_access ${requested}`.trim());
        const resources = details.params.resource;
        for (const resource of [resources].flat().filter((r): r is string => typeof r === "string"))
          grant.addResourceScope(resource, requested);
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      });
      const listening = server;
      listening.listen(port, "127.0.0.1", () => resolve((listening.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const issuer = `http://127.0.0.1:${port}`;
  /** RFC 8693: an access token of this server (any of its keys) for one of the same subject, for `audience`. */
  const exchangeToken = async (ctx: {
    oidc: { params: Record<string, unknown>; client: { clientId: string } };
    status: number;
    body: unknown;
  }) => {
    const { subject_token: subject, subject_token_type: type, audience, scope } = ctx.oidc.params;
    const refuse = (error: string) => {
      ctx.status = 400;
      ctx.body = { error };
    };
    if (type !== ACCESS_TOKEN_TYPE || typeof audience !== "string") return refuse("invalid_request");
    let sub: string;
    try {
      // The public halves: the key set as /jwks serves it.
      const keys = createLocalJWKSet({ keys: state.keys.map(({ jwk: { d, p, q, dp, dq, qi, ...pub } }) => pub) });
      sub = String((await jwtVerify(String(subject), keys, { issuer })).payload.sub);
    } catch {
      return refuse("invalid_grant");
    }
    const key = state.keys[0] as SigningKey;
    const token = await new SignJWT({
      scope: typeof scope === "string" ? scope : undefined,
      client_id: ctx.oidc.client.clientId,
    })
      .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "at+jwt" })
      .setIssuer(issuer)
      .setSubject(sub)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key.privateKey);
    recordSecret("OAuth access token (exchanged)", token);
    state.exchanges += 1;
    ctx.body = { access_token: token, issued_token_type: ACCESS_TOKEN_TYPE, token_type: "Bearer", expires_in: 300 };
  };
  const build = () => {
    provider = new Provider(issuer, configuration(state.keys, options) as never);
    provider.registerGrantType(TOKEN_EXCHANGE_GRANT, exchangeToken as never, [
      "subject_token",
      "subject_token_type",
      "audience",
      "scope",
      "requested_token_type",
      "actor_token",
      "actor_token_type",
    ]);
    // The gateway and the SDK client talk plain HTTP to 127.0.0.1.
    provider.proxy = true;
  };
  build();

  const as: TestAuthorizationServer = {
    issuer,
    jwksUri: `${issuer}/jwks`,
    get key() {
      return state.keys[0] as SigningKey;
    },
    get loginAs() {
      return state.loginAs;
    },
    set loginAs(user: string) {
      state.loginAs = user;
    },
    get jwksFetches() {
      return state.jwksFetches;
    },
    get revocations() {
      return state.revocations;
    },
    get exchanges() {
      return state.exchanges;
    },
    rotate: async (next) => {
      state.keys = [next, ...state.keys];
      build();
    },
    clientCredentials: async (resource, scope = SCOPES.join(" ")) => {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`,
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (!body.access_token) throw new Error(`token endpoint: ${body.error}: ${body.error_description}`);
      recordSecret("OAuth access token", body.access_token);
      return body.access_token;
    },
    mint: async (claims, options = {}) => {
      const key = options.key ?? (state.keys[0] as SigningKey);
      const jwt = new SignJWT({ scope: SCOPES.join(" "), ...claims })
        .setProtectedHeader({ alg: options.alg ?? "RS256", kid: key.kid, typ: "at+jwt" })
        .setIssuedAt();
      if (claims.iss === undefined) jwt.setIssuer(issuer);
      if (claims.sub === undefined) jwt.setSubject("alice");
      if (claims.exp === undefined) jwt.setExpirationTime(options.expiresIn ?? "5m");
      const token = await jwt.sign(key.privateKey);
      recordSecret("OAuth access token (minted)", token);
      return token;
    },
    close: () =>
      new Promise((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
  };
  return as;
}
