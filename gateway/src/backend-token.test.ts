/**
 * Backend OAuth 2.0 client credentials with real parts: oidc-provider on 127.0.0.1 issuing JWT
 * access tokens for a resource indicator (client_secret_basic and client_secret_post clients), a
 * backend on 127.0.0.1 that verifies the bearer (signature, issuer, audience, scope), and, through
 * a real control plane and gateway, the plan's stored client secret resolved into the stream.
 * Checked: the call succeeds with the token; concurrent first calls make one token request; an
 * expired token is refreshed; a backend 401 gets one refresh and one retry; a wrong client secret
 * gives an isError result with a correlation id (the token endpoint's answer neither shown nor
 * logged, no secret logged); a client secret from a variable outside ATRIUM_GATEWAY_ENV_ALLOW is
 * refused; a changed stored client secret gets a new token; the REST API refuses what the gateway
 * would ignore.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordSecret } from "@atrium/reliability/secrets";
import { createLocalJWKSet, jwtVerify } from "jose";
import Provider from "oidc-provider";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingKey } from "./auth/testing.ts";
import { BackendTokens, type ClientCredentials, EXPIRY_MARGIN_MS } from "./backend-token.ts";
import type { Gateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { modernRequest, type Stack, startStack, waitFor } from "./testing.ts";

const RESOURCE = "https://pets.backend.test/";
const SCOPE = "pets:read";
const BASIC = { id: "atrium-gateway", secret: "backend-client-secret-basic-0123456789" };
const POST = { id: "atrium-gateway-post", secret: "backend-client-secret-post-0123456789" };
const WRONG_SECRET = "not-the-backend-client-secret-0123456789";

interface AuthorizationServer {
  tokenUrl: string;
  /** Token requests received. */
  requests: number;
  /** Lifetime of the next tokens, in seconds. */
  ttl: number;
  close(): Promise<void>;
}

let as: AuthorizationServer;
let backend: {
  url: string;
  tokens: string[];
  revoked: Set<string>;
  /** Refuses every token while set. */
  refuseAll: boolean;
  close(): Promise<void>;
};
let verifyKey: ReturnType<typeof createLocalJWKSet>;
let issuer: string;

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function startAuthorizationServer(): Promise<AuthorizationServer> {
  const key = await signingKey("backend-key");
  verifyKey = createLocalJWKSet({
    keys: [{ ...key.jwk, d: undefined, p: undefined, q: undefined, dp: undefined, dq: undefined, qi: undefined }],
  });
  for (const client of [BASIC, POST]) recordSecret("backend client secret", client.secret);
  recordSecret("backend client secret (wrong)", WRONG_SECRET);
  const state = { requests: 0, ttl: 300 };
  let provider: InstanceType<typeof Provider> | undefined;
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url === "/token") state.requests += 1;
    provider?.callback()(req, res);
  });
  issuer = await listen(server);
  provider = new Provider(issuer, {
    clients: [BASIC, POST].map((client, index) => ({
      client_id: client.id,
      client_secret: client.secret,
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: index === 0 ? "client_secret_basic" : "client_secret_post",
    })),
    jwks: { keys: [key.jwk] },
    scopes: [SCOPE],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          audience: RESOURCE,
          scope: SCOPE,
          accessTokenFormat: "jwt",
          accessTokenTTL: state.ttl,
          jwt: { sign: { alg: "RS256" } },
        }),
      },
    },
  } as never);
  provider.proxy = true;
  return {
    tokenUrl: `${issuer}/token`,
    get requests() {
      return state.requests;
    },
    get ttl() {
      return state.ttl;
    },
    set ttl(seconds: number) {
      state.ttl = seconds;
    },
    close: () => closeServer(server),
  };
}

