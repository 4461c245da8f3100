/**
 * Each user's own OAuth grant at the backend (`backendSecret.oauth2AuthorizationCode`) with real
 * parts: a control plane (PGlite), two gateway replicas sharing a cluster key, oidc-provider as
 * both the endpoint's authorization server and the backend's (authorization code + PKCE with
 * refresh tokens and RFC 7009 revocation; the gateway a confidential client whose secret is a
 * stored secret), real Chromium for the user's authorization, and the official MCP clients in
 * both eras. The backend accepts only a JWT of that server for its own audience and records whose
 * it is: each call carries the calling user's own token, never the inbound one.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { AUTHORIZATION_CALLBACK_PATH } from "@atrium/crds";
import { recordSecret } from "@atrium/reliability/secrets";
import { useBrowser } from "@atrium/test-browser";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/testing.ts";
import type { Gateway } from "../gateway.ts";
import { listenLocally, type Stack, startStack, waitFor } from "../testing.ts";

const AUDIENCE = "grant-test";
/** Access tokens live 62 s: the gateway refreshes a token 60 s before it expires, so after 2 s. */
const ACCESS_TOKEN_TTL_SECONDS = 62;
const browser = useBrowser();
let stack: Stack;
let as: TestAuthorizationServer;
let gateways: Gateway[] = [];
let expositionId = "";
let backend: Awaited<ReturnType<typeof startBackend>>;

/** A backend accepting only the authorization server's JWTs for its own URL; it records each caller. */
async function startBackend(issuer: string) {
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const calls: { sub: string; token: string }[] = [];
  const refused = new Set<string>();
  const server = createServer(async (req, res) => {
    req.resume();
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (!token) return json(401, { message: "no token" });
    try {
      const { payload } = await jwtVerify(token, keys, { issuer, audience: started.url });
      const sub = String(payload.sub);
      calls.push({ sub, token });
      if (refused.has(sub)) return json(401, { message: "revoked here" });
      return json(200, [{ id: 1, name: `pet of ${sub}` }]);
    } catch {
      return json(401, { message: "not a token for this backend" });
    }
  });
  const started = await listenLocally(server);
  return { ...started, calls, refused };
}

