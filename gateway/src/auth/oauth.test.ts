/**
 * OAuth-protected endpoints against a real authorization server (oidc-provider): tokens it
 * issues are served, every hostile token is refused with the right status, challenge and audit
 * reason, and a plan whose keys are out of reach serves no one. Audit events are checked field
 * by field, and no credential reaches any log line of the run.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { captureOutput } from "@atrium/reliability/secrets";
import { SignJWT } from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Gateway, startGateway } from "../gateway.ts";
import { modernMeta, modernRequest, type Stack, startStack, waitFor } from "../testing.ts";
import { signingKey, startAuthorizationServer, type TestAuthorizationServer } from "./testing.ts";

let stack: Stack;
let as: TestAuthorizationServer;
let gateway: Gateway;
let auditDir: string;
let otlp: { server: Server; bodies: unknown[]; url: string };
/** Exposition ids by name. */
const expositions: Record<string, string> = {};
let organization: string;
/** Every credential sent in this file: none may reach a log line. */
const secrets = new Set<string>();
const logStream = new PassThrough();
const gatewayLog: string[] = [];

async function publish(name: string, plan: Record<string, unknown>) {
  expositions[name] = (await stack.expose(name, { plan })).expositionId;
}

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => {
      text += chunk;
    });
    req.on("end", () => {
      bodies.push(JSON.parse(text));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  otlp = { server, bodies, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = otlp.url;
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
  process.env.OTEL_BLRP_SCHEDULE_DELAY = "100";

  await publish("oauth", {
    oauth: { issuer: as.issuer, requiredScopes: ["tools:read"], toolScopes: { createPet: ["tools:write"] } },
    audit: true,
  });
  await publish("oauth-audience", { oauth: { issuer: as.issuer, jwksUri: as.jwksUri, audience: "pets-api" } });
  await publish("oauth-resource", {
    oauth: { issuer: as.issuer, jwksUri: as.jwksUri, resource: "https://mcp.example.com/pets" },
  });
  // Nothing listens on port 9 of the loopback: keys that cannot be fetched.
  await publish("jwks-down", { oauth: { issuer: as.issuer, jwksUri: "http://127.0.0.1:9/jwks" } });
  await publish("discovery-down", { oauth: { issuer: "http://127.0.0.1:9" } });
  await publish("scope-typo", { oauth: { issuer: as.issuer, toolScopes: { createPets: ["tools:write"] } } });
  auditDir = mkdtempSync(join(tmpdir(), "atrium-audit-"));
  // The gateway's own log, at its most talkative, is read back: no credential may be in it.
  logStream.on("data", (chunk: Buffer) => gatewayLog.push(chunk.toString("utf8")));
  captureOutput("gateway", logStream); // and to the run dir, for the end-of-run secrets scan
  gateway = await startGateway(stack.gatewayConfig({ auditFile: join(auditDir, "audit.jsonl"), logLevel: "trace" }), {
    logStream,
  });
  await waitFor(() => gateway.registry.size === 6, "the OAuth Expositions served");
  organization = gateway.registry.byId(expositions.oauth as string)?.exposition.organization.name as string;
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await stack?.close();
  await as?.close();
  otlp?.server.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  rmSync(auditDir, { recursive: true, force: true });
});

function endpoint(name: string) {
  return `/mcp/${organization}/${name}`;
}
function resource(name: string) {
  return `${gateway.url}${endpoint(name)}`;
}

/** A modern-era call with `token` (when given) in the Authorization header. */
async function call(
  name: string,
  method: string,
  params: Record<string, unknown> = {},
  token?: string,
  extraHeaders: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever came back
): Promise<{ status: number; body: any; challenge: string | undefined }> {
  if (token) secrets.add(token);
  const response = await request(
    `${gateway.url}${endpoint(name)}`,
    modernRequest(method, params, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extraHeaders },
    }),
  );
  const text = await response.body.text();
  return {
    status: response.statusCode,
    body: text ? JSON.parse(text) : undefined,
    challenge: response.headers["www-authenticate"] as string | undefined,
  };
}