/** Answers `[{"id":1}]` to a valid bearer for RESOURCE with SCOPE, 401 otherwise (and to revoked tokens). */
async function startBackend(): Promise<typeof backend> {
  const tokens: string[] = [];
  const revoked = new Set<string>();
  const server = createServer(async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    let valid = false;
    if (token && !revoked.has(token) && !started.refuseAll) {
      recordSecret("backend access token", token);
      tokens.push(token);
      try {
        const { payload } = await jwtVerify(token, verifyKey, { issuer, audience: RESOURCE });
        valid = String(payload.scope ?? "")
          .split(" ")
          .includes(SCOPE);
      } catch {
        valid = false;
      }
    }
    res.writeHead(valid ? 200 : 401, { "content-type": "application/json" });
    res.end(valid ? '[{"id":1,"name":"Rex"}]' : '{"error":"invalid_token"}');
  });
  const started = { url: await listen(server), tokens, revoked, refuseAll: false, close: () => closeServer(server) };
  return started;
}

beforeAll(async () => {
  as = await startAuthorizationServer();
  backend = await startBackend();
});

afterAll(async () => {
  await as?.close();
  await backend?.close();
});

function credentials(overrides: Partial<ClientCredentials> = {}): ClientCredentials {
  return {
    tokenUrl: as.tokenUrl,
    clientId: BASIC.id,
    tokenEndpointAuthMethod: "client_secret_basic",
    scopes: [SCOPE],
    resource: RESOURCE,
    clientSecret: { source: "value" },
    ...overrides,
  };
}

describe("BackendTokens against oidc-provider", () => {
  it("gets a bearer token the backend accepts, with client_secret_basic and client_secret_post", async () => {
    for (const [client, method] of [
      [BASIC, "client_secret_basic"],
      [POST, "client_secret_post"],
    ] as const) {
      const tokens = new BackendTokens();
      const got = await tokens.token(
        "plan",
        credentials({ clientId: client.id, tokenEndpointAuthMethod: method }),
        client.secret,
      );
      if (got.kind !== "token") throw new Error(`no token: ${JSON.stringify(got)}`);
      const answer = await request(`${backend.url}/pets`, { headers: { authorization: `Bearer ${got.token}` } });
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    }
  });

  it("makes one token request for concurrent first calls, caches it, and refreshes it shortly before expiry", async () => {
    let now = 1_000_000;
    const tokens = new BackendTokens({ now: () => now });
    const before = as.requests;
    const all = await Promise.all(Array.from({ length: 20 }, () => tokens.token("plan", credentials(), BASIC.secret)));
    expect(as.requests - before).toBe(1);
    expect(tokens.requests).toBe(1);
    expect(new Set(all.map((got) => (got.kind === "token" ? got.token : got.kind))).size).toBe(1);
    // 300 s tokens: kept until 30 s (EXPIRY_MARGIN_MS) before they expire.
    now += 300_000 - EXPIRY_MARGIN_MS - 1_000;
    await tokens.token("plan", credentials(), BASIC.secret);
    expect(as.requests - before).toBe(1);
    now += 2_000;
    const renewed = await tokens.token("plan", credentials(), BASIC.secret);
    expect(as.requests - before).toBe(2);
    expect(renewed.kind).toBe("token");
    // Another plan, or a changed client secret, has a token of its own.
    await tokens.token("other-plan", credentials(), BASIC.secret);
    expect(as.requests - before).toBe(3);
    expect((await tokens.token("plan", credentials(), WRONG_SECRET)).kind).toBe("error");
    expect(as.requests - before).toBe(4);
  });

  it("reports a refused request by status and registered OAuth error only, and does not cache the failure", async () => {
    const tokens = new BackendTokens();
    const got = await tokens.token("plan", credentials(), WRONG_SECRET);
    expect(got).toEqual({
      kind: "error",
      forClient: "The backend's authorization server refused the token request (HTTP 401, invalid_client)",
      forLog: "backend token request refused",
      details: { tokenUrl: as.tokenUrl, clientId: BASIC.id, status: 401, error: "invalid_client" },
    });
    await tokens.token("plan", credentials(), WRONG_SECRET);
    expect(tokens.requests).toBe(2);
  });

  it("reports an unreachable token URL and an answer without a bearer token", async () => {
    const down = createServer();
    const downUrl = await listen(down);
    await closeServer(down);
    const tokens = new BackendTokens();
    const unreachable = await tokens.token("plan", credentials({ tokenUrl: `${downUrl}/token` }), BASIC.secret);
    expect(unreachable).toMatchObject({ kind: "error", details: { code: "ECONNREFUSED" } });

    const odd = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"access_token":"abc","token_type":"DPoP","expires_in":60}');
    });
    const oddUrl = await listen(odd);
    try {
      const refused = await tokens.token("odd", credentials({ tokenUrl: `${oddUrl}/token` }), BASIC.secret);
      expect(refused).toMatchObject({
        kind: "error",
        forClient: "The backend's authorization server gave no usable bearer token",
        details: { problem: "a token_type other than Bearer" },
      });
    } finally {
      await closeServer(odd);
    }
  });
});

