/**
 * The elicitation page's stronger mode (`backendSecret.elicit.signIn`): before the page takes a
 * credential, the user signs in at the plan's oauth issuer (OpenID Connect authorization code with
 * PKCE S256), and the page goes on only when the ID token's issuer and subject are the user the
 * agent's token named (the pending elicitation's principal digest).
 *
 * Nothing is stored server-side, so any replica finishes what another started:
 * - `start` seals, with the cluster key's sign-in-state key, the redirect's state (redirect-state.ts:
 *   the elicitation id, PKCE verifier, browser binding and expiry) and the OpenID nonce. The binding is also set in a
 *   cookie (SameSite=Lax: the authorization server's redirect back is a cross-site navigation), so
 *   a callback URL replayed from another browser is refused.
 * - `finish` opens the state, exchanges the code at the token endpoint (with the verifier) and
 *   verifies the ID token with jose against the issuer's keys (the endpoint's IssuerKeys: one
 *   discovery and one key cache per issuer): signature, issuer, audience = client id, `azp`, nonce.
 * - `grant` seals a proof (the signed-in user's digest, bound to the id, short-lived) into a cookie
 *   of that id's own; `proofHolds` checks it on the form and on every submit.
 * The authorization code, tokens and verifier are never logged or shown.
 */
import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { errors as joseErrors, jwtVerify } from "jose";
import { request } from "undici";
import { ALLOWED_ALGORITHMS, CLOCK_TOLERANCE_SECONDS } from "../auth/bearer.ts";
import { discoverEndpoints, type IssuerKeys } from "../auth/issuer-keys.ts";
import { requestOrigin } from "../auth/resource.ts";
import type { ClusterKeyring } from "./cluster-keys.ts";
import { principalDigest } from "./credential-store.ts";
import { cookieValue } from "./page-cookies.ts";
import {
  callbackCode,
  cookie,
  openRedirectState,
  type RedirectState,
  type SignInRefused,
  sealRedirectState,
} from "./redirect-state.ts";

export { BINDING_COOKIE, type SignInRefused } from "./redirect-state.ts";

/** Where the authorization server sends the user back (registered as the client's redirect URI). */
export const SIGN_IN_CALLBACK_PATH = "/elicitations/callback";
/** The proof's cookie: one per elicitation (named by a hash of its id), so two open links do not undo each other. */
export function proofCookie(id: string): string {
  return `atrium-elicitation-signed-in-${createHash("sha256").update(id).digest("base64url").slice(0, 16)}`;
}
/** How long a sign-in lets the page take a credential for its id. */
const PROOF_TTL_SECONDS = 900;
const MAX_PROOF_LENGTH = 2048;
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
const METADATA_TTL_MS = 600_000;

/** What the plan says about signing in: its oauth issuer (and key set) and the page's client id. */
export interface SignInSettings {
  issuer: string;
  jwksUri: string | undefined;
  clientId: string;
}

/** What the state sealed: a redirect's (redirect-state.ts), and the OpenID nonce. */
export interface SignInState extends RedirectState {
  n: string;
}

export interface SignInOptions {
  /** Time a metadata fetch or the token request may take. */
  timeoutMs?: number;
}

export class ElicitationSignIn {
  private readonly keyring: ClusterKeyring;
  private readonly issuerKeys: (issuer: string, jwksUri: string | undefined) => IssuerKeys;
  private readonly timeoutMs: number;
  private readonly endpoints = new Map<string, { value: Endpoints; until: number }>();

