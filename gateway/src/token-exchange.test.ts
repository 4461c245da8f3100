/**
 * Token exchange (RFC 8693) to the backend, with real parts: oidc-provider as the endpoint's
 * authorization server (the callers' tokens), an RFC 8693 token endpoint on 127.0.0.1 that checks
 * each subject token with jose and the client's authentication (client_secret_basic, or
 * private_key_jwt found through RFC 8414 discovery), a backend that accepts only exchanged
 * tokens, and a control plane and gateway between them; the official MCP clients of both eras
 * call with a bearer token. Checked: each caller reaches the backend as themselves, and the
 * backend never sees a caller's token; one exchange for many calls; one exchange for concurrent
 * first calls; refusals, errors and a hanging token endpoint give an isError result (and an audit
 * event), never a 5xx; a backend 401 gets one new exchange and one retry; nothing secret is
 * logged; the schema refuses tokenExchange without oauth.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decodeJwt } from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "./auth/testing.ts";
import type { Gateway } from "./gateway.ts";
import { modernRequest, type Stack, startStack, waitFor } from "./testing.ts";
import { ExchangedTokens } from "./token-exchange.ts";
import {
  BACKEND_AUDIENCE,
  type CheckingBackend,
  type ExchangeServer,
  JWT_CLIENT_ID,
  SECRET_CLIENT,
  startCheckingBackend,
  startExchangeServer,
  subjectOf,
} from "./token-exchange-testing.ts";

const MCP_AUDIENCE = "atrium-pets-mcp";

let stack: Stack;
let endpointAs: TestAuthorizationServer;
let exchange: ExchangeServer;
let backend: CheckingBackend;
let gateway: Gateway;
let hanging: Server;
let logDir: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack();
  endpointAs = await startAuthorizationServer();
  exchange = await startExchangeServer(endpointAs.issuer, endpointAs.jwksUri);
  backend = await startCheckingBackend(exchange);
  hanging = createServer(() => undefined);
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  const hangingUrl = `http://127.0.0.1:${(hanging.address() as { port: number }).port}/token`;
  const admin = stack.controlPlane.admin;
  const stored = async (name: string, value: string) =>
    (await admin.call("POST", "/api/v1/secrets", { name, value })).body.id as string;
  const secretId = await stored("exchange-client", SECRET_CLIENT.secret);
  const keyId = await stored("exchange-client-key", exchange.clientKeyPem);
  const plan = (tokenExchange: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    backendEndpoint: backend.url,
    oauth: { issuer: endpointAs.issuer, jwksUri: endpointAs.jwksUri, audience: MCP_AUDIENCE },
    backendSecret: {
      tokenExchange: {
        tokenUrl: exchange.tokenUrl,
        clientId: SECRET_CLIENT.id,
        clientSecret: { secretId },
        audience: BACKEND_AUDIENCE,
        scopes: ["pets:read"],
        ...tokenExchange,
      },
    },
    ...extra,
  });
  for (const [name, body] of [
    ["basic", plan({})],
    ["cache", plan({})],
    ["flight", plan({})],
    ["retry", plan({})],
    ["refused", plan({}, { audit: true })],
    ["actor", plan({ actorToken: "clientCredentials" })],
    [
      "jwt",
      plan({
        tokenUrl: undefined,
        issuer: exchange.issuer,
        clientId: JWT_CLIENT_ID,
        tokenEndpointAuthMethod: "private_key_jwt",
        clientSecret: { secretId: keyId },
        requestedTokenType: "urn:ietf:params:oauth:token-type:jwt",
      }),
    ],
    ["hanging", plan({ tokenUrl: hangingUrl }, { backendTimeoutMs: 300 })],
  ] as const) {
    ids[name] = (await stack.expose(name, { plan: body })).expositionId;
  }
  logDir = mkdtempSync(join(tmpdir(), "atrium-token-exchange-"));
  gateway = await stack.startGateway({
    logFile: join(logDir, "gateway.log"),
    logLevel: "debug",
    auditFile: join(logDir, "audit.jsonl"),
  });
  await waitFor(() => Object.values(ids).every((id) => gateway.registry.byId(id)), "the expositions served");
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await backend?.close();
  await exchange?.close();
  await endpointAs?.close();
  hanging?.closeAllConnections();
  await new Promise((resolve) => hanging?.close(resolve));
  if (logDir) rmSync(logDir, { recursive: true, force: true });
});

/** A token for `user` at the MCP endpoint, from the endpoint's authorization server. */
function tokenFor(user: string): Promise<string> {
  return endpointAs.mint({ sub: user, aud: MCP_AUDIENCE });
}

