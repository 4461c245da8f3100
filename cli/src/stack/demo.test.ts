/**
 * `atrium run --demo`'s per-user-key Exposition, against a real control plane and gateway: the
 * demo's pet store below /keyed refuses a call without a key; setUpDemo publishes it with a plan
 * whose key is elicited from each 2025 session (no OAuth), so a session's call is answered -32042
 * with the gateway's page URL, where a key given makes the session's next call succeed; a second
 * setUpDemo reuses what exists.
 */
import { loginAnswer } from "@atrium/contract/rest";
import { TEST_ADMIN } from "@atrium/control-plane/testing";
import { startDemoBackend } from "@atrium/demo";
import { type Stack, startStack, waitFor } from "@atrium/gateway/testing";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../api.ts";
import { setUpDemo } from "./demo.ts";

let stack: Stack;
let backend: Awaited<ReturnType<typeof startDemoBackend>>;
const allowHosts = process.env.ATRIUM_IMPORT_ALLOW_HOSTS;

beforeAll(async () => {
  backend = await startDemoBackend(0);
  // The demo imports its document from a loopback URL, which `atrium run --demo` opens the same way.
  process.env.ATRIUM_IMPORT_ALLOW_HOSTS = new URL(backend.url).host;
  stack = await startStack();
}, 60_000);

afterAll(async () => {
  if (allowHosts === undefined) delete process.env.ATRIUM_IMPORT_ALLOW_HOSTS;
  else process.env.ATRIUM_IMPORT_ALLOW_HOSTS = allowHosts;
  await stack?.close();
  await new Promise((resolve) => backend?.server.close(resolve));
});

async function mcp(url: string, body: unknown, sessionId?: string) {
  const response = await request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } : {}),
    },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are read field by field
  return { status: response.statusCode, headers: response.headers, body: (await response.body.json()) as any };
}

describe("the demo's per-user-key Exposition", () => {
  it("its pet store needs a key below /keyed", async () => {
    const without = await request(`${backend.url}/keyed/pets`);
    expect(without.statusCode).toBe(401);
    expect(await without.body.text()).toContain("X-Pet-Key");
    const revoked = await request(`${backend.url}/keyed/pets`, { headers: { "x-pet-key": "revoked" } });
    expect(revoked.statusCode).toBe(401);
    await revoked.body.dump();
    const keyed = await request(`${backend.url}/keyed/pets`, { headers: { "x-pet-key": "pk_demo_alice" } });
    expect(keyed.statusCode).toBe(200);
    expect(await keyed.body.text()).toContain("Rex");
  });

  it("is published with an elicited key: a 2025 session gives it on the gateway's page, then its call succeeds", async () => {
    const login = await apiClient({ baseUrl: stack.controlPlane.url }).post("/login", TEST_ADMIN, loginAnswer);
    const api = apiClient({ baseUrl: stack.controlPlane.url, token: login.token });
    const placeholder = "http://gateway.invalid";
    const demo = await setUpDemo(api, { backendUrl: backend.url, gatewayUrl: placeholder });
    expect(demo.keyedEndpoint).toBe(`${placeholder}/mcp/default/demo-petstore-keys`);
    // The demo's gateway group is `local` (env=local).
    const gateway = await stack.startGateway({ labels: { env: "local" } });
    await waitFor(() => gateway.registry.size === 2, "both demo Expositions served");

    const endpoint = demo.keyedEndpoint.replace(placeholder, gateway.url);
    const opened = await mcp(endpoint, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: { url: {} } },
        clientInfo: { name: "demo-test", version: "1" },
      },
    });
    expect(opened.status).toBe(200);
    const sessionId = String(opened.headers["mcp-session-id"]);
    const called = await mcp(
      endpoint,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "listPets", arguments: {} } },
      sessionId,
    );
    expect(called.status).toBe(200);
    expect(called.body.error.code).toBe(-32042);
    const [asked] = called.body.error.data.elicitations;
    expect(asked.mode).toBe("url");
    expect(asked.url).toBe(`${gateway.url}/elicitations/${asked.elicitationId}`);
    expect(asked.message).toContain("Your Pet Store key");

    // The user gives a key on the page (as a browser without JavaScript does), and the call goes through.
    const page = await request(asked.url);
    const form = await page.body.text();
    expect(page.statusCode).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] as string;
    const setCookie = page.headers["set-cookie"];
    const cookie = String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(";")[0] as string;
    const submitted = await request(asked.url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrf, credential: "pk_demo_alice", intent: "store" }).toString(),
    });
    await submitted.body.dump();
    expect(submitted.statusCode).toBe(200);
    const retried = await mcp(
      endpoint,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "listPets", arguments: {} } },
      sessionId,
    );
    expect(retried.body.result.isError).toBeFalsy();
    expect(JSON.stringify(retried.body.result.content)).toContain("Rex");

    // Idempotent: a second run finds both Expositions.
    const again = await setUpDemo(api, { backendUrl: backend.url, gatewayUrl: placeholder });
    expect(again.keyedEndpoint).toBe(demo.keyedEndpoint);
    const plans = await stack.controlPlane.admin.call("GET", "/api/v1/configuration-plans");
    const names = (plans.body.items as { name: string }[]).map((plan) => plan.name).filter((n) => n.startsWith("demo"));
    expect(names.sort()).toEqual(["demo-petstore", "demo-petstore-keys"]);
  });
});
