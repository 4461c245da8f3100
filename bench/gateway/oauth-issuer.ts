/**
 * The authorization server of the OAuth contestant, as small as the gateway lets it be: an RS256
 * key pair made with jose, its public half served as a JWKS by a `node:http` server on
 * 127.0.0.1 (in the runner's process, on the harness core), and access tokens minted with jose's
 * `SignJWT` (iss, aud, sub, exp, scope; a `jti` each, so no two tokens are alike). It counts the
 * key-set fetches, so the first-call timings can tell a cold gateway from a warm one. The token-exchange
 * endpoint (token-exchange-server.ts) checks its subject tokens with `verify`, in process, so its
 * checks never count as key-set fetches.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, jwtVerify, SignJWT } from "jose";

const KEY_ID = "bench-1";
const JWKS_PATH = "/jwks.json";
/** Long enough for a whole run: the hot path reuses one token, as a client would until it expires. */
const TOKEN_LIFETIME_SECONDS = 4 * 3600;

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface TokenClaims {
  audience: string;
  scope: string;
  subject?: string;
}

export class BenchIssuer {
  /** `iss` of the tokens, and the plan's `oauth.issuer`. */
  readonly issuer: string;
  readonly jwksUri: string;
  private readonly server: Server;
  private readonly keys: KeyPair;
  private fetches = 0;

  private constructor(server: Server, keys: KeyPair) {
    const { port } = server.address() as AddressInfo;
    this.issuer = `http://127.0.0.1:${port}`;
    this.jwksUri = `${this.issuer}${JWKS_PATH}`;
    this.server = server;
    this.keys = keys;
  }

  static async start(): Promise<BenchIssuer> {
    const keys = await generateKeyPair("RS256", { extractable: true });
    const jwks = JSON.stringify({
      keys: [{ ...(await exportJWK(keys.publicKey)), kid: KEY_ID, alg: "RS256", use: "sig" }],
    });
    let issuer: BenchIssuer | undefined;
    const server = createServer((request, response) => {
      if (request.method !== "GET" || request.url !== JWKS_PATH) {
        response.writeHead(404).end();
        return;
      }
      if (issuer) issuer.fetches += 1;
      response.writeHead(200, { "content-type": "application/json" }).end(jwks);
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    issuer = new BenchIssuer(server, keys);
    return issuer;
  }

  /** How many times the key set was fetched so far. */
  get jwksFetches(): number {
    return this.fetches;
  }

  /** A signed access token for `claims`, valid for the whole run. */
  mint(claims: TokenClaims): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: claims.scope })
      .setProtectedHeader({ alg: "RS256", kid: KEY_ID, typ: "at+jwt" })
      .setIssuer(this.issuer)
      .setAudience(claims.audience)
      .setSubject(claims.subject ?? "bench-client")
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .sign(this.keys.privateKey);
  }

  /** The claims of `token` if this issuer signed it and it has not expired; throws otherwise. */
  async verify(token: string): Promise<JWTPayload> {
    return (await jwtVerify(token, this.keys.publicKey, { issuer: this.issuer })).payload;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
