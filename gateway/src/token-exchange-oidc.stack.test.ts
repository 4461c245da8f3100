/**
 * Token exchange (RFC 8693) with oidc-provider as both authorization servers: it issues the
 * callers' tokens for the MCP endpoint, and its registered token-exchange grant issues their
 * backend tokens, the gateway a confidential client (client_secret_basic) of it, its token
 * endpoint found through the issuer's metadata. The
 * server rotates its signing key in the middle: tokens signed before keep working, a caller
 * whose token is signed with the new key is exchanged for one signed with it too, and both the
 * gateway (checking the caller's token) and the backend (checking the exchanged one) fetch the
 * new key. The backend accepts only that server's tokens for its own audience, and never sees a
 * caller's own token.
 */
import { createServer } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXCHANGE_CLIENT, signingKey, startAuthorizationServer, type TestAuthorizationServer } from "./auth/testing.ts";
import type { Gateway } from "./gateway.ts";
import { listenLocally, type Stack, startStack, waitFor } from "./testing.ts";

const MCP_AUDIENCE = "atrium-exchange-oidc";
let stack: Stack;
let as: TestAuthorizationServer;
let gateway: Gateway;
let expositionId = "";
let backend: Awaited<ReturnType<typeof startBackend>>;

/** Accepts only the server's tokens for its own URL; records each call's subject, key and token. */
async function startBackend(issuer: string) {
  // No cooldown: a new kid is fetched at once (a real backend waits jose's 30 s at most).
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`), { cooldownDuration: 0 });
  const calls: { sub: string; kid: string | undefined; token: string }[] = [];
  const started = await listenLocally(
    createServer(async (req, res) => {
      req.resume();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      try {
        const { payload } = await jwtVerify(token, keys, { issuer, audience: started.url });
        calls.push({ sub: String(payload.sub), kid: decodeProtectedHeader(token).kid, token });
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify([{ id: 1, name: "Rex" }]));
      } catch {
        res.writeHead(401, { "content-type": "application/json" }).end('{"message":"not a token for me"}');
      }
    }),
  );
  return { ...started, calls };
}

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  backend = await startBackend(as.issuer);
  const secret = await stack.controlPlane.admin.call("POST", "/api/v1/secrets", {
    name: "exchange-client",
    value: EXCHANGE_CLIENT.secret,
  });
  expositionId = (
    await stack.expose("exchanged", {
      plan: {
        backendEndpoint: backend.url,
        oauth: { issuer: as.issuer, audience: MCP_AUDIENCE },
        backendSecret: {
          tokenExchange: {
            issuer: as.issuer,
            clientId: EXCHANGE_CLIENT.id,
            clientSecret: { secretId: secret.body.id },
            audience: backend.url,
            scopes: ["tools:read"],
          },
        },
      },
    })
  ).expositionId;
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the exchanged Exposition served");
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await backend?.close();
  await as?.close();
});

/** One 2026-07-28 call of `listPets` as `sub`, with the token it was made with. */
async function callAs(sub: string) {
  const token = await as.mint({ sub, aud: MCP_AUDIENCE });
  const client = new Client(
    { name: "exchange-test", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp/${expositionId}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return { token, result: await client.callTool({ name: "listPets", arguments: {} }) };
  } finally {
    await client.close();
  }
}

describe("token exchange at oidc-provider's registered RFC 8693 grant", () => {
  it("reaches the backend as each caller with an exchanged token, across a rotation of the server's keys", async () => {
    const before = as.exchanges;
    const alice = await callAs("xo-alice");
    expect(alice.result.isError, JSON.stringify(alice.result.content)).toBeFalsy();
    expect(backend.calls.at(-1)).toMatchObject({ sub: "xo-alice", kid: "key-1" });
    expect(backend.calls.at(-1)?.token).not.toBe(alice.token);
    expect(as.exchanges).toBe(before + 1);

    await as.rotate(await signingKey("key-2"));
    // The gateway's cooldown between key-set fetches is 1 s in tests.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Alice's exchanged token was signed with the old key: still valid, still cached.
    const again = await callAs("xo-alice");
    expect(again.result.isError).toBeFalsy();
    expect(backend.calls.at(-1)).toMatchObject({ sub: "xo-alice", kid: "key-1" });
    // Bob's own token is signed with the new key, and so is his exchanged one.
    const bob = await callAs("xo-bob");
    expect(bob.result.isError, JSON.stringify(bob.result.content)).toBeFalsy();
    expect(backend.calls.at(-1)).toMatchObject({ sub: "xo-bob", kid: "key-2" });
    expect(backend.calls.map((call) => call.token)).not.toContain(bob.token);
    expect(as.exchanges).toBe(before + 2);
  });
});