const listPets = { name: "listPets", arguments: {} };

describe("tokens the authorization server issues", () => {
  it("serves tools/list and tools/call with a client-credentials token for the endpoint", async () => {
    const token = await as.clientCredentials(resource("oauth"), "tools:read");
    const listed = await call("oauth", "tools/list", {}, token);
    expect(listed.status).toBe(200);
    const names = listed.body.result.tools.map((tool: { name: string }) => tool.name);
    // createPet needs tools:write, which this token lacks: hidden from its list.
    expect(names).toContain("listPets");
    expect(names).not.toContain("createPet");
    const called = await call("oauth", "tools/call", listPets, token);
    expect(called.status).toBe(200);
    expect(called.body.result.isError).toBeFalsy();
  });

  it("shows and allows a scoped tool only to a token with its scope", async () => {
    const reader = await as.clientCredentials(resource("oauth"), "tools:read");
    const refused = await call(
      "oauth",
      "tools/call",
      { name: "createPet", arguments: { name: "Rex", tag: "dog" } },
      reader,
    );
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error="insufficient_scope"');
    expect(refused.challenge).toContain('scope="tools:write"');
    const writer = await as.clientCredentials(resource("oauth"), "tools:read tools:write");
    const names = (await call("oauth", "tools/list", {}, writer)).body.result.tools.map(
      (t: { name: string }) => t.name,
    );
    expect(names).toContain("createPet");
    const created = await call("oauth", "tools/call", { name: "createPet", arguments: { name: "Rex" } }, writer);
    expect(created.status).toBe(200);
  });

  it("checks the plan's audience instead of the endpoint URL when one is set", async () => {
    const forEndpoint = await as.clientCredentials(resource("oauth-audience"));
    expect((await call("oauth-audience", "tools/list", {}, forEndpoint)).status).toBe(403);
    const forAudience = await as.mint({ aud: "pets-api" });
    expect((await call("oauth-audience", "tools/list", {}, forAudience)).status).toBe(200);
  });

  it("uses the plan's resource as the audience, and refuses a token whose resource claim differs", async () => {
    const good = await as.mint({ aud: "https://mcp.example.com/pets", resource: "https://mcp.example.com/pets" });
    expect((await call("oauth-resource", "tools/list", {}, good)).status).toBe(200);
    const other = await as.mint({ aud: "https://mcp.example.com/pets", resource: "https://mcp.example.com/other" });
    const refused = await call("oauth-resource", "tools/list", {}, other);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error="invalid_token"');
  });

  it("accepts a token expired less than the 60 s clock tolerance ago", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await as.mint({ aud: resource("oauth"), exp: now - 30, iat: now - 300 });
    expect((await call("oauth", "tools/list", {}, token)).status).toBe(200);
  });

  it("picks up a key rotation at the authorization server without a restart", async () => {
    const next = await signingKey("key-2");
    await as.rotate(next);
    const fetchesBefore = as.jwksFetches;
    // The gateway's cooldown between key-set fetches is 1 s in tests.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const token = await as.clientCredentials(resource("oauth"), "tools:read");
    const answer = await call("oauth", "tools/call", listPets, token);
    expect(answer.status).toBe(200);
    expect(as.jwksFetches).toBeGreaterThan(fetchesBefore);
  });
});

