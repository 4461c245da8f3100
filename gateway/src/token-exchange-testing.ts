/**
 * Test support for token exchange: a backend authorization server on 127.0.0.1 implementing
 * RFC 8693 (client_secret_basic and private_key_jwt clients, RFC 8414 metadata), which validates
 * each subject token with jose against the endpoint's issuer and issues a JWT for the same
 * subject and the backend's audience; with an `actor_token` (one it issued to the same client by
 * the client credentials grant, checked like a subject token), a delegation token naming that
 * client in its `act` claim; and a backend that accepts only those JWTs, recording every
 * Authorization header it is sent.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { recordSecret } from "@atrium/reliability/secrets";
import { createRemoteJWKSet, decodeJwt, importJWK, type JWK, jwtVerify, SignJWT } from "jose";
import { signingKey } from "./auth/testing.ts";
import { listenLocally } from "./testing.ts";

export const BACKEND_AUDIENCE = "https://pets.backend.test";
export const SECRET_CLIENT = { id: "atrium-exchange", secret: "token-exchange-client-secret-0123456789" };
export const JWT_CLIENT_ID = "atrium-exchange-jwt";

export interface ExchangeServer {
  issuer: string;
  tokenUrl: string;
  /** The public key of the tokens it issues. */
  publicJwk: JWK;
  /** The PEM (PKCS#8) private key of the private_key_jwt client. */
  clientKeyPem: string;
  /** Exchanges answered with a token, and every request to the token endpoint. */
  exchanges: number;
  requests: number;
  /** The subject tokens received. */
  subjectTokens: string[];
  /** The forms received (without the subject token, actor token and client assertion). */
  forms: Record<string, string>[];
  /** Client credentials grants answered with a token (the gateway's actor tokens). */
  actorTokensIssued: number;
  /** The actor tokens received with exchanges. */
  actorTokens: string[];
  /** Refuse exchanges without an actor_token (invalid_request), as a server allowing only delegation would. */
  requireActor: boolean;
  /** Actor tokens refused from now on (invalid_grant), as revoked ones would be. */
  revokedActors: Set<string>;
  /** What the next exchanges get: a token, an OAuth error, a 500, or no answer at all. */
  mode: "ok" | "invalid_grant" | "unauthorized_client" | "server_error" | "hang";
  /** Lifetime of the issued tokens (s), and how long each exchange takes (ms). */
  ttl: number;
  delayMs: number;
  close(): Promise<void>;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => resolve(new URLSearchParams(body)));
    req.on("error", reject);
  });
}

