/**
 * The backend's authorization server of the token-exchange contestant: a minimal RFC 8693 token
 * endpoint, `POST /token`, served by `node:http` on 127.0.0.1 in the runner's process (the
 * harness core), beside the OAuth contestant's issuer (oauth-issuer.ts). It authenticates the
 * gateway as a confidential client (client_secret_basic), checks the grant and token types,
 * verifies the subject token with the issuer's own key (in process: no key-set fetch), and
 * answers an RS256 JWT for the same subject and the backend's audience, valid for the whole run.
 * It counts the exchanges it answered, so the run can tell that the steady state exchanged
 * nothing and that each new caller was exchanged once.
 *
 * Not gateway/src/token-exchange-testing.ts: that one imports the gateway's test support (a
 * whole test stack), and fetches the issuer's key set, which the first-call timings count.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { recordSecret } from "@atrium/reliability/secrets";
import { generateKeyPair, SignJWT } from "jose";
import type { BenchIssuer } from "./oauth-issuer.ts";

const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const TOKEN_PATH = "/token";
/** As long as the callers' tokens (oauth-issuer.ts): the gateway keeps the result for the whole run. */
const TOKEN_LIFETIME_SECONDS = 4 * 3600;

/** The gateway's client at this server; the secret is stored in the control plane like any backend secret. */
export const EXCHANGE_CLIENT = { id: "atrium-bench", secret: "bench-token-exchange-client-secret" };
/** The audience the exchanged tokens are for (the plan's `tokenExchange.audience`). */
export const EXCHANGE_AUDIENCE = "https://pets.bench.backend";

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}

function clientOf(request: IncomingMessage): string | undefined {
  const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  if (!basic) return undefined;
  const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent);
  return id === EXCHANGE_CLIENT.id && secret === EXCHANGE_CLIENT.secret ? id : undefined;
}

export class BenchExchangeServer {
  /** The plan's `tokenExchange.tokenUrl`. */
  readonly tokenUrl: string;
  private readonly server: Server;
  private answered = 0;
  private refused = 0;

  private constructor(server: Server) {
    const { port } = server.address() as AddressInfo;
    this.tokenUrl = `http://127.0.0.1:${port}${TOKEN_PATH}`;
    this.server = server;
  }

  /** A token endpoint exchanging the access tokens `issuer` minted. */
  static async start(issuer: BenchIssuer): Promise<BenchExchangeServer> {
    recordSecret("bench token exchange client secret", EXCHANGE_CLIENT.secret);
    const { privateKey } = await generateKeyPair("RS256");
    let exchange: BenchExchangeServer | undefined;
    const server = createServer((request, response) => {
      if (request.method !== "POST" || request.url !== TOKEN_PATH) {
        request.resume();
        answer(response, 404, { error: "not_found" });
        return;
      }
      void readBody(request)
        .then((body) => exchangeOne(issuer, privateKey, request, new URLSearchParams(body)))
        .then(
          ([status, body]) => {
            if (exchange) {
              if (status === 200) exchange.answered += 1;
              else exchange.refused += 1;
            }
            answer(response, status, body);
          },
          () => answer(response, 500, { error: "server_error" }),
        );
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    exchange = new BenchExchangeServer(server);
    return exchange;
  }

  /** Exchanges answered with a token so far. */
  get exchanges(): number {
    return this.answered;
  }

  /** Requests refused so far (none is right). */
  get refusals(): number {
    return this.refused;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** One request to the token endpoint: its status and JSON answer. */
async function exchangeOne(
  issuer: BenchIssuer,
  key: SigningKey,
  request: IncomingMessage,
  form: URLSearchParams,
): Promise<[number, unknown]> {
  if (!clientOf(request)) return [401, { error: "invalid_client" }];
  if (form.get("grant_type") !== GRANT_TYPE) return [400, { error: "unsupported_grant_type" }];
  if (form.get("subject_token_type") !== ACCESS_TOKEN_TYPE) return [400, { error: "invalid_request" }];
  let subject: string | undefined;
  try {
    subject = (await issuer.verify(form.get("subject_token") ?? "")).sub;
  } catch {
    return [400, { error: "invalid_grant", error_description: "subject token invalid" }];
  }
  if (!subject) return [400, { error: "invalid_grant", error_description: "subject token without sub" }];
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ scope: form.get("scope") ?? "" })
    .setProtectedHeader({ alg: "RS256", kid: "bench-exchange-1", typ: "at+jwt" })
    .setIssuer(new URL(TOKEN_PATH, `http://${request.headers.host}`).origin)
    .setSubject(subject)
    .setAudience(form.get("audience") ?? EXCHANGE_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
    .sign(key);
  return [
    200,
    {
      access_token: token,
      issued_token_type: form.get("requested_token_type") ?? ACCESS_TOKEN_TYPE,
      token_type: "Bearer",
      expires_in: TOKEN_LIFETIME_SECONDS,
    },
  ];
}
