/**
 * The whole round trip with the page in real Chromium: a real control plane (PGlite), a gateway
 * with a cluster key serving the page, oidc-provider for the users' tokens, the official MCP
 * clients. The client's URL elicitation is answered by opening its URL in Chromium, filling in
 * the form by its label and submitting it; the call then succeeds with the key in the plan's
 * header and prefix (2026-07-28, v2 client, OAuth user) or query parameter (2025, v1 client,
 * session). The gateway's page answers carry the security headers; its log is scanned for the
 * keys at the end of the run (recordSecret).
 */
import { randomBytes } from "node:crypto";
import { useBrowser } from "@atrium/test-browser";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuthorizationServer, type TestAuthorizationServer } from "../auth/testing.ts";
import type { Gateway } from "../gateway.ts";
import { type Stack, startStack, waitFor } from "../testing.ts";
import { newElicitationId } from "./elicitation-id.ts";
import { PAGE_HEADERS } from "./page.ts";
import { newPetKey } from "./page-testing.ts";

const AUDIENCE = "page-test";
const LABEL = "Your Pet Store API key";
const browser = useBrowser();
let stack: Stack;
let as: TestAuthorizationServer;
let gateway: Gateway;
const ids = { users: "", sessions: "" };

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  const elicit = { elicit: { description: LABEL } };
  ids.users = (
    await stack.expose("users", {
      plan: {
        oauth: { issuer: as.issuer, audience: AUDIENCE },
        backendSecret: { ...elicit, name: "X-Pet-Key", prefix: "Key " },
      },
    })
  ).expositionId;
  ids.sessions = (
    await stack.expose("sessions", { plan: { backendSecret: { ...elicit, in: "query", name: "api_key" } } })
  ).expositionId;
  gateway = await stack.startGateway({ clusterKey: randomBytes(32) });
  await waitFor(
    () => gateway.registry.byId(ids.users) !== undefined && gateway.registry.byId(ids.sessions) !== undefined,
    "both elicited Expositions served",
  );
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await as?.close();
});

/** What the user does with the URL: open it, read what is asked, give the key, see it saved. */
async function giveOnPage(url: string, credential: string): Promise<void> {
  const page = await browser.page();
  const shown = await page.goto(url);
  expect(shown?.status()).toBe(200);
  const headers = (await shown?.allHeaders()) ?? {};
  for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(headers[name], name).toBe(value);
  expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(LABEL);
  await page.getByLabel(LABEL).fill(credential);
  await page.getByRole("button", { name: "Save credential" }).click();
  await page.getByRole("heading", { name: "Credential saved" }).waitFor();
  expect(page.url()).toBe(url);
}

describe("the page in the round trip", () => {
  it("2026-07-28: the v2 client's URL elicitation is done in Chromium, and its retry calls the backend with the key", async () => {
    const credential = newPetKey();
    const client = new V2Client(
      { name: "page-test", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { url: {} } } },
    );
    const opened: string[] = [];
    client.setRequestHandler("elicitation/create", async (asked) => {
      if (asked.params.mode !== "url") throw new Error("expected URL mode");
      opened.push(asked.params.url);
      await giveOnPage(asked.params.url, credential);
      return { action: "accept" };
    });
    const token = await as.mint({ sub: "page-user", aud: AUDIENCE });
    await client.connect(
      new V2Transport(new URL(`${gateway.url}/mcp/${ids.users}`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(opened).toEqual([expect.stringMatching(new RegExp(`^${gateway.url}/elicitations/[A-Za-z0-9_-]{43}$`))]);
    expect(stack.backend.received.at(-1)?.headers["x-pet-key"]).toBe(`Key ${credential}`);
    await client.close();
  });

  it("2025: the v1 client's -32042 URL is done in Chromium, and the call then goes through with the session's key", async () => {
    const credential = newPetKey();
    const client = new V1Client({ name: "page-test", version: "1" }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(new V1Transport(new URL(`${gateway.url}/mcp/${ids.sessions}`)));
    const refused = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
    const [asked] = (refused as UrlElicitationRequiredError).elicitations;
    await giveOnPage(asked?.url as string, credential);
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(stack.backend.received.at(-1)?.url).toBe(`/api/pets?api_key=${credential}`);
    await client.close();
  });

  it("the gateway answers an unknown link with the page's 404, with the same headers", async () => {
    const answer = await request(`${gateway.url}/elicitations/${newElicitationId()}`);
    expect(answer.statusCode).toBe(404);
    for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(answer.headers[name], name).toBe(value);
    expect(await answer.body.text()).toContain("This link is not valid");
  });
});