/** `endpointJwksUri`: where the keys of the subject tokens' issuer (`endpointIssuer`) are. */
export async function startExchangeServer(endpointIssuer: string, endpointJwksUri: string): Promise<ExchangeServer> {
  const key = await signingKey("exchange-key");
  const clientKeys = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const clientKeyPem = clientKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  recordSecret("token exchange client secret", SECRET_CLIENT.secret);
  recordSecret("token exchange client key", clientKeyPem);
  const endpointKeys = createRemoteJWKSet(new URL(endpointJwksUri));
  const publicJwk = {
    ...key.jwk,
    d: undefined,
    p: undefined,
    q: undefined,
    dp: undefined,
    dq: undefined,
    qi: undefined,
  };
  const publicKey = await importJWK(publicJwk, "RS256");
  const state = {
    exchanges: 0,
    requests: 0,
    subjectTokens: [] as string[],
    forms: [] as Record<string, string>[],
    actorTokensIssued: 0,
    actorTokens: [] as string[],
    requireActor: false,
    revokedActors: new Set<string>(),
    mode: "ok" as ExchangeServer["mode"],
    ttl: 300,
    delayMs: 0,
  };
  let issuer = "";
  const answer = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const clientOf = async (req: IncomingMessage, form: URLSearchParams): Promise<string | undefined> => {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent);
      return id === SECRET_CLIENT.id && secret === SECRET_CLIENT.secret ? id : undefined;
    }
    const assertion = form.get("client_assertion");
    if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" || !assertion)
      return undefined;
    try {
      const publicKey: KeyObject = createPublicKey(clientKeys.privateKey);
      const { payload } = await jwtVerify(assertion, publicKey, {
        issuer: JWT_CLIENT_ID,
        subject: JWT_CLIENT_ID,
        audience: `${issuer}/token`,
      });
      return payload.jti ? JWT_CLIENT_ID : undefined;
    } catch {
      return undefined;
    }
  };
  const server = createServer(async (req, res) => {
    if (req.method === "GET" && req.url === "/.well-known/oauth-authorization-server")
      return answer(res, 200, { issuer, token_endpoint: `${issuer}/token`, grant_types_supported: ["token-exchange"] });
    if (req.method !== "POST" || req.url !== "/token") return answer(res, 404, { error: "not_found" });
    state.requests += 1;
    const form = await readForm(req);
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.mode === "hang") return;
    if (state.mode === "server_error") return answer(res, 500, { error: "server_error" });
    const client = await clientOf(req, form);
    if (!client) return answer(res, 401, { error: "invalid_client" });
    if (state.mode !== "ok") return answer(res, 400, { error: state.mode, error_description: "refused by the test" });
    if (form.get("grant_type") === "client_credentials") {
      // The client's own token, valid only here: what it sends back as actor_token.
      state.actorTokensIssued += 1;
      const own = await new SignJWT({ client_id: client })
        .setProtectedHeader({ alg: "RS256", kid: key.kid })
        .setIssuer(issuer)
        .setSubject(client)
        .setAudience(issuer)
        .setIssuedAt()
        .setExpirationTime(`${state.ttl}s`)
        .setJti(crypto.randomUUID())
        .sign(key.privateKey);
      recordSecret("actor token", own);
      return answer(res, 200, { access_token: own, token_type: "Bearer", expires_in: state.ttl });
    }
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:token-exchange")
      return answer(res, 400, { error: "unsupported_grant_type" });
    if (form.get("subject_token_type") !== "urn:ietf:params:oauth:token-type:access_token")
      return answer(res, 400, { error: "invalid_request" });
    // RFC 8693 section 2.1: actor_token_type is required with actor_token and must not come without it.
    const actorToken = form.get("actor_token");
    if (form.has("actor_token_type") !== (actorToken !== null))
      return answer(res, 400, { error: "invalid_request", error_description: "actor_token and its type go together" });
    if (actorToken === null && state.requireActor)
      return answer(res, 400, { error: "invalid_request", error_description: "an actor_token is required" });
    let actor: string | undefined;
    if (actorToken !== null) {
      state.actorTokens.push(actorToken);
      if (form.get("actor_token_type") !== "urn:ietf:params:oauth:token-type:access_token")
        return answer(res, 400, { error: "invalid_request", error_description: "unsupported actor_token_type" });
      try {
        if (state.revokedActors.has(actorToken)) throw new Error("revoked");
        actor = (await jwtVerify(actorToken, publicKey, { issuer, audience: issuer, subject: client })).payload.sub;
      } catch {
        return answer(res, 400, { error: "invalid_grant", error_description: "actor token invalid" });
      }
    }
    const subjectToken = form.get("subject_token") ?? "";
    state.subjectTokens.push(subjectToken);
    const {
      subject_token: _token,
      actor_token: _actor,
      client_assertion: _assertion,
      ...rest
    } = Object.fromEntries(form);
    state.forms.push(rest);
    let subject: string | undefined;
    try {
      subject = (await jwtVerify(subjectToken, endpointKeys, { issuer: endpointIssuer })).payload.sub;
    } catch {
      return answer(res, 400, { error: "invalid_grant", error_description: "subject token invalid" });
    }
    state.exchanges += 1;
    // RFC 8693 section 4.1: a delegation token names the actor.
    const token = await new SignJWT({ scope: form.get("scope") ?? "", ...(actor ? { act: { sub: actor } } : {}) })
      .setProtectedHeader({ alg: "RS256", kid: key.kid })
      .setIssuer(issuer)
      .setSubject(String(subject))
      .setAudience(form.get("audience") ?? BACKEND_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${state.ttl}s`)
      .setJti(crypto.randomUUID())
      .sign(key.privateKey);
    recordSecret("exchanged token", token);
    answer(res, 200, {
      access_token: token,
      issued_token_type: form.get("requested_token_type"),
      token_type: "Bearer",
      expires_in: state.ttl,
    });
  });
  const listening = await listenLocally(server);
  issuer = listening.url;
  const exchange: ExchangeServer = {
    issuer,
    tokenUrl: `${issuer}/token`,
    publicJwk,
    clientKeyPem,
    get exchanges() {
      return state.exchanges;
    },
    get requests() {
      return state.requests;
    },
    subjectTokens: state.subjectTokens,
    forms: state.forms,
    get actorTokensIssued() {
      return state.actorTokensIssued;
    },
    actorTokens: state.actorTokens,
    get requireActor() {
      return state.requireActor;
    },
    set requireActor(required) {
      state.requireActor = required;
    },
    revokedActors: state.revokedActors,
    get mode() {
      return state.mode;
    },
    set mode(mode) {
      state.mode = mode;
    },
    get ttl() {
      return state.ttl;
    },
    set ttl(seconds) {
      state.ttl = seconds;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms) {
      state.delayMs = ms;
    },
    close: listening.close,
  };
  return exchange;
}

export interface CheckingBackend {
  url: string;
  /** Every Authorization header received, in order. */
  authorizations: string[];
  /** Tokens answered with 401 (revoked at the backend). */
  revoked: Set<string>;
  close(): Promise<void>;
}

/**
 * Answers `[{"id":1,"name":"<subject>"}]` to a bearer the exchange server issued for
 * BACKEND_AUDIENCE, and 401 to anything else (a revoked token, the caller's own token).
 */
export async function startCheckingBackend(exchange: ExchangeServer): Promise<CheckingBackend> {
  const publicKey = await importJWK(exchange.publicJwk, "RS256");
  const authorizations: string[] = [];
  const revoked = new Set<string>();
  const server = createServer(async (req, res) => {
    const header = req.headers.authorization ?? "";
    authorizations.push(header);
    const token = /^Bearer (.+)$/.exec(header)?.[1];
    let subject: string | undefined;
    if (token && !revoked.has(token)) {
      try {
        const { payload } = await jwtVerify(token, publicKey, {
          issuer: exchange.issuer,
          audience: BACKEND_AUDIENCE,
        });
        subject = payload.sub;
      } catch {
        subject = undefined;
      }
    }
    res.writeHead(subject ? 200 : 401, { "content-type": "application/json" });
    res.end(JSON.stringify(subject ? [{ id: 1, name: subject }] : { error: "invalid_token" }));
  });
  return { ...(await listenLocally(server)), authorizations, revoked };
}

/** The subject (`sub`) a JWT names, unverified (for assertions on what the backend got). */
export function subjectOf(token: string): string | undefined {
  return decodeJwt(token).sub;
}
