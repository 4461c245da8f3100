/**
 * The official MCP clients run their OWN OAuth flow against an OAuth-protected Exposition and a
 * real authorization server (oidc-provider): the gateway's 401 challenge, Protected Resource
 * Metadata (RFC 9728), authorization-server metadata, client registration (a pre-registered public
 * client, or dynamic registration), an authorization code with PKCE (the login is followed by plain
 * HTTP requests, as a browser would), the token, then `tools/list` and `tools/call`. Both eras use
 * the v2 client (`@modelcontextprotocol/client`): pinned to 2026-07-28 (modern, stateless), and in
 * its default `legacy` negotiation mode, which is the plain 2025 `initialize` handshake with a
 * session. The v1 SDK client (`@modelcontextprotocol/sdk`, 2025 versions) runs the 2025 era too.
 * The token must be bound to the endpoint it was got for.
 */
import { randomBytes } from "node:crypto";
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { UnauthorizedError as V1UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodeJwt } from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { modernRequest, type Stack, startStack, waitFor } from "../testing.ts";
import { PUBLIC_CLIENT_ID, REDIRECT_URI, startAuthorizationServer, type TestAuthorizationServer } from "./testing.ts";

let stack: Stack;
let as: TestAuthorizationServer;
let gateway: Gateway;
let expositionId: string;
/** The endpoint by name, as the client calls it: also its resource URL. */
let endpointUrl: string;

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  expositionId = (
    await stack.expose("sdk-oauth", {
      plan: {
        oauth: { issuer: as.issuer, requiredScopes: ["tools:read"], toolScopes: { createPet: ["tools:write"] } },
      },
    })
  ).expositionId;
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the OAuth Exposition served");
  const organization = gateway.registry.byId(expositionId)?.exposition.organization.name as string;
  endpointUrl = `${gateway.url}/mcp/${organization}/sdk-oauth`;
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await as?.close();
});

/**
 * Follows an authorization URL the way a browser would (redirects one by one, cookies kept)
 * through the authorization server's self-finishing login, up to the redirect back to the client.
 */
async function followLogin(authorizationUrl: URL): Promise<URL> {
  const cookies = new Map<string, string>();
  let next = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`login stopped at ${next.pathname}: ${response.status} ${await response.text()}`);
    await response.body?.cancel();
    next = new URL(location, next);
    if (next.href.startsWith(REDIRECT_URI)) return next;
  }
  throw new Error("login did not come back to the client after 10 redirects");
}

/** An interactive client's OAuth state for one MCP server, kept in memory. */
class InteractiveProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  verifier = "";
  readonly sentState = randomBytes(16).toString("hex");
  authorizationUrl: URL | undefined;
  /** Where the authorization server sent the user back, with `code`, `state` and `iss`. */
  callback: URL | undefined;
  registered = false;
  discovery: OAuthDiscoveryState | undefined;

  constructor(preRegistered: boolean) {
    // Stamped with its issuer, as stored client information is (else the client registers anew).
    if (preRegistered) this.client = { client_id: PUBLIC_CLIENT_ID, issuer: as.issuer };
  }
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "atrium sdk-oauth test",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return this.sentState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: StoredOAuthClientInformation) {
    this.registered = true;
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    this.callback = await followLogin(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept so the client can check the code is redeemed at the server that issued it.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

/** Every request the client made, and the Protected Resource Metadata it read. */
function recordingFetch() {
  const seen = { requests: [] as string[], metadata: undefined as Record<string, unknown> | undefined };
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const response = await fetch(input, init);
    seen.requests.push(`${init?.method ?? "GET"} ${url.pathname} ${response.status}`);
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource") && response.ok)
      seen.metadata = (await response.clone().json()) as Record<string, unknown>;
    return response;
  };
  return { seen, fetch: recording };
}

/** One official client and its transport, as the flow below drives them. */
interface Connection<C, T> {
  client: C;
  transport: T;
  connect(): Promise<void>;
  /** Redeems the code of the login's callback URL. */
  finishAuth(callback: URL): Promise<void>;
  /** The error this client's connect throws when the user must log in first. */
  unauthorized: new (
    ...args: never[]
  ) => Error;
}
type Open<C, T> = (
  provider: InteractiveProvider,
  fetch: ReturnType<typeof recordingFetch>["fetch"],
) => Connection<C, T>;

/** The v2 client with a negotiation mode; it passes the whole callback so that `iss` is checked too. */
const v2 =
  (mode: VersionNegotiationMode, url = endpointUrl): Open<Client, StreamableHTTPClientTransport> =>
  (provider, fetch) => {
    const client = new Client({ name: "sdk-oauth", version: "1.0.0" }, { versionNegotiation: { mode } });
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch });
    return {
      client,
      transport,
      connect: () => client.connect(transport),
      finishAuth: (callback) => transport.finishAuth(callback.searchParams),
      unauthorized: UnauthorizedError,
    };
  };