describe("through a control plane and a gateway", () => {
  let stack: Stack;
  let gateway: Gateway;
  let logDir: string;
  let logFile: string;
  const ids: Record<string, string> = {};
  let rotatedSecretId: string;
  let hanging: Server | undefined;

  const plan = (clientSecret: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    backendEndpoint: backend.url,
    backendSecret: {
      oauth2ClientCredentials: {
        tokenUrl: as.tokenUrl,
        clientId: BASIC.id,
        clientSecret,
        scopes: [SCOPE],
        resource: RESOURCE,
        ...extra,
      },
    },
  });

  beforeAll(async () => {
    stack = await startStack();
    const admin = stack.controlPlane.admin;
    const stored = async (name: string, value: string) =>
      (await admin.call("POST", "/api/v1/secrets", { name, value })).body.id as string;
    const good = await stored("backend-client", BASIC.secret);
    const wrong = await stored("backend-client-wrong", WRONG_SECRET);
    rotatedSecretId = await stored("backend-client-rotated", WRONG_SECRET);
    // A token endpoint that reads the request and never answers.
    hanging = createServer(() => undefined);
    const hangingUrl = await listen(hanging);
    process.env.ATRIUM_BACKEND_SECRET_CLIENT = BASIC.secret;
    process.env.ATRIUM_TEST_UNLISTED_CLIENT = BASIC.secret;
    for (const [name, body] of [
      ["stored", plan({ secretId: good })],
      ["concurrent", plan({ secretId: good })],
      ["short", plan({ secretId: good })],
      ["revoked", plan({ secretId: good })],
      ["wrong", plan({ secretId: wrong })],
      ["rotated", plan({ secretId: rotatedSecretId })],
      ["env", plan({ env: "${env:ATRIUM_BACKEND_SECRET_CLIENT}" })],
      ["env-unlisted", plan({ env: "${env:ATRIUM_TEST_UNLISTED_CLIENT}" })],
      [
        "hanging",
        {
          ...plan({ secretId: good }, { tokenUrl: `${hangingUrl}/token` }),
          backendTimeoutMs: 300,
        },
      ],
    ] as const) {
      ids[name] = (await stack.expose(name, { plan: body })).expositionId;
    }
    logDir = mkdtempSync(join(tmpdir(), "atrium-backend-token-"));
    logFile = join(logDir, "gateway.log");
    gateway = await stack.startGateway({ logFile, logLevel: "info" });
    const { "env-unlisted": _unlisted, ...served } = ids;
    await waitFor(() => Object.values(served).every((id) => gateway.registry.byId(id)), "the expositions served");
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    if (hanging) await closeServer(hanging);
    delete process.env.ATRIUM_BACKEND_SECRET_CLIENT;
    delete process.env.ATRIUM_TEST_UNLISTED_CLIENT;
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  async function listPets(name: string): Promise<{ status: number; isError: boolean; text: string }> {
    const response = await request(
      `${gateway.url}/mcp/${ids[name]}`,
      modernRequest("tools/call", { name: "listPets", arguments: {} }),
    );
    // biome-ignore lint/suspicious/noExplicitAny: the JSON-RPC answer is read field by field
    const body = (await response.body.json()) as any;
    return {
      status: response.statusCode,
      isError: body.result?.isError === true,
      text: String(body.result?.content?.[0]?.text ?? JSON.stringify(body)),
    };
  }

  it("calls the backend with a token got with the stored client secret, and with one from ${env:…}", async () => {
    for (const name of ["stored", "env"]) {
      const answer = await listPets(name);
      expect(answer).toMatchObject({ status: 200, isError: false });
      expect(answer.text).toContain("Rex");
    }
  });

  it("refuses a client secret from a variable outside ATRIUM_GATEWAY_ENV_ALLOW, as any ${env:…} secret", async () => {
    expect(gateway.registry.byId(ids["env-unlisted"] ?? "")).toBeUndefined();
    const metrics = await (await request(`${managementUrl(gateway.app)}/q/metrics`)).body.text();
    expect(metrics).toContain('atrium_gateway_expositions_refused{reason="environment"} 1');
  });

  it("makes one token request for 12 concurrent first calls", async () => {
    const before = as.requests;
    const answers = await Promise.all(Array.from({ length: 12 }, () => listPets("concurrent")));
    expect(answers.every((answer) => answer.status === 200 && !answer.isError)).toBe(true);
    expect(as.requests - before).toBe(1);
  });

  it("refreshes an expired token", async () => {
    as.ttl = 2;
    try {
      const before = as.requests;
      expect((await listPets("short")).isError).toBe(false);
      expect((await listPets("short")).isError).toBe(false);
      expect(as.requests - before).toBe(1);
      // A 2 s token is kept 1.8 s (a tenth of its lifetime as margin).
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await listPets("short")).isError).toBe(false);
      expect(as.requests - before).toBe(2);
    } finally {
      as.ttl = 300;
    }
  });

  it("answers a backend 401 with one new token and one retry", async () => {
    expect((await listPets("revoked")).isError).toBe(false);
    const used = backend.tokens.at(-1) as string;
    backend.revoked.add(used);
    const before = as.requests;
    const sent = backend.tokens.length;
    const answer = await listPets("revoked");
    expect(answer).toMatchObject({ status: 200, isError: false });
    expect(as.requests - before).toBe(1);
    expect(backend.tokens.length - sent).toBe(1); // the revoked token is refused before it is recorded
    expect(backend.tokens.at(-1)).not.toBe(used);
  });

  it("stops after one retry when the new token is refused as well", async () => {
    backend.refuseAll = true;
    try {
      const before = as.requests;
      const answer = await listPets("revoked");
      expect(answer.status).toBe(200);
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain("401");
      expect(as.requests - before).toBe(1);
    } finally {
      backend.refuseAll = false;
    }
  });

  it("gives a wrong client secret a clear isError result with a correlation id, and logs no secret", async () => {
    const answer = await listPets("wrong");
    expect(answer.status).toBe(200);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(
      /^The backend's authorization server refused the token request \(HTTP 401, invalid_client\) \(correlation id [0-9a-f]{16}\)$/,
    );
    const correlationId = /correlation id ([0-9a-f]+)/.exec(answer.text)?.[1];
    await waitFor(() => readFileSync(logFile, "utf8").includes(String(correlationId)), "the failure logged");
    const log = readFileSync(logFile, "utf8");
    const line = JSON.parse(log.split("\n").find((l) => l.includes(String(correlationId))) ?? "{}");
    expect(line).toMatchObject({ msg: "backend token request refused", status: 401, error: "invalid_client" });
    for (const secret of [BASIC.secret, WRONG_SECRET, ...backend.tokens]) expect(log).not.toContain(secret);
    expect(log).not.toContain("client authentication failed");
  });

  it("counts the wait for a token against the plan's backend timeout", async () => {
    const started = performance.now();
    const answer = await listPets("hanging");
    const elapsed = performance.now() - started;
    expect(answer).toMatchObject({ status: 200, isError: true });
    expect(answer.text).toContain("The backend did not answer within 300 ms.");
    expect(elapsed).toBeLessThan(3_000);
  });

  it("gets a new token with a stored client secret changed in the control plane", async () => {
    expect((await listPets("rotated")).isError).toBe(true);
    const changed = await stack.controlPlane.admin.call("PUT", `/api/v1/secrets/${rotatedSecretId}`, {
      value: BASIC.secret,
    });
    expect(changed.status).toBe(200);
    await waitFor(
      () =>
        gateway.registry.byId(ids.rotated ?? "")?.exposition.plan.backendSecret?.clientCredentials?.clientSecret
          .value === BASIC.secret,
      "the changed client secret streamed to the gateway",
    );
    const answer = await listPets("rotated");
    expect(answer).toMatchObject({ status: 200, isError: false });
  });

  it("refuses, through REST, what the gateway could not enforce (400, naming the field)", async () => {
    const admin = stack.controlPlane.admin;
    const refused = async (backendSecret: Record<string, unknown>) => {
      const response = await admin.call("POST", "/api/v1/configuration-plans", {
        name: "refused",
        serviceId: stack.serviceId,
        backendEndpoint: backend.url,
        backendSecret,
      });
      expect(response.status).toBe(400);
      return JSON.stringify(response.body);
    };
    const credentials = { tokenUrl: as.tokenUrl, clientId: BASIC.id, clientSecret: { env: "${env:X}" } };
    expect(await refused({ oauth2ClientCredentials: credentials, prefix: "Token " })).toContain(
      "the token is always sent as 'Authorization: Bearer <token>'",
    );
    expect(await refused({ oauth2ClientCredentials: credentials, in: "query" })).toContain(
      "leave in, name and prefix unset",
    );
    expect(await refused({ oauth2ClientCredentials: credentials, name: "X-Api-Key" })).toContain(
      "leave in, name and prefix unset",
    );
    expect(await refused({ oauth2ClientCredentials: credentials, env: "${env:Y}" })).toContain(
      "exactly one of secretId, env, elicit, oauth2ClientCredentials, tokenExchange, oauth2AuthorizationCode must be set",
    );
    expect(
      await refused({
        oauth2ClientCredentials: { ...credentials, clientSecret: { env: "${env:X}", secretId: stack.planId } },
      }),
    ).toContain("exactly one of secretId, env must be set");
    expect(await refused({ oauth2ClientCredentials: { ...credentials, clientSecret: {} } })).toContain(
      "exactly one of secretId, env must be set",
    );
    expect(
      await refused({ oauth2ClientCredentials: { ...credentials, tokenUrl: "ftp://as.example/token" } }),
    ).toContain("must be an absolute http:// or https:// URL");
    expect(await refused({ oauth2ClientCredentials: { ...credentials, scopes: ["a b"] } })).toContain(
      "must be an OAuth scope",
    );
    expect(
      await refused({ oauth2ClientCredentials: { ...credentials, tokenEndpointAuthMethod: "private_key_jwt" } }),
    ).toContain("tokenEndpointAuthMethod");
    // A stored client secret of another organization (or none) is refused as a reference.
    const unknown = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "unknown-secret",
      serviceId: stack.serviceId,
      backendEndpoint: backend.url,
      backendSecret: { oauth2ClientCredentials: { ...credentials, clientSecret: { secretId: stack.planId } } },
    });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body)).toContain("body.backendSecret.oauth2ClientCredentials.clientSecret.secretId");
  });
});