  constructor(
    keyring: ClusterKeyring,
    issuerKeys: (issuer: string, jwksUri: string | undefined) => IssuerKeys,
    options: SignInOptions = {},
  ) {
    this.keyring = keyring;
    this.issuerKeys = issuerKeys;
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** The authorization request's URL for this elicitation; sets the browser binding cookie. */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    settings: SignInSettings,
    options: { reauthenticate?: boolean } = {},
  ): Promise<string> {
    const { authorization_endpoint } = await this.endpointsOf(settings.issuer);
    const { state, sealed, challenge } = sealRedirectState<SignInState>(
      this.keyring,
      "sign-in-state",
      request,
      reply,
      id,
      { n: randomBytes(32).toString("base64url") },
    );
    const url = new URL(authorization_endpoint);
    const params = {
      response_type: "code",
      client_id: settings.clientId,
      redirect_uri: redirectUri(request),
      scope: "openid",
      state: sealed,
      nonce: state.n,
      code_challenge: challenge,
      code_challenge_method: "S256",
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    // After a sign-in as another user: the authorization server's session would sign them in again.
    if (options.reauthenticate) url.searchParams.set("prompt", "login");
    return url.href;
  }

  /** The elicitation id a callback's state names, or why it names none (before anything is asked of the issuer). */
  openState(request: FastifyRequest, state: unknown): { ok: true; state: SignInState } | SignInRefused {
    return openRedirectState<SignInState>(this.keyring, "sign-in-state", request, state);
  }

  /**
   * The callback: the authorization server's error, or the code exchanged and the ID token
   * verified. Who signed in is returned; the caller compares them with the elicitation's user.
   */
  async finish(
    request: FastifyRequest,
    query: Record<string, unknown>,
    state: SignInState,
    settings: SignInSettings,
  ): Promise<{ ok: true; user: { iss: string; sub: string } } | SignInRefused> {
    const id = state.i;
    const called = callbackCode(query, id);
    if (!called.ok) return called;
    let idToken: string;
    try {
      const { token_endpoint } = await this.endpointsOf(settings.issuer);
      idToken = await this.exchange(token_endpoint, {
        grant_type: "authorization_code",
        code: called.code,
        redirect_uri: redirectUri(request),
        client_id: settings.clientId,
        code_verifier: state.v,
      });
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, "elicitation sign-in: token request failed");
      return { ok: false, refusal: "unreachable", id };
    }
    try {
      const keys = await this.issuerKeys(settings.issuer, settings.jwksUri).getKey();
      const { payload } = await jwtVerify(idToken, keys, {
        issuer: settings.issuer,
        audience: settings.clientId,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["sub", "exp", "iat"],
      });
      // OpenID Connect Core 3.1.3.7: the nonce sent, and `azp` naming this client when present.
      if (payload.nonce !== state.n) throw new Error("the ID token's nonce is not the one sent");
      if (payload.azp !== undefined && payload.azp !== settings.clientId)
        throw new Error("the ID token's azp is another client");
      return { ok: true, user: { iss: settings.issuer, sub: String(payload.sub) } };
    } catch (error) {
      const message = error instanceof joseErrors.JOSEError ? error.code : (error as Error).message;
      request.log.warn({ err: { message } }, "elicitation sign-in: ID token refused");
      return { ok: false, refusal: "token", id };
    }
  }

  /** After a matching sign-in: the proof the form and its submits need, in a cookie. */
  grant(request: FastifyRequest, reply: FastifyReply, id: string, user: { iss: string; sub: string }): void {
    const proof = JSON.stringify({ d: principalDigest(user), x: Math.floor(Date.now() / 1000) + PROOF_TTL_SECONDS });
    const sealed = this.keyring.seal("sign-in-proof", Buffer.from(proof), id);
    reply.header("set-cookie", cookie(request, proofCookie(id), sealed, PROOF_TTL_SECONDS));
  }

  /** Whether this browser signed in, for this elicitation id, as the user whose digest it holds. */
  proofHolds(request: FastifyRequest, id: string, digest: string): boolean {
    const sealed = cookieValue(request, proofCookie(id));
    if (sealed === undefined || sealed.length > MAX_PROOF_LENGTH) return false;
    const opened = this.keyring.open("sign-in-proof", sealed, id);
    if (!opened.ok) return false;
    const proof = JSON.parse(opened.plaintext.toString("utf8")) as { d: string; x: number };
    return proof.d === digest && Date.now() / 1000 < proof.x;
  }

  private async endpointsOf(issuer: string): Promise<Endpoints> {
    const cached = this.endpoints.get(issuer);
    if (cached && cached.until > Date.now()) return cached.value;
    const value = await discoverEndpoints(issuer, ["authorization_endpoint", "token_endpoint"], this.timeoutMs);
    this.endpoints.set(issuer, { value, until: Date.now() + METADATA_TTL_MS });
    return value;
  }

  /** The token request (a public client: no secret); its `id_token`. */
  private async exchange(tokenEndpoint: string, form: Record<string, string>): Promise<string> {
    // undici's request follows no redirects.
    const response = await request(tokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    const text = await response.body.text();
    if (text.length > MAX_TOKEN_RESPONSE_BYTES) throw new Error("token response too large");
    let body: { id_token?: unknown; error?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`token endpoint answered HTTP ${response.statusCode} without JSON`);
    }
    // The error code only: never the body, which may carry tokens.
    if (response.statusCode !== 200)
      throw new Error(`token endpoint answered HTTP ${response.statusCode} (${String(body.error).slice(0, 64)})`);
    if (typeof body.id_token !== "string") throw new Error("token endpoint answered without an id_token");
    return body.id_token;
  }
}

type Endpoints = Record<"authorization_endpoint" | "token_endpoint", string>;

function redirectUri(request: FastifyRequest): string {
  return `${requestOrigin(request.headers)}${SIGN_IN_CALLBACK_PATH}`;
}