/** The v1 SDK client (2025 versions only); its `finishAuth` takes the code alone. */
const v1: Open<V1Client, V1Transport> = (provider, fetch) => {
  const client = new V1Client({ name: "sdk-oauth-v1", version: "1.0.0" });
  const transport = new V1Transport(new URL(endpointUrl), { authProvider: provider, fetch });
  return {
    client,
    transport,
    connect: () => client.connect(transport),
    finishAuth: (callback) => transport.finishAuth(callback.searchParams.get("code") as string),
    unauthorized: V1UnauthorizedError,
  };
};

/**
 * The client's whole flow: a first connect refused (401) that sends the user to log in, the
 * code redeemed with `finishAuth`, then a second connect with the token.
 */
async function connectThroughOAuth<C, T>(open: Open<C, T>, preRegistered: boolean) {
  const provider = new InteractiveProvider(preRegistered);
  const { seen, fetch } = recordingFetch();

  const first = open(provider, fetch);
  const refused = await first.connect().catch((error: unknown) => error);
  expect(refused, String(refused)).toBeInstanceOf(first.unauthorized);
  const callback = provider.callback as URL;
  expect(callback, "the login came back with a code").toBeDefined();
  expect(callback.searchParams.get("state")).toBe(provider.sentState);
  expect(callback.searchParams.get("code")).toBeTruthy();
  await first.finishAuth(callback);

  const connected = open(provider, fetch);
  await connected.connect();
  return { client: connected.client, transport: connected.transport, provider, seen };
}

/** The checks every era shares: discovery went through the gateway's metadata, and the token is the endpoint's. */
function expectTokenBoundToEndpoint(
  provider: InteractiveProvider,
  seen: ReturnType<typeof recordingFetch>["seen"],
  url = endpointUrl,
) {
  const endpointPath = new URL(url).pathname;
  expect(seen.requests[0]).toBe(`POST ${endpointPath} 401`);
  expect(seen.requests).toContain(`GET /.well-known/oauth-protected-resource${endpointPath} 200`);
  // The metadata the client validated names the URL it called, and the issuer it then used.
  expect(seen.metadata?.resource).toBe(url);
  expect(seen.metadata?.authorization_servers).toEqual([as.issuer]);
  expect(provider.authorizationUrl?.origin).toBe(as.issuer);
  expect(provider.authorizationUrl?.searchParams.get("resource")).toBe(url);
  expect(provider.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
  const token = provider.saved?.access_token as string;
  const claims = decodeJwt(token);
  expect(claims.iss).toBe(as.issuer);
  expect(claims.sub).toBe("alice");
  expect([claims.aud].flat()).toEqual([url]);
  expect(String(claims.scope).split(" ")).toContain("tools:read");
  return token;
}

/** What both official clients offer for tools (their result types differ in details). */
interface ToolsClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function expectToolsServed(client: ToolsClient) {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain("getPet");
  const result = await client.callTool({ name: "getPet", arguments: { petId: 1 } });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ id: 1, name: "Rex" });
}