describe("refusals", () => {
  const challengeOf = (name: string) =>
    `resource_metadata="${gateway.url}/.well-known/oauth-protected-resource${endpoint(name)}"`;

  it("401 without a token: a challenge naming the metadata and the scopes, no error code", async () => {
    const answer = await call("oauth", "tools/list");
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(`Bearer ${challengeOf("oauth")}, scope="tools:read"`);
    expect(answer.body.error.message).toMatch(/Missing bearer token/);
  });

  it("401 for a token in the query string: only the Authorization header is read", async () => {
    const token = await as.clientCredentials(resource("oauth"), "tools:read");
    secrets.add(token);
    const response = await request(`${gateway.url}${endpoint("oauth")}?access_token=${token}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: modernMeta() } }),
    });
    await response.body.dump();
    expect(response.statusCode).toBe(401);
  });

  it("401 for a token of another authentication scheme", async () => {
    const answer = await call("oauth", "tools/list", {}, undefined, { authorization: "Basic YWxpY2U6c2VjcmV0" });
    expect(answer.status).toBe(401);
    expect(answer.challenge).not.toContain("error=");
  });

  const invalid: [string, () => Promise<string>][] = [
    ["a malformed token", async () => "not-a-jwt"],
    ["an expired token", async () => as.mint({ aud: resource("oauth"), exp: Math.floor(Date.now() / 1000) - 120 })],
    [
      "a token not valid yet",
      async () => as.mint({ aud: resource("oauth"), nbf: Math.floor(Date.now() / 1000) + 600 }),
    ],
    ["a token from another issuer", async () => as.mint({ aud: resource("oauth"), iss: "http://127.0.0.1:9" })],
    [
      "a token signed by another key under the issuer's kid",
      async () => as.mint({ aud: resource("oauth") }, { key: { ...(await signingKey(as.key.kid)) } }),
    ],
    ["a token without exp", async () => unsignedLike({ aud: resource("oauth") }, "RS256", true)],
    ["an unsigned token (alg none)", async () => unsignedLike({ aud: resource("oauth") }, "none")],
    [
      "an HMAC token keyed with the issuer's public key",
      async () => {
        const publicJwk = { kty: as.key.jwk.kty, n: as.key.jwk.n, e: as.key.jwk.e };
        return new SignJWT({ scope: "tools:read" })
          .setProtectedHeader({ alg: "HS256", kid: as.key.kid })
          .setIssuer(as.issuer)
          .setSubject("mallory")
          .setAudience(resource("oauth"))
          .setExpirationTime("5m")
          .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
      },
    ],
  ];

  it.each(invalid)("401 invalid_token for %s", async (_, mint) => {
    const answer = await call("oauth", "tools/list", {}, await mint());
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain(challengeOf("oauth"));
    expect(answer.challenge).toContain('error="invalid_token"');
  });

  it("403 invalid_token for a token issued for another resource", async () => {
    const token = await as.clientCredentials("https://elsewhere.example.com/mcp", "tools:read");
    const answer = await call("oauth", "tools/list", {}, token);
    expect(answer.status).toBe(403);
    expect(answer.challenge).toContain('error="invalid_token"');
  });

  it("403 insufficient_scope for a token without a required scope", async () => {
    const token = await as.clientCredentials(resource("oauth"), "pets:admin");
    const answer = await call("oauth", "tools/list", {}, token);
    expect(answer.status).toBe(403);
    expect(answer.challenge).toContain('error="insufficient_scope"');
    expect(answer.challenge).toContain('scope="tools:read"');
  });

  it("never serves open when the keys cannot be fetched: 503, or 401 without a token", async () => {
    for (const name of ["jwks-down", "discovery-down"]) {
      const token = await as.mint({ aud: resource(name) });
      const answer = await call(name, "tools/call", listPets, token);
      expect(answer.status, name).toBe(503);
      expect(answer.body.error.message).toMatch(/signing keys .* cannot be fetched/);
      expect(answer.body.result).toBeUndefined();
      expect((await call(name, "tools/call", listPets)).status).toBe(401);
    }
  });
});

/** A JWT with the given header alg and no valid signature (or no exp): what jose would never sign. */
async function unsignedLike(claims: Record<string, unknown>, alg: string, withoutExp = false): Promise<string> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const payload = {
    iss: as.issuer,
    sub: "mallory",
    scope: "tools:read",
    ...(withoutExp ? {} : { exp: Math.floor(Date.now() / 1000) + 300 }),
    ...claims,
  };
  if (alg === "none") return `${encode({ alg: "none" })}.${encode(payload)}.`;
  // Signed properly, but without exp: built from a real signature over the same header and payload.
  const { privateKey, kid } = as.key;
  const header = { alg, kid };
  const input = `${encode(header)}.${encode(payload)}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", privateKey, new TextEncoder().encode(input));
  return `${input}.${Buffer.from(signature).toString("base64url")}`;
}

describe("per-tool scopes", () => {
  it("are not served when they name a tool the Exposition does not have, and the control plane says why", async () => {
    const token = await as.mint({ aud: resource("scope-typo") });
    expect((await call("scope-typo", "tools/list", {}, token)).status).toBe(404);
    const view = async () =>
      (await stack.controlPlane.admin.call("GET", `/api/v1/expositions/${expositions["scope-typo"]}`)).body;
    await waitFor(async () => ((await view()).problems ?? []).length > 0, "the problem reported");
    expect(JSON.stringify((await view()).problems)).toContain("oauth.toolScopes names tools");
  });
});

describe("protected-resource metadata (RFC 9728)", () => {
  it("is served at the path-inserted URL of both endpoint shapes", async () => {
    for (const path of [endpoint("oauth"), `/mcp/${expositions.oauth}`]) {
      const response = await request(`${gateway.url}/.well-known/oauth-protected-resource${path}`);
      expect(response.statusCode).toBe(200);
      const metadata = (await response.body.json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        resource: `${gateway.url}${path}`,
        authorization_servers: [as.issuer],
        jwks_uri: as.jwksUri,
        scopes_supported: ["tools:read", "tools:write"],
        bearer_methods_supported: ["header"],
      });
    }
  });

  it("names the plan's resource when it has one, and 404 for an endpoint without OAuth", async () => {
    const response = await request(`${gateway.url}/.well-known/oauth-protected-resource${endpoint("oauth-resource")}`);
    expect(((await response.body.json()) as { resource: string }).resource).toBe("https://mcp.example.com/pets");
    const open = await request(`${gateway.url}/.well-known/oauth-protected-resource${stack.mcpPath}`);
    await open.body.dump();
    expect(open.statusCode).toBe(404);
  });
});

describe("2025 sessions", () => {
  async function legacy(name: string, token: string, body: unknown, sessionId?: string) {
    const response = await request(`${gateway.url}${endpoint(name)}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await response.body.text();
    return { status: response.statusCode, session: response.headers["mcp-session-id"] as string, text };
  }

  it("needs the token on every request and binds a session to its user", async () => {
    const alice = await as.mint({ aud: resource("oauth"), sub: "alice" });
    const bob = await as.mint({ aud: resource("oauth"), sub: "bob" });
    secrets.add(alice);
    secrets.add(bob);
    const opened = await legacy("oauth", alice, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    expect(opened.status).toBe(200);
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    expect((await legacy("oauth", alice, list, opened.session)).status).toBe(200);
    const stolen = await legacy("oauth", bob, list, opened.session);
    expect(stolen.status).toBe(403);
    expect(stolen.text).toMatch(/belongs to another user/);
    const withoutToken = await request(`${gateway.url}${endpoint("oauth")}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "mcp-session-id": opened.session,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify(list),
    });
    await withoutToken.body.dump();
    expect(withoutToken.statusCode).toBe(401);
  });

  it("ends a session's GET stream and a listen stream when the token they opened with expires", async () => {
    const now = Math.floor(Date.now() / 1000);
    // Past its exp by 55 s of the 60 s tolerance: valid for 5 s more.
    const expiring = await as.mint({ aud: resource("oauth"), sub: "carol", exp: now - 55, iat: now - 300 });
    const lasting = await as.mint({ aud: resource("oauth"), sub: "carol" });
    secrets.add(expiring);
    secrets.add(lasting);
    const opened = await legacy("oauth", lasting, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const started = Date.now();
    const sessionStream = await request(`${gateway.url}${endpoint("oauth")}`, {
      headers: {
        accept: "text/event-stream",
        authorization: `Bearer ${expiring}`,
        "mcp-session-id": opened.session,
        "mcp-protocol-version": "2025-11-25",
      },
    });
    const listenStream = await request(
      `${gateway.url}${endpoint("oauth")}`,
      modernRequest(
        "subscriptions/listen",
        { notifications: { toolsListChanged: true } },
        { headers: { authorization: `Bearer ${expiring}` } },
      ),
    );
    expect([sessionStream.statusCode, listenStream.statusCode]).toEqual([200, 200]);
    await Promise.all([sessionStream.body.text(), listenStream.body.text()]);
    // Ended by the token's expiry, long before the 25 s keep-alive.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe("audit events", () => {
  // biome-ignore lint/suspicious/noExplicitAny: events are read as JSON
  const events = (): any[] =>
    readFileSync(join(auditDir, "audit.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));

  it("records authentication decisions and tool calls with ECS fields, and never a credential", async () => {
    const token = await as.clientCredentials(resource("oauth"), "tools:read");
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await call("oauth", "tools/call", listPets, token, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await call("oauth", "tools/list", {}, "not-a-jwt", { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await call("oauth", "tools/list", {}, undefined, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    const expositionId = expositions.oauth as string;
    await waitFor(() => events().filter((e) => e.trace?.id === traceId).length >= 4, "the audit events");
    const traced = events().filter((e) => e.trace.id === traceId);
    const common = {
      organization: expect.objectContaining({ name: organization }),
      source: { ip: "127.0.0.1" },
      trace: { id: traceId },
      atrium: expect.objectContaining({ exposition: { id: expositionId, name: "oauth" } }),
    };
    expect(traced).toEqual([
      expect.objectContaining({
        ...common,
        event: { kind: "event", category: "api", action: "tool_call", outcome: "success" },
        user: { id: expect.any(String) },
        http: { response: { status_code: 200 } },
        atrium: expect.objectContaining({
          auth: { mode: "oauth", issuer: as.issuer },
          tool: { name: "listPets", backend_status_code: 200 },
        }),
      }),
      expect.objectContaining({
        ...common,
        event: { kind: "event", category: "authentication", action: "authentication", outcome: "success" },
        http: { response: { status_code: 200 } },
        atrium: expect.objectContaining({ auth: { mode: "oauth", issuer: as.issuer } }),
      }),
      expect.objectContaining({
        ...common,
        event: expect.objectContaining({ category: "authentication", outcome: "failure", reason: "invalid_token" }),
        http: { response: { status_code: 401 } },
      }),
      expect.objectContaining({
        ...common,
        event: expect.objectContaining({ outcome: "failure", reason: "missing_bearer_token" }),
        http: { response: { status_code: 401 } },
      }),
    ]);
    for (const event of traced) expect(Date.parse(event["@timestamp"])).toBeGreaterThan(0);
    const scopeRefusal = await as.clientCredentials(resource("oauth"), "tools:read");
    await call("oauth", "tools/call", { name: "createPet", arguments: { name: "x" } }, scopeRefusal);
    await waitFor(() => events().some((e) => e.event.reason === "missing_scope"), "the missing_scope event");
    expect(events().find((e) => e.event.reason === "missing_scope")).toMatchObject({
      http: { response: { status_code: 403 } },
      atrium: { tool: { name: "createPet" } },
    });
  });

  it("sends the same events as OTLP logs", async () => {
    await waitFor(() => JSON.stringify(otlp.bodies).includes("missing_bearer_token"), "the OTLP export", 10_000);
    const text = JSON.stringify(otlp.bodies);
    expect(text).toContain("event.action");
    expect(text).toContain("tool_call");
    expect(text).toContain("missing_bearer_token");
  });

  it("puts no token in any log line: audit file, OTLP export, the gateway's own log", async () => {
    expect(gatewayLog.join("")).toContain("signing keys are out of reach");
    const logged = [
      readFileSync(join(auditDir, "audit.jsonl"), "utf8"),
      JSON.stringify(otlp.bodies),
      gatewayLog.join(""),
    ].join("\n");
    expect(secrets.size).toBeGreaterThan(5);
    for (const secret of secrets) expect(logged.includes(secret)).toBe(false);
  });
});
