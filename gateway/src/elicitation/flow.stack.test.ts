/**
 * The elicited-credential flow end to end: a real control plane (PGlite), two gateway replicas
 * sharing one cluster key, a backend that checks the key it is sent, the official MCP clients
 * (v2 pinned to 2026-07-28, v1 for the 2025 eras). The user's side of the page is done the way
 * the page does it: consume the pending elicitation, store the credential for its principal.
 *
 * Modern era: `input_required` with a URL-mode elicitation and a sealed requestState; -32021
 * without the URL capability; each requestState refusal; the v2 client's retry succeeds once the
 * credential is stored, with the key in the plan's header and prefix; elicited on one replica,
 * served by the other; a plan without oauth is refused in that era. 2025 eras: -32042 read by the
 * v1 SDK as UrlElicitationRequiredError, the credential bound to the session (or the OAuth user);
 * a resource read uses a stored credential and never asks. A backend 401 evicts the credential
 * and the next call asks again.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { RestClient } from "@atrium/contract/rest-client";
import { recordSecret } from "@atrium/reliability/secrets";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/testing.ts";
import type { Gateway } from "../gateway.ts";
import { managementUrl } from "../server.ts";
import { listenLocally, modernHeaders, type Stack, startStack, waitFor } from "../testing.ts";
import { ClusterKeyring } from "./cluster-keys.ts";
import { type CredentialScope, credentialScope, ElicitedCredentialStore, principalDigest } from "./credential-store.ts";
import { CREDENTIAL_INPUT } from "./flow.ts";
import { PendingElicitations } from "./pending-elicitations.ts";
import { type RequestPrincipal, sealRequestState } from "./request-state.ts";

const AUDIENCE = "elicitation-test";
const clusterKey = randomBytes(32);
const keyring = new ClusterKeyring([clusterKey]);
const URL_CAPABLE = { elicitation: { url: {} } };

let stack: Stack;
let as: TestAuthorizationServer;
let replicaA: Gateway;
let replicaB: Gateway;
let backend: { url: string; close(): Promise<void>; seen: { url: string; key: string | undefined }[] };
let store: ElicitedCredentialStore;
let pending: PendingElicitations;
/** Exposition ids: `users` (oauth, key in X-Pet-Key with a prefix), `sessions` (no oauth, key in the query). */
const ids = { users: "", sessions: "" };

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  const seen: { url: string; key: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://backend");
    const key = (req.headers["x-pet-key"] as string | undefined) ?? url.searchParams.get("api_key") ?? undefined;
    seen.push({ url: req.url ?? "", key });
    const refused = key === undefined || key.endsWith("revoked-key");
    res.writeHead(refused ? 401 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify(refused ? { error: "bad key" } : [{ id: 1, name: "Rex", status: "available" }]));
  });
  backend = { ...(await listenLocally(server)), seen };
  // A resource read from the backend: it uses a stored credential and never asks for one.
  await stack.controlPlane.admin.call("POST", "/api/v1/resources", {
    name: "pets",
    serviceId: stack.serviceId,
    resourceTemplates: [{ uriTemplate: "pets://{petId}", name: "pet", fromBackend: { path: "/pets/{{petId}}" } }],
  });
  const publish = async (name: keyof typeof ids, plan: Record<string, unknown>) => {
    ids[name] = (await stack.expose(name, { plan: { backendEndpoint: `${backend.url}/api`, ...plan } })).expositionId;
  };
  await publish("users", {
    oauth: { issuer: as.issuer, audience: AUDIENCE },
    backendSecret: { elicit: { description: "Your Pet Store API key" }, name: "X-Pet-Key", prefix: "Key " },
  });
  await publish("sessions", {
    backendSecret: { elicit: { description: "Your Pet Store API key" }, in: "query", name: "api_key" },
  });
  replicaA = await stack.startGateway({ clusterKey });
  replicaB = await stack.startGateway({ clusterKey });
  for (const gateway of [replicaA, replicaB])
    await waitFor(
      () =>
        gateway.registry.byId(ids.users)?.exposition.resourceTemplates.length === 1 &&
        gateway.registry.byId(ids.sessions)?.exposition.resourceTemplates.length === 1,
      "both elicited Expositions served, with the resource template",
    );
  const rest = new RestClient({ baseUrl: stack.controlPlane.url, token: stack.token });
  // No cache: what the test reads is what the control plane holds.
  store = new ElicitedCredentialStore(rest, keyring, { cacheTtlMs: 0 });
  pending = new PendingElicitations(rest);
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await as?.close();
  await backend?.close();
});