describe("the official clients' own OAuth flow", () => {
  it("modern era (pinned to 2026-07-28), pre-registered public client", async () => {
    const { client, transport, provider, seen } = await connectThroughOAuth(v2({ pin: "2026-07-28" }), true);
    expect(client.getProtocolEra()).toBe("modern");
    expect(provider.registered).toBe(false);
    const token = expectTokenBoundToEndpoint(provider, seen);
    await expectToolsServed(client);

    // Step-up (per-tool scope): the first token lacks tools:write, so createPet is hidden and its
    // call refused with insufficient_scope; the client asks the user for the wider scope itself.
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("createPet");
    const firstLogin = provider.callback;
    const stepUp = await client
      .callTool({ name: "createPet", arguments: { body: { name: "Nemo" } } })
      .catch((error: unknown) => error);
    expect(stepUp, String(stepUp)).toBeInstanceOf(UnauthorizedError);
    expect(provider.callback).not.toBe(firstLogin);
    expect(provider.authorizationUrl?.searchParams.get("scope")?.split(" ")).toContain("tools:write");
    await transport.finishAuth((provider.callback as URL).searchParams);
    expect(String(decodeJwt(provider.saved?.access_token as string).scope).split(" ")).toContain("tools:write");
    const created = await client.callTool({ name: "createPet", arguments: { body: { name: "Nemo" } } });
    expect(created.isError, JSON.stringify(created)).toBeFalsy();
    await client.close();

    // Bound to the endpoint: the same token at the Exposition's other address (by id) is
    // another resource, and is refused.
    const elsewhere = await request(
      `${gateway.url}/mcp/${expositionId}`,
      modernRequest("tools/list", {}, { client: "raw", headers: { authorization: `Bearer ${token}` } }),
    );
    await elsewhere.body.text();
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.headers["www-authenticate"]).toContain('error="invalid_token"');
  });

  it("2025 era (legacy initialize, a session), dynamically registered client", async () => {
    const { client, transport, provider, seen } = await connectThroughOAuth(v2("legacy"), false);
    expect(client.getProtocolEra()).toBe("legacy");
    expect(transport.sessionId).toBeTruthy();
    expect(provider.registered).toBe(true);
    expect(provider.client?.client_id).not.toBe(PUBLIC_CLIENT_ID);
    expect(seen.requests.some((line) => line.startsWith("POST /reg 201"))).toBe(true);
    expectTokenBoundToEndpoint(provider, seen);
    await expectToolsServed(client);

    // The access token expires mid-session (past the 60 s tolerance): the gateway answers 401
    // invalid_token, the client refreshes it with its refresh token, and the session goes on,
    // being the same user's.
    const saved = provider.saved as StoredOAuthTokens;
    expect(saved.refresh_token, "a refresh token (offline_access)").toBeTruthy();
    const sessionId = transport.sessionId;
    const expired = await as.mint({ aud: endpointUrl, exp: Math.floor(Date.now() / 1000) - 120 });
    provider.saved = { ...saved, access_token: expired };
    await expectToolsServed(client);
    // One 401 at the first connect, one for the expired token.
    const refusedCalls = seen.requests.filter((line) => line === `POST ${new URL(endpointUrl).pathname} 401`);
    expect(refusedCalls).toHaveLength(2);
    expect(seen.requests.filter((line) => line.startsWith("POST /token 200"))).toHaveLength(2);
    expect(provider.saved?.access_token).not.toBe(expired);
    expect(decodeJwt(provider.saved?.access_token as string).exp).toBeGreaterThan(Date.now() / 1000);
    expect(transport.sessionId).toBe(sessionId);
    await client.close();
  });

  it("modern era at the endpoint's other address (by id): its own metadata, resource and token", async () => {
    const byIdUrl = `${gateway.url}/mcp/${expositionId}`;
    const { client, provider, seen } = await connectThroughOAuth(v2({ pin: "2026-07-28" }, byIdUrl), false);
    expectTokenBoundToEndpoint(provider, seen, byIdUrl);
    await expectToolsServed(client);
    await client.close();
  });

  it("2025 era with the v1 SDK client (2025-11-25, a session), pre-registered public client", async () => {
    const { client, transport, provider, seen } = await connectThroughOAuth(v1, true);
    expect(transport.sessionId).toBeTruthy();
    expect(client.getServerVersion()?.name).toBeTruthy();
    expectTokenBoundToEndpoint(provider, seen);
    await expectToolsServed(client);
    await client.close();
  });
});
