/**
 * The sign-in's checks of what the authorization server answers, against a hostile one: a real
 * HTTP server publishing metadata and a token endpoint that returns whatever ID token the test
 * signs (with oidc-provider's test keys, published at its JWKS). The PKCE verifier sent is the one
 * the challenge was made from; an ID token with another nonce, audience, issuer or `azp`, expired,
 * or not signed by a key the issuer publishes is refused, as is a token endpoint's error.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IssuerKeys } from "../auth/issuer-keys.ts";
import { signingKey, startAuthorizationServer, type TestAuthorizationServer } from "../auth/testing.ts";
import { listenLocally } from "../testing.ts";
import { ClusterKeyring } from "./cluster-keys.ts";
import { newElicitationId } from "./elicitation-id.ts";
import { BINDING_COOKIE, ElicitationSignIn, type SignInSettings } from "./sign-in.ts";

const CLIENT_ID = "atrium-page";
let as: TestAuthorizationServer;
let hostile: { url: string; close(): Promise<void> };
/** What the hostile token endpoint answers next, and the forms it received. */
const next: { status: number; body: Record<string, unknown> } = { status: 200, body: {} };
const received: URLSearchParams[] = [];
let settings: SignInSettings;

beforeAll(async () => {
  as = await startAuthorizationServer();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/.well-known/oauth-authorization-server") {
        res.end(
          JSON.stringify({
            issuer: hostile.url,
            authorization_endpoint: `${hostile.url}/authorize`,
            token_endpoint: `${hostile.url}/token`,
          }),
        );
        return;
      }
      received.push(new URLSearchParams(body));
      res.statusCode = next.status;
      res.end(JSON.stringify(next.body));
    });
  });
  hostile = await listenLocally(server);
  settings = { issuer: hostile.url, jwksUri: as.jwksUri, clientId: CLIENT_ID };
});

afterAll(async () => {
  await hostile?.close();
  await as?.close();
});

const signIn = () =>
  new ElicitationSignIn(
    new ClusterKeyring([randomBytes(32)]),
    (issuer, jwksUri) => new IssuerKeys(issuer, jwksUri, { cooldownMs: 0, maxAgeMs: 60_000, timeoutMs: 5_000 }),
  );

/** Just what the sign-in reads of a request and writes to a reply. */
function exchange(cookie = "") {
  const headers: Record<string, unknown> = {};
  const request = {
    headers: { host: "gateway.example", cookie },
    protocol: "http",
    log: { warn: () => undefined },
  } as unknown as FastifyRequest;
  const reply = {
    header: (name: string, value: unknown) => {
      headers[name] = value;
    },
  } as unknown as FastifyReply;
  return { request, reply, headers };
}

/** Starts a sign-in and comes back with a code; the ID token the hostile server then returns has `claims`. */
async function finishWith(claims: JWTPayload, options: { foreignKey?: boolean } = {}) {
  const flow = signIn();
  const started = exchange();
  const authorize = new URL(await flow.start(started.request, started.reply, newElicitationId(), settings));
  const binding = String(started.headers["set-cookie"]).split(";")[0] as string;
  expect(binding.startsWith(`${BINDING_COOKIE}=`)).toBe(true);
  const back = exchange(binding);
  const opened = flow.openState(back.request, authorize.searchParams.get("state"));
  if (!opened.ok) throw new Error(`state refused: ${opened.refusal}`);
  next.status = 200;
  next.body = {
    id_token: await as.mint(
      { iss: hostile.url, aud: CLIENT_ID, nonce: authorize.searchParams.get("nonce"), ...claims },
      options.foreignKey ? { key: await signingKey("key-1") } : {},
    ),
  };
  const outcome = await flow.finish(back.request, { code: "the-code" }, opened.state, settings);
  return { outcome, authorize, form: received.at(-1) as URLSearchParams };
}

describe("the sign-in's checks of the authorization server's answers", () => {
  it("sends the PKCE verifier of the challenge, the code and the redirect URI; a valid ID token signs its subject in", async () => {
    const { outcome, authorize, form } = await finishWith({ sub: "alice" });
    expect(outcome).toEqual({ ok: true, user: { iss: hostile.url, sub: "alice" } });
    const verifier = form.get("code_verifier") as string;
    expect(createHash("sha256").update(verifier).digest("base64url")).toBe(
      authorize.searchParams.get("code_challenge"),
    );
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: "authorization_code",
      code: "the-code",
      client_id: CLIENT_ID,
      redirect_uri: "http://gateway.example/elicitations/callback",
    });
    expect(form.has("client_secret")).toBe(false);
  });

  it.each([
    ["another nonce", { sub: "alice", nonce: "replayed" }],
    ["another audience", { sub: "alice", aud: "another-client" }],
    ["another issuer", { sub: "alice", iss: "https://elsewhere.example" }],
    ["another azp", { sub: "alice", aud: [CLIENT_ID, "another-client"], azp: "another-client" }],
    ["an expiry passed", { sub: "alice", exp: Math.floor(Date.now() / 1000) - 3600 }],
  ])("refuses an ID token with %s", async (_name, claims) => {
    const { outcome } = await finishWith(claims as JWTPayload);
    expect(outcome).toMatchObject({ ok: false, refusal: "token" });
  });

  it("refuses an ID token signed with a key the issuer does not publish", async () => {
    const { outcome } = await finishWith({ sub: "alice" }, { foreignKey: true });
    expect(outcome).toMatchObject({ ok: false, refusal: "token" });
  });

  it("refuses a token endpoint's error, and an answer without an ID token", async () => {
    const flow = signIn();
    const started = exchange();
    const authorize = new URL(await flow.start(started.request, started.reply, newElicitationId(), settings));
    const back = exchange(String(started.headers["set-cookie"]).split(";")[0]);
    const opened = flow.openState(back.request, authorize.searchParams.get("state"));
    if (!opened.ok) throw new Error("state refused");
    next.status = 400;
    next.body = { error: "invalid_grant" };
    expect(await flow.finish(back.request, { code: "c" }, opened.state, settings)).toMatchObject({
      refusal: "unreachable",
    });
    next.status = 200;
    next.body = { access_token: "only-an-access-token" };
    expect(await flow.finish(back.request, { code: "c" }, opened.state, settings)).toMatchObject({
      refusal: "unreachable",
    });
  });

  it("a state past its expiry is refused, naming its elicitation for a new sign-in", async () => {
    const keyring = new ClusterKeyring([randomBytes(32)]);
    const flow = new ElicitationSignIn(keyring, () => {
      throw new Error("not asked: the state is refused first");
    });
    const id = newElicitationId();
    const binding = randomBytes(32).toString("base64url");
    const past = { i: id, v: "v", n: "n", b: binding, x: Math.floor(Date.now() / 1000) - 1 };
    const state = keyring.seal("sign-in-state", Buffer.from(JSON.stringify(past)), "");
    expect(flow.openState(exchange(`${BINDING_COOKIE}=${binding}`).request, state)).toEqual({
      ok: false,
      refusal: "expired",
      id,
    });
  });

  it("a state opens only with this cluster's key, in the browser that started it", async () => {
    const flow = signIn();
    const started = exchange();
    const authorize = new URL(await flow.start(started.request, started.reply, newElicitationId(), settings));
    const state = authorize.searchParams.get("state");
    expect(signIn().openState(exchange().request, state)).toMatchObject({ refusal: "state" });
    expect(flow.openState(exchange(`${BINDING_COOKIE}=${"A".repeat(43)}`).request, state)).toMatchObject({
      refusal: "browser",
    });
  });
});