/** The gateway's client at the authorization server: confidential, code + refresh, both replicas' callbacks. */
async function registerGatewayClient(redirectUris: string[]): Promise<{ id: string; secret: string }> {
  const response = await fetch(`${as.issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: redirectUris,
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  const body = (await response.json()) as { client_id?: string; client_secret?: string; error_description?: string };
  if (!body.client_id || !body.client_secret) throw new Error(`registration refused: ${body.error_description}`);
  recordSecret("backend OAuth client secret", body.client_secret);
  return { id: body.client_id, secret: body.client_secret };
}

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer({ accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS });
  backend = await startBackend(as.issuer);
  const clusterKey = randomBytes(32);
  gateways = [await stack.startGateway({ clusterKey }), await stack.startGateway({ clusterKey })];
  const client = await registerGatewayClient(gateways.map((gateway) => `${gateway.url}${AUTHORIZATION_CALLBACK_PATH}`));
  const secret = await stack.controlPlane.admin.call("POST", "/api/v1/secrets", {
    name: "backend-client",
    value: client.secret,
  });
  expositionId = (
    await stack.expose("granted", {
      plan: {
        backendEndpoint: backend.url,
        oauth: { issuer: as.issuer, audience: AUDIENCE },
        backendSecret: {
          oauth2AuthorizationCode: {
            issuer: as.issuer,
            clientId: client.id,
            clientSecret: { secretId: secret.body.id },
            scopes: ["tools:read"],
            resource: backend.url,
            description: "Let the pet store act for you",
          },
        },
      },
    })
  ).expositionId;
  for (const gateway of gateways)
    await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the granted Exposition served");
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await backend?.close();
  await as?.close();
});

const endpoint = (gateway: Gateway) => new URL(`${gateway.url}/mcp/${expositionId}`);
const withToken = async (sub: string) => ({
  requestInit: { headers: { authorization: `Bearer ${await as.mint({ sub, aud: AUDIENCE })}` } },
});

/** In Chromium: the page's URL → the authorization server (signed in as `sub`) → back, authorized. */
async function authorizeInBrowser(url: string, sub: string) {
  as.loginAs = sub;
  const page = await browser.page();
  const visited: string[] = [];
  page.on("request", (sent) => {
    if (sent.isNavigationRequest()) visited.push(sent.url());
  });
  const shown = await page.goto(url);
  expect(shown?.status()).toBe(200);
  await page.getByRole("heading", { name: "Authorized" }).waitFor();
  return { page, visited };
}

/** A 2026-07-28 client of `sub` that authorizes in Chromium when asked. */
async function modernClient(sub: string, gateway: Gateway, onAsked?: (url: string) => Promise<void>) {
  const client = new V2Client(
    { name: "grant-test", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { url: {} } } },
  );
  let asked = 0;
  client.setRequestHandler("elicitation/create", async (request) => {
    if (request.params.mode !== "url") throw new Error("expected URL mode");
    asked += 1;
    expect(request.params.message).toBe("Let the pet store act for you");
    await (onAsked ?? ((url: string) => authorizeInBrowser(url, sub).then(() => undefined)))(request.params.url);
    return { action: "accept" };
  });
  await client.connect(new V2Transport(endpoint(gateway), await withToken(sub)));
  return { client, asked: () => asked };
}

describe("each user's own grant at the backend (oauth2AuthorizationCode)", () => {
  it("2026-07-28: the user authorizes in Chromium, the retried call carries their own token; a second user gets theirs", async () => {
    const [first] = gateways as [Gateway];
    let redirect: URL | undefined;
    const alice = await modernClient("grant-alice", first, async (url) => {
      const { visited } = await authorizeInBrowser(url, "grant-alice");
      redirect = new URL(visited.find((at) => at.startsWith(`${as.issuer}/auth`)) as string);
      expect(visited.some((at) => at.startsWith(`${first.url}${AUTHORIZATION_CALLBACK_PATH}?code=`))).toBe(true);
    });
    const result = await alice.client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(alice.asked()).toBe(1);
    expect(JSON.stringify(result.content)).toContain("pet of grant-alice");
    expect(backend.calls.at(-1)?.sub).toBe("grant-alice");
    // The authorization request: code + PKCE S256, the exact callback, the plan's scope and resource.
    expect(Object.fromEntries(redirect?.searchParams ?? [])).toMatchObject({
      response_type: "code",
      redirect_uri: `${first.url}${AUTHORIZATION_CALLBACK_PATH}`,
      code_challenge_method: "S256",
      scope: "tools:read",
      resource: backend.url,
    });
    expect(redirect?.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const bob = await modernClient("grant-bob", first);
    expect((await bob.client.callTool({ name: "listPets", arguments: {} })).isError).toBeFalsy();
    expect(backend.calls.at(-1)?.sub).toBe("grant-bob");
    // Alice's next call needs nothing more, and still goes as Alice.
    await alice.client.callTool({ name: "listPets", arguments: {} });
    expect(alice.asked()).toBe(1);
    expect(backend.calls.at(-1)?.sub).toBe("grant-alice");
    await Promise.all([alice.client.close(), bob.client.close()]);
  });

  it("a grant obtained through one replica is used by the other, and refreshed silently when it expires", async () => {
    const [first, second] = gateways as [Gateway, Gateway];
    const carol = await modernClient("grant-carol", first);
    await carol.client.callTool({ name: "listPets", arguments: {} });
    const firstToken = backend.calls.at(-1)?.token;
    const other = await modernClient("grant-carol", second);
    expect((await other.client.callTool({ name: "listPets", arguments: {} })).isError).toBeFalsy();
    expect(other.asked()).toBe(0);
    expect(backend.calls.at(-1)).toEqual({ sub: "grant-carol", token: firstToken });

    // Past the refresh margin: a new access token, from the refresh token, with no question asked.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await other.client.callTool({ name: "listPets", arguments: {} })).isError).toBeFalsy();
    const refreshed = backend.calls.at(-1);
    expect(refreshed?.sub).toBe("grant-carol");
    expect(refreshed?.token).not.toBe(firstToken);
    // The refreshed grant was stored: the first replica sends it too (after its cache's lifetime at most).
    await waitFor(async () => {
      await carol.client.callTool({ name: "listPets", arguments: {} });
      return backend.calls.at(-1)?.token !== firstToken;
    }, "the refreshed grant used by the other replica");
    expect(carol.asked() + other.asked()).toBe(1);
    await Promise.all([carol.client.close(), other.client.close()]);
  });

  it("2025: -32042 names the page; a backend 401 forgets the grant, and the user is asked again", async () => {
    const [first] = gateways as [Gateway];
    const client = new V1Client({ name: "grant-test", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(new V1Transport(endpoint(first), await withToken("grant-dave")));
    const asked = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(asked).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (asked as UrlElicitationRequiredError).elicitations;
    expect(elicitation?.message).toBe("Let the pet store act for you");
    await authorizeInBrowser(elicitation?.url as string, "grant-dave");
    expect((await client.callTool({ name: "listPets", arguments: {} })).isError).toBeFalsy();
    expect(backend.calls.at(-1)?.sub).toBe("grant-dave");

    backend.refused.add("grant-dave");
    const refused = await client.callTool({ name: "listPets", arguments: {} });
    expect(refused).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: expect.stringContaining("refused your authorization (HTTP 401): it was forgotten") },
      ],
    });
    backend.refused.delete("grant-dave");
    const again = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(UrlElicitationRequiredError);
    await client.close();
  });

  it("the user revokes the grant from the page: forgotten, and revoked at the authorization server (RFC 7009)", async () => {
    const [first] = gateways as [Gateway];
    let authorized: Awaited<ReturnType<typeof authorizeInBrowser>> | undefined;
    const erin = await modernClient("grant-erin", first, async (url) => {
      authorized = await authorizeInBrowser(url, "grant-erin");
    });
    expect((await erin.client.callTool({ name: "listPets", arguments: {} })).isError).toBeFalsy();
    const revocations = as.revocations;
    const page = authorized?.page;
    await page?.getByRole("button", { name: "Remove my stored credential" }).click();
    await page?.getByRole("heading", { name: "Credential removed" }).waitFor();
    expect(as.revocations).toBe(revocations + 1);
    // Asked again on the next call (authorized once more in the browser).
    await erin.client.callTool({ name: "listPets", arguments: {} });
    expect(erin.asked()).toBe(2);
    await erin.client.close();
  });

  it("a callback with a tampered state, or from another browser, stores nothing", async () => {
    const [first] = gateways as [Gateway];
    const client = new V1Client({ name: "grant-test", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(new V1Transport(endpoint(first), await withToken("grant-frank")));
    const asked = (await client
      .callTool({ name: "listPets", arguments: {} })
      .catch((error: unknown) => error)) as UrlElicitationRequiredError;
    const page = await request(asked.elicitations[0]?.url as string);
    await page.body.dump();
    expect(page.statusCode).toBe(303);
    const authorize = new URL(String(page.headers.location));
    expect(authorize.origin).toBe(as.issuer);
    const state = authorize.searchParams.get("state") as string;
    const cookie = String(page.headers["set-cookie"]).split(";")[0] as string;
    const callback = async (query: Record<string, string>, headers: Record<string, string> = {}) => {
      const answer = await request(`${first.url}${AUTHORIZATION_CALLBACK_PATH}?${new URLSearchParams(query)}`, {
        headers,
      });
      return { status: answer.statusCode, text: await answer.body.text() };
    };
    const flipped = `${state.slice(0, -2)}${state.at(-2) === "A" ? "B" : "A"}${state.at(-1)}`;
    expect(await callback({ code: "any", state: flipped }, { cookie })).toMatchObject({
      status: 400,
      text: expect.stringContaining("could not be checked"),
    });
    expect(await callback({ code: "any", state })).toMatchObject({
      status: 400,
      text: expect.stringContaining("started in another browser"),
    });
    expect((await callback({ error: "access_denied", state }, { cookie })).status).toBe(403);
    const still = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(still).toBeInstanceOf(UrlElicitationRequiredError);
    await client.close();
  });
});
