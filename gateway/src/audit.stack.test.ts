/**
 * Which backend identity a tool call's audit event names, through a real control plane and
 * gateway: a stored secret by its id, a `${env:…}` secret by its variable, client credentials by
 * the client id, an elicited credential of a 2025 session without OAuth by the word `session`;
 * and none of the credentials themselves (nor the session id) in the audit file. Token exchange
 * (the caller's issuer and subject) is checked in token-exchange.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recordSecret } from "@atrium/reliability/secrets";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { connectLegacyClient, modernRequest, type Stack, startStack, waitFor } from "./testing.ts";

const STORED_VALUE = "stored-backend-secret-value-0123456789";
const ENV_VARIABLE = "ATRIUM_AUDIT_TEST_BACKEND_SECRET";
const ENV_VALUE = "env-backend-secret-value-0123456789";
const CLIENT = { id: "audit-client", secret: "audit-client-secret-0123456789" };

let stack: Stack;
let gateway: Gateway;
let auditDir: string;
let secretId: string;
const exposed: Record<string, { id: string; apiKey: string }> = {};

beforeAll(async () => {
  recordSecret("stored backend secret", STORED_VALUE);
  recordSecret("env backend secret", ENV_VALUE);
  recordSecret("audit client secret", CLIENT.secret);
  process.env[ENV_VARIABLE] = ENV_VALUE;
  stack = await startStack();
  const admin = stack.controlPlane.admin;
  const stored = async (name: string, value: string) =>
    (await admin.call("POST", "/api/v1/secrets", { name, value })).body.id as string;
  secretId = await stored("audit-backend-secret", STORED_VALUE);
  const clientSecretId = await stored("audit-client-secret", CLIENT.secret);
  const plans: Record<string, Record<string, unknown>> = {
    stored: { secretId },
    env: { env: `\${env:${ENV_VARIABLE}}` },
    // Nothing listens there: the call fails at the token endpoint, and is audited all the same.
    client: {
      oauth2ClientCredentials: {
        tokenUrl: "http://127.0.0.1:9/token",
        clientId: CLIENT.id,
        clientSecret: { secretId: clientSecretId },
      },
    },
    elicit: { elicit: { description: "Your pet store key" } },
  };
  for (const [name, backendSecret] of Object.entries(plans)) {
    const { expositionId, apiKey } = await stack.expose(`audit-${name}`, {
      plan: { apiKey: true, audit: true, backendSecret },
    });
    exposed[name] = { id: expositionId, apiKey: apiKey ?? "" };
  }
  auditDir = mkdtempSync(join(tmpdir(), "atrium-audit-backend-"));
  gateway = await stack.startGateway({ auditFile: join(auditDir, "audit.jsonl"), envAllow: [ENV_VARIABLE] });
  await waitFor(
    () => Object.values(exposed).every(({ id }) => gateway.registry.byId(id)),
    "the audited expositions served",
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
  delete process.env[ENV_VARIABLE];
  if (auditDir) rmSync(auditDir, { recursive: true, force: true });
});

async function callListPets(name: string): Promise<void> {
  const { id, apiKey } = exposed[name] ?? { id: "", apiKey: "" };
  const response = await request(
    `${gateway.url}/mcp/${id}`,
    modernRequest("tools/call", { name: "listPets", arguments: {} }, { headers: { "x-atrium-key": apiKey } }),
  );
  expect(response.statusCode).toBe(200);
  await response.body.dump();
}

// biome-ignore lint/suspicious/noExplicitAny: audit events are read field by field
function toolCallEvents(expositionId: string): any[] {
  return readFileSync(join(auditDir, "audit.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes('"action":"tool_call"'))
    .map((line) => JSON.parse(line))
    .filter((event) => event.atrium.exposition.id === expositionId);
}

async function backendOfCall(name: string) {
  const id = exposed[name]?.id ?? "";
  await waitFor(() => toolCallEvents(id).length > 0, `the audit event of ${name}`);
  return toolCallEvents(id).at(-1).atrium.backend;
}

describe("the backend identity in tool-call audit events", () => {
  it("names a stored secret by its id, an environment secret by its variable, never their values", async () => {
    await callListPets("stored");
    await callListPets("env");
    expect(await backendOfCall("stored")).toEqual({
      credential_source: "value",
      subject: { kind: "secret", id: secretId },
    });
    expect(await backendOfCall("env")).toEqual({
      credential_source: "env",
      subject: { kind: "env", id: ENV_VARIABLE },
    });
    // The backend got them: the audit file did not.
    const sent = stack.backend.received.map((r) => r.headers.authorization);
    expect(sent).toEqual(expect.arrayContaining([STORED_VALUE, ENV_VALUE]));
  });

  it("names client credentials by the client id, even when the token request fails", async () => {
    await callListPets("client");
    expect(await backendOfCall("client")).toEqual({
      credential_source: "oauth2ClientCredentials",
      subject: { kind: "client", id: CLIENT.id },
    });
    // Read once backendOfCall has waited for the event: the audit file is written after the answer.
    const event = toolCallEvents(exposed.client?.id ?? "").at(-1);
    expect(event.event.outcome).toBe("failure");
  });

  it("names a 2025 session without OAuth as a session, without its id", async () => {
    const { id, apiKey } = exposed.elicit ?? { id: "", apiKey: "" };
    const client = await connectLegacyClient(`${gateway.url}/mcp/${id}`, apiKey);
    const sessionId = (client.transport as { sessionId?: string } | undefined)?.sessionId;
    try {
      await client.callTool({ name: "listPets", arguments: {} }).catch(() => undefined);
    } finally {
      await client.close();
    }
    expect(await backendOfCall("elicit")).toEqual({ credential_source: "elicit", subject: { kind: "session" } });
    expect(sessionId).toBeTruthy();
    expect(readFileSync(join(auditDir, "audit.jsonl"), "utf8")).not.toContain(String(sessionId));
  });

  it("puts no credential in the audit file", async () => {
    const audit = readFileSync(join(auditDir, "audit.jsonl"), "utf8");
    expect(audit).toContain('"action":"tool_call"');
    for (const secret of [STORED_VALUE, ENV_VALUE, CLIENT.secret, ...Object.values(exposed).map((e) => e.apiKey)]) {
      expect(audit).not.toContain(secret);
    }
  });
});