const user = (sub: string): RequestPrincipal => ({ iss: as.issuer, sub });
const tokenOf = (sub: string) => as.mint({ sub, aud: AUDIENCE });

/** A user's backend key, in the ledger the log scan checks: it must never reach a log. */
function key(value: string): string {
  recordSecret("elicited credential", value);
  return value;
}

/** The scope the gateways use for an Exposition's credentials: its id and its plan's backend. */
function scopeOf(expositionId: string): CredentialScope {
  const served = replicaA.registry.byId(expositionId);
  if (!served) throw new Error(`exposition ${expositionId} is not served`);
  return credentialScope(served.exposition);
}

/** What the page does on submit: use the elicitation up, store the credential for whom it was asked. */
async function submitOnPage(url: string, credential: string): Promise<void> {
  const id = new URL(url).pathname.split("/").pop() as string;
  const consumed = await pending.consume(id);
  if (!consumed.ok) throw new Error(`elicitation ${consumed.reason}`);
  const { expositionId, principal } = consumed.elicitation;
  await store.put(scopeOf(expositionId), { digest: principal }, credential);
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are read field by field
type Answer = { status: number; body: any };

/** A raw 2026-07-28 tools/call on `gateway`. */
async function modernCall(
  gateway: Gateway,
  options: {
    token?: string;
    exposition?: string;
    tool?: string;
    arguments?: Record<string, unknown>;
    capabilities?: Record<string, unknown>;
    extra?: Record<string, unknown>;
  } = {},
): Promise<Answer> {
  const tool = options.tool ?? "listPets";
  const response = await request(`${gateway.url}/mcp/${options.exposition ?? ids.users}`, {
    method: "POST",
    headers: modernHeaders("tools/call", tool, options.token ? { authorization: `Bearer ${options.token}` } : {}),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: {
        name: tool,
        arguments: options.arguments ?? {},
        ...options.extra,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? URL_CAPABLE,
        },
      },
    }),
  });
  return { status: response.statusCode, body: await response.body.json() };
}