async function listPets(plan: string, token: string): Promise<{ status: number; isError: boolean; text: string }> {
  const response = await request(
    `${gateway.url}/mcp/${ids[plan]}`,
    modernRequest("tools/call", { name: "listPets", arguments: {} }, { headers: { authorization: `Bearer ${token}` } }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: the JSON-RPC answer is read field by field
  const body = (await response.body.json()) as any;
  return {
    status: response.statusCode,
    isError: body.result?.isError === true,
    text: String(body.result?.content?.[0]?.text ?? JSON.stringify(body)),
  };
}

/** The backend never got a caller's own token: only tokens the exchange issued. */
function expectNoPassthrough(...callerTokens: string[]) {
  for (const header of backend.authorizations) for (const token of callerTokens) expect(header).not.toContain(token);
}

describe("token exchange to the backend", () => {
  it("calls the backend as each caller, through the official clients of both eras, never with their token", async () => {
    const alice = await tokenFor("alice");
    const bob = await tokenFor("bob");
    const url = new URL(`${gateway.url}/mcp/${ids.basic}`);
    const modern = new ModernClient(
      { name: "test", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await modern.connect(new ModernTransport(url, { requestInit: { headers: { authorization: `Bearer ${alice}` } } }));
    const legacy = new LegacyClient({ name: "test", version: "1" });
    await legacy.connect(new LegacyTransport(url, { requestInit: { headers: { authorization: `Bearer ${bob}` } } }));
    try {
      const first = await modern.callTool({ name: "listPets", arguments: {} });
      expect(first.isError).toBeFalsy();
      expect(JSON.stringify(first.content)).toContain("alice");
      const second = await legacy.callTool({ name: "listPets", arguments: {} });
      expect(second.isError).toBeFalsy();
      expect(JSON.stringify(second.content)).toContain("bob");
    } finally {
      await modern.close();
      await legacy.close();
    }
    // The caller's token went to the token endpoint only, as the subject token.
    expect(exchange.subjectTokens).toContain(alice);
    expect(exchange.subjectTokens).toContain(bob);
    expect(exchange.forms.at(-1)).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token_type: "urn:ietf:params:oauth:token-type:access_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:access_token",
      audience: BACKEND_AUDIENCE,
      scope: "pets:read",
    });
    const subjects = backend.authorizations.map((header) => subjectOf(header.replace(/^Bearer /, "")));
    expect(subjects).toEqual(expect.arrayContaining(["alice", "bob"]));
    expectNoPassthrough(alice, bob);
  });

  it("exchanges once for many calls of one caller, and once per caller", async () => {
    const carol = await tokenFor("carol");
    const before = exchange.exchanges;
    for (let call = 0; call < 5; call++) expect(await listPets("cache", carol)).toMatchObject({ isError: false });
    expect(exchange.exchanges - before).toBe(1);
    // Another token of the same user: the cached exchange is theirs too.
    expect(await listPets("cache", await tokenFor("carol"))).toMatchObject({ isError: false });
    expect(exchange.exchanges - before).toBe(1);
    const dave = await tokenFor("dave");
    const answer = await listPets("cache", dave);
    expect(answer.text).toContain("dave");
    expect(exchange.exchanges - before).toBe(2);
    expectNoPassthrough(carol, dave);
  });

  it("makes one exchange for concurrent first calls of one caller", async () => {
    const erin = await tokenFor("erin");
    exchange.delayMs = 200;
    try {
      const before = exchange.requests;
      const answers = await Promise.all(Array.from({ length: 10 }, () => listPets("flight", erin)));
      expect(answers.every((answer) => answer.status === 200 && !answer.isError && answer.text.includes("erin"))).toBe(
        true,
      );
      expect(exchange.requests - before).toBe(1);
    } finally {
      exchange.delayMs = 0;
    }
  });

  it("authenticates with private_key_jwt at a token endpoint found through RFC 8414 metadata", async () => {
    const frank = await tokenFor("frank");
    const answer = await listPets("jwt", frank);
    expect(answer).toMatchObject({ status: 200, isError: false });
    expect(answer.text).toContain("frank");
    expect(exchange.forms.at(-1)).toMatchObject({
      client_id: JWT_CLIENT_ID,
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      requested_token_type: "urn:ietf:params:oauth:token-type:jwt",
    });
  });

  it("answers a backend 401 with one new exchange and one retry", async () => {
    const grace = await tokenFor("grace");
    expect(await listPets("retry", grace)).toMatchObject({ isError: false });
    const used = (backend.authorizations.at(-1) as string).replace(/^Bearer /, "");
    backend.revoked.add(used);
    const before = exchange.exchanges;
    const answer = await listPets("retry", grace);
    expect(answer).toMatchObject({ status: 200, isError: false });
    expect(answer.text).toContain("grace");
    expect(exchange.exchanges - before).toBe(1);
    expect(backend.authorizations.at(-1)).not.toContain(used);
    // Refused again: one retry only, then the 401 is the result.
    backend.revoked.add((backend.authorizations.at(-1) as string).replace(/^Bearer /, ""));
    exchange.mode = "invalid_grant";
    try {
      const again = await listPets("retry", grace);
      expect(again).toMatchObject({ status: 200, isError: true });
      expect(again.text).toContain("refused the token exchange (HTTP 400, invalid_grant)");
    } finally {
      exchange.mode = "ok";
    }
  });

  it("turns refusals and errors at the authorization server into isError results and audit events", async () => {
    const cases = [
      ["invalid_grant", "refused the token exchange (HTTP 400, invalid_grant)"],
      ["unauthorized_client", "refused the token exchange (HTTP 400, unauthorized_client)"],
      ["server_error", "refused the token exchange (HTTP 500)"],
    ] as const;
    for (const [mode, words] of cases) {
      exchange.mode = mode;
      try {
        const answer = await listPets("refused", await tokenFor(`henry-${mode}`));
        expect(answer.status).toBe(200);
        expect(answer.isError).toBe(true);
        expect(answer.text).toMatch(/^The backend's authorization server .* \(correlation id [0-9a-f]{16}\)$/);
        expect(answer.text).toContain(words);
      } finally {
        exchange.mode = "ok";
      }
    }
    // Not cached: the caller's next call exchanges again and succeeds.
    expect(await listPets("refused", await tokenFor("henry-invalid_grant"))).toMatchObject({ isError: false });
    const audit = join(logDir, "audit.jsonl");
    await waitFor(() => readFileSync(audit, "utf8").includes('"action":"tool_call"'), "the audit events");
    const events = readFileSync(audit, "utf8")
      .split("\n")
      .filter((line) => line.includes('"action":"tool_call"'))
      .map((line) => JSON.parse(line));
    const failed = events.filter((event) => event.event?.outcome === "failure");
    // The identity at the backend: the caller the token was exchanged for, never a token.
    for (const event of events) {
      expect(event.atrium.backend).toEqual({
        credential_source: "tokenExchange",
        subject: { kind: "user", issuer: endpointAs.issuer, id: event.user.id },
      });
    }
    expect(failed.map((event) => event.user?.id)).toEqual(
      expect.arrayContaining(["henry-invalid_grant", "henry-unauthorized_client", "henry-server_error"]),
    );
    const written = readFileSync(audit, "utf8");
    for (const token of [...exchange.subjectTokens, ...backend.authorizations].filter(Boolean)) {
      expect(written).not.toContain(token.replace(/^Bearer /, ""));
    }
  });

  it("sends the gateway's own token as actor_token with actorToken clientCredentials (delegation)", async () => {
    exchange.requireActor = true;
    try {
      // Without actorToken, a server that allows only delegation refuses the exchange.
      const plain = await listPets("basic", await tokenFor("kate"));
      expect(plain).toMatchObject({ status: 200, isError: true });
      expect(plain.text).toContain("refused the token exchange (HTTP 400, invalid_request)");
      const issuedBefore = exchange.actorTokensIssued;
      const heard = backend.authorizations.length;
      for (const user of ["kate", "liam"]) {
        const answer = await listPets("actor", await tokenFor(user));
        expect(answer).toMatchObject({ isError: false });
        expect(answer.text).toContain(user);
      }
      // One actor token for both callers' exchanges, checked by the server; the backend got
      // delegation tokens naming the caller and, as actor, the gateway's client.
      expect(exchange.actorTokensIssued).toBe(issuedBefore + 1);
      expect(exchange.forms.at(-1)).toMatchObject({
        actor_token_type: "urn:ietf:params:oauth:token-type:access_token",
      });
      const sent = backend.authorizations.slice(heard).map((header) => header.replace(/^Bearer /, ""));
      expect(sent.map((token) => [subjectOf(token), decodeJwt(token).act])).toEqual([
        ["kate", { sub: SECRET_CLIENT.id }],
        ["liam", { sub: SECRET_CLIENT.id }],
      ]);
      for (const actor of exchange.actorTokens) expect(sent).not.toContain(actor);

      // A refused actor token is dropped: one failed call, then a new actor token.
      for (const actor of exchange.actorTokens) exchange.revokedActors.add(actor);
      const refused = await listPets("actor", await tokenFor("mona"));
      expect(refused).toMatchObject({ status: 200, isError: true });
      expect(refused.text).toContain("refused the token exchange (HTTP 400, invalid_grant)");
      expect(await listPets("actor", await tokenFor("mona"))).toMatchObject({ isError: false });
      expect(exchange.actorTokensIssued).toBe(issuedBefore + 2);
    } finally {
      exchange.requireActor = false;
    }
  });

  it("keeps an exchanged token no longer than the caller's own token holds", async () => {
    let now = Date.now();
    const tokens = new ExchangedTokens({ now: () => now });
    const settings = {
      tokenUrl: exchange.tokenUrl,
      clientId: SECRET_CLIENT.id,
      tokenEndpointAuthMethod: "client_secret_basic" as const,
      requestedTokenType: "urn:ietf:params:oauth:token-type:access_token" as const,
      clientSecret: { source: "value" as const },
    };
    const subject = { user: "judy", token: await tokenFor("judy"), validUntilMs: now + 60_000 };
    const before = exchange.exchanges;
    expect((await tokens.token("plan", settings, SECRET_CLIENT.secret, subject)).kind).toBe("token");
    now += 50_000; // the 300 s backend token is kept for 54 s: 60 s less a tenth
    expect((await tokens.token("plan", settings, SECRET_CLIENT.secret, subject)).kind).toBe("token");
    expect(exchange.exchanges - before).toBe(1);
    now += 5_000;
    expect((await tokens.token("plan", settings, SECRET_CLIENT.secret, subject)).kind).toBe("token");
    expect(exchange.exchanges - before).toBe(2);
  });

  it("counts a hanging token endpoint against the plan's backend timeout", async () => {
    const started = performance.now();
    const answer = await listPets("hanging", await tokenFor("ivan"));
    expect(answer).toMatchObject({ status: 200, isError: true });
    expect(answer.text).toContain("The backend did not answer within 300 ms.");
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("logs no token, client secret or key", async () => {
    const log = readFileSync(join(logDir, "gateway.log"), "utf8");
    expect(log).toContain("backend token request refused");
    for (const secret of [SECRET_CLIENT.secret, ...exchange.subjectTokens]) expect(log).not.toContain(secret);
    expect(log).not.toContain("PRIVATE KEY");
    for (const header of backend.authorizations) expect(log).not.toContain(header.replace(/^Bearer /, ""));
  });

  it("is refused by the schema without oauth, with a placement, or forwarding Authorization (400, naming it)", async () => {
    const refused = async (extra: Record<string, unknown>, secret: Record<string, unknown> = {}) => {
      const response = await stack.controlPlane.admin.call("POST", "/api/v1/configuration-plans", {
        name: "refused-exchange",
        serviceId: stack.serviceId,
        backendEndpoint: backend.url,
        backendSecret: {
          tokenExchange: { tokenUrl: exchange.tokenUrl, clientId: SECRET_CLIENT.id, clientSecret: { env: "${env:X}" } },
          ...secret,
        },
        ...extra,
      });
      expect(response.status).toBe(400);
      return JSON.stringify(response.body);
    };
    const oauth = { oauth: { issuer: endpointAs.issuer } };
    expect(await refused({})).toContain("backendSecret.tokenExchange needs oauth");
    expect(await refused(oauth, { prefix: "Token " })).toContain(
      "with tokenExchange the token is always sent as 'Authorization: Bearer <token>'",
    );
    expect(await refused({ ...oauth, headerPolicy: { forwardRequestHeaders: ["authorization"] } })).toContain(
      "the caller's own token must never reach the backend",
    );
    const both = await stack.controlPlane.admin.call("POST", "/api/v1/configuration-plans", {
      name: "refused-exchange",
      serviceId: stack.serviceId,
      backendEndpoint: backend.url,
      ...oauth,
      backendSecret: {
        tokenExchange: {
          tokenUrl: exchange.tokenUrl,
          issuer: exchange.issuer,
          clientId: SECRET_CLIENT.id,
          clientSecret: { env: "${env:X}" },
        },
      },
    });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body)).toContain("exactly one of tokenUrl, issuer must be set");
  });
});