describe("MCP 2026-07-28", () => {
  it("answers input_required with a URL-mode elicitation and a sealed requestState, recorded for the user", async () => {
    const answer = await modernCall(replicaA, { token: await tokenOf("ana") });
    expect(answer.status).toBe(200);
    const { result } = answer.body;
    expect(result.resultType).toBe("input_required");
    expect(Object.keys(result.inputRequests)).toEqual([CREDENTIAL_INPUT]);
    const asked = result.inputRequests[CREDENTIAL_INPUT];
    expect(asked.method).toBe("elicitation/create");
    expect(asked.params).toEqual({
      mode: "url",
      message: "Your Pet Store API key",
      url: expect.stringMatching(new RegExp(`^${replicaA.url}/elicitations/[A-Za-z0-9_-]{43}$`)),
    });
    expect(result.requestState).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // Sealed: nothing of the call reads through. Checked on the decoded bytes, where a three-letter
    // name has a chance in millions to appear by accident (in the base64url text, one in a thousand).
    const sealed = Buffer.concat(
      (result.requestState as string).split(".").map((part) => Buffer.from(part, "base64url")),
    ).toString("latin1");
    for (const clear of ["ana", "listPets", ids.users]) expect(sealed).not.toContain(clear);
    // Counted as a call that reached no backend: the caller is asked for their credential.
    const metrics = await (await request(`${managementUrl(replicaA.app)}/q/metrics`)).body.text();
    expect(metrics).toMatch(
      new RegExp(
        `atrium_backend_responses_total\\{exposition="${ids.users}",tool="listPets",outcome="elicit"\\} [1-9]`,
      ),
    );
    const id = new URL(asked.params.url).pathname.split("/").pop() as string;
    expect(await pending.read(id)).toMatchObject({
      expositionId: ids.users,
      principal: principalDigest(user("ana")),
      tool: "listPets",
      usedAt: null,
    });
    expect(backend.seen.some((call) => call.key?.includes("ana"))).toBe(false);
  });

  it("refuses with HTTP 400 and -32021 a client that did not declare URL elicitation", async () => {
    for (const capabilities of [{}, { elicitation: {} }, { elicitation: { form: {} } }]) {
      const answer = await modernCall(replicaA, { token: await tokenOf("no-capability"), capabilities });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe(-32021);
      expect(answer.body.error.data).toEqual({ requiredCapabilities: { elicitation: { url: {} } } });
      expect(answer.body.error.message).toContain("elicitation.url");
    }
  });

  it("retries through the official v2 client: the key reaches the backend in the plan's header and prefix", async () => {
    const token = await tokenOf("carla");
    const client = new V2Client(
      { name: "flow-test", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { url: {} } } },
    );
    const opened: string[] = [];
    client.setRequestHandler("elicitation/create", async (asked) => {
      if (asked.params.mode !== "url") throw new Error("expected URL mode");
      opened.push(asked.params.url);
      await submitOnPage(asked.params.url, key("carla-key"));
      return { action: "accept" };
    });
    await client.connect(
      new V2Transport(new URL(`${replicaA.url}/mcp/${ids.users}`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Rex");
    expect(opened).toHaveLength(1);
    expect(backend.seen.at(-1)?.key).toBe("Key carla-key");
    // Stored: the next call goes straight through, without asking.
    await client.callTool({ name: "listPets", arguments: {} });
    expect(opened).toHaveLength(1);
    await client.close();
  });

  it("elicited on one replica, served by the other with the same requestState", async () => {
    const token = await tokenOf("dmitri");
    const asked = await modernCall(replicaA, { token, arguments: { status: "available" } });
    const { requestState, inputRequests } = asked.body.result;
    await submitOnPage(inputRequests[CREDENTIAL_INPUT].params.url, key("dmitri-key"));
    const retried = await modernCall(replicaB, {
      token,
      arguments: { status: "available" },
      extra: { requestState, inputResponses: { [CREDENTIAL_INPUT]: { action: "accept" } } },
    });
    expect(retried.status).toBe(200);
    expect(retried.body.result.resultType).toBe("complete");
    expect(retried.body.result.isError).toBeFalsy();
    expect(backend.seen.at(-1)).toEqual({ url: "/api/pets?status=available", key: "Key dmitri-key" });
  });

  it("a retry before the page was submitted gets the same page and state again; a declined one calls nothing", async () => {
    const token = await tokenOf("eve");
    const first = (await modernCall(replicaA, { token })).body.result;
    const again = (
      await modernCall(replicaB, { token, extra: { requestState: first.requestState, inputResponses: {} } })
    ).body.result;
    // The page on the replica the client reached, for the same elicitation.
    expect(again.requestState).toBe(first.requestState);
    const pathOf = (result: typeof first) => new URL(result.inputRequests[CREDENTIAL_INPUT].params.url).pathname;
    expect(pathOf(again)).toBe(pathOf(first));
    const calls = backend.seen.length;
    const declined = await modernCall(replicaA, {
      token,
      extra: { requestState: first.requestState, inputResponses: { [CREDENTIAL_INPUT]: { action: "decline" } } },
    });
    expect(declined.body.result).toMatchObject({ resultType: "complete", isError: true });
    expect(declined.body.result.content[0].text).toContain("not given (decline)");
    expect(backend.seen.length).toBe(calls);
  });

  it("refuses a requestState that was tampered with, expired, is another user's, or was issued for another call", async () => {
    const token = await tokenOf("frank");
    const { requestState } = (await modernCall(replicaA, { token, arguments: { status: "sold" } })).body.result;
    const retry = async (state: string, options: Parameters<typeof modernCall>[1] = {}) =>
      modernCall(replicaB, { token, arguments: { status: "sold" }, ...options, extra: { requestState: state } });
    const [keyId, body] = requestState.split(".");
    const flipped = Buffer.from(body, "base64url");
    flipped[20] = (flipped[20] as number) ^ 1;
    const expired = sealRequestState(
      keyring,
      { principal: user("frank"), expositionId: ids.users, tool: "listPets", arguments: { status: "sold" } },
      "an-elicitation",
      { now: Date.now() / 1000 - 3600 },
    );
    const cases: [string, Answer, string][] = [
      ["tampered", await retry(`${keyId}.${flipped.toString("base64url")}`), "integrity"],
      ["malformed", await retry("not a state"), "not a state this gateway issued"],
      ["unknown-key", await retry(`AAAAAAAA.${body}`), "cluster key"],
      ["expired", await retry(expired), "expired"],
      ["other-user", await retry(requestState, { token: await tokenOf("mallory") }), "another user"],
      ["other-tool", await retry(requestState, { tool: "echoHeaders", arguments: {} }), "another tool"],
      ["other-arguments", await retry(requestState, { arguments: { status: "available" } }), "other arguments"],
    ];
    for (const [reason, answer, text] of cases) {
      expect(answer.status, reason).toBe(400);
      expect(answer.body.error.code, reason).toBe(-32602);
      expect(answer.body.error.data, reason).toEqual({ reason });
      expect(answer.body.error.message, reason).toContain(text);
    }
    const notText = await retry(42 as unknown as string);
    expect(notText.status).toBe(400);
    expect(notText.body.error.message).toContain("requestState must be the string");
  });

  it("refuses a plan without oauth: that era has no session to tie the credential to", async () => {
    const answer = await modernCall(replicaA, { exposition: ids.sessions });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(-32600);
    expect(answer.body.error.message).toMatch(/has no oauth: connect with a 2025 protocol version/);
  });
});

describe("MCP 2025 eras", () => {
  async function legacyClient(exposition: string, token?: string) {
    const client = new V1Client({ name: "flow-test", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    const transport = new V1Transport(new URL(`${replicaA.url}/mcp/${exposition}`), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    });
    await client.connect(transport);
    return { client, sessionId: transport.sessionId as string };
  }

  it("answers -32042 with the page URL (UrlElicitationRequiredError); the key is the session's", async () => {
    const { client, sessionId } = await legacyClient(ids.sessions);
    const refused = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    const [asked, ...more] = (refused as UrlElicitationRequiredError).elicitations;
    expect(more).toEqual([]);
    expect(asked).toEqual({
      mode: "url",
      elicitationId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      url: `${replicaA.url}/elicitations/${asked?.elicitationId}`,
      message: "Your Pet Store API key",
    });
    expect(await pending.read(asked?.elicitationId as string)).toMatchObject({
      principal: principalDigest({ sessionId }),
      tool: "listPets",
    });
    await submitOnPage(asked?.url as string, key("session-key"));
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(backend.seen.at(-1)).toEqual({ url: "/api/pets?api_key=session-key", key: "session-key" });
    const read = await client.readResource({ uri: "pets://1" });
    expect(JSON.stringify(read.contents)).toContain("Rex");
    expect(backend.seen.at(-1)).toEqual({ url: "/api/pets/1?api_key=session-key", key: "session-key" });
    // Another session of the same endpoint has none; a resource read does not ask, it says how to give one.
    const other = await legacyClient(ids.sessions);
    await expect(other.client.callTool({ name: "listPets", arguments: {} })).rejects.toBeInstanceOf(
      UrlElicitationRequiredError,
    );
    const calls = backend.seen.length;
    await expect(other.client.readResource({ uri: "pets://1" })).rejects.toThrow(
      /Reading this resource needs your backend credential: call one of the Exposition's tools first/,
    );
    expect(backend.seen.length).toBe(calls);
    await client.close();
    await other.client.close();
  });

  it("on an OAuth plan the key is the user's, whichever era stored it", async () => {
    const token = await tokenOf("gwen");
    await store.put(scopeOf(ids.users), user("gwen"), key("gwen-key"));
    const { client } = await legacyClient(ids.users, token);
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(backend.seen.at(-1)?.key).toBe("Key gwen-key");
    await client.close();
  });
});

describe("a backend 401 on an elicited credential", () => {
  it("evicts it, and the next call asks again", async () => {
    const token = await tokenOf("hugo");
    await store.put(scopeOf(ids.users), user("hugo"), key("hugo-revoked-key"));
    const refused = await modernCall(replicaA, { token });
    expect(refused.body.result).toMatchObject({ resultType: "complete", isError: true });
    expect(refused.body.result.content[0].text).toContain("refused your credential (HTTP 401): it was forgotten");
    expect(backend.seen.at(-1)?.key).toBe("Key hugo-revoked-key");
    expect(await store.get(scopeOf(ids.users), user("hugo"))).toBeUndefined();
    const next = await modernCall(replicaB, { token });
    expect(next.body.result.resultType).toBe("input_required");
  });
});
