/**
 * The elicitation page's sign-in (`backendSecret.elicit.signIn`) with real parts: a real control
 * plane (PGlite), a gateway with a cluster key, oidc-provider as the plan's authorization server
 * (the page's client registered there dynamically, public, PKCE), the official MCP clients and
 * real Chromium. The user opening the URL is sent to sign in, comes back, fills in the form and
 * the retried call succeeds; another user signing in is refused (403) and nothing is stored; a
 * tampered state, a callback from another browser, a cancelled sign-in, a submit without the
 * sign-in and one with another link's sign-in are each refused.
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
import { PAGE_HEADERS } from "./page.ts";
import { newPetKey } from "./page-testing.ts";
import { BINDING_COOKIE, proofCookie, SIGN_IN_CALLBACK_PATH } from "./sign-in.ts";

const AUDIENCE = "sign-in-test";
const LABEL = "Your Pet Store API key";
const USER = "page-user";
const browser = useBrowser();
let stack: Stack;
let as: TestAuthorizationServer;
let gateway: Gateway;
let expositionId = "";

/** The page's client at the authorization server: public, code + PKCE, the gateway's callback. */
async function registerPageClient(redirectUri: string): Promise<string> {
  const response = await fetch(`${as.issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      response_types: ["code"],
    }),
  });
  const body = (await response.json()) as { client_id?: string; error_description?: string };
  if (!body.client_id) throw new Error(`registration refused: ${body.error_description}`);
  return body.client_id;
}

beforeAll(async () => {
  stack = await startStack();
  as = await startAuthorizationServer();
  gateway = await stack.startGateway({ clusterKey: randomBytes(32) });
  const clientId = await registerPageClient(`${gateway.url}${SIGN_IN_CALLBACK_PATH}`);
  expositionId = (
    await stack.expose("signed", {
      plan: {
        oauth: { issuer: as.issuer, audience: AUDIENCE },
        backendSecret: { elicit: { description: LABEL, signIn: { clientId } }, name: "X-Pet-Key", prefix: "Key " },
      },
    })
  ).expositionId;
  await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the signed-in Exposition served");
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await as?.close();
});

/** A 2025 client of the user `sub`, and the page URL its first call is refused with. */
async function askedFor(sub: string): Promise<{ client: V1Client; url: string }> {
  const token = await as.mint({ sub, aud: AUDIENCE });
  const client = new V1Client({ name: "sign-in-test", version: "1" }, { capabilities: { elicitation: { url: {} } } });
  await client.connect(
    new V1Transport(new URL(`${gateway.url}/mcp/${expositionId}`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const refused = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(UrlElicitationRequiredError);
  return { client, url: (refused as UrlElicitationRequiredError).elicitations[0]?.url as string };
}

/** The page's first answer without following it: the redirect to sign in, its state and binding cookie. */
async function startSignIn(url: string): Promise<{ authorize: URL; state: string; cookie: string }> {
  const answer = await request(url);
  expect(answer.statusCode).toBe(303);
  await answer.body.dump();
  const authorize = new URL(String(answer.headers.location));
  const setCookie = String(answer.headers["set-cookie"]);
  expect(setCookie).toMatch(new RegExp(`^${BINDING_COOKIE}=[^;]+; Max-Age=900; HttpOnly; SameSite=Lax$`));
  return { authorize, state: authorize.searchParams.get("state") as string, cookie: setCookie.split(";")[0] as string };
}

async function callback(query: Record<string, string>, cookie?: string) {
  const answer = await request(`${gateway.url}${SIGN_IN_CALLBACK_PATH}?${new URLSearchParams(query)}`, {
    headers: cookie ? { cookie } : {},
  });
  return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
}

describe("the elicitation page with sign-in", () => {
  it("2026-07-28: the user signs in at the authorization server in Chromium, gives the key, and the retry succeeds", async () => {
    const credential = newPetKey();
    as.loginAs = USER;
    const client = new V2Client(
      { name: "sign-in-test", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { url: {} } } },
    );
    const visited: string[] = [];
    client.setRequestHandler("elicitation/create", async (asked) => {
      if (asked.params.mode !== "url") throw new Error("expected URL mode");
      const page = await browser.page();
      page.on("request", (sent) => {
        if (sent.isNavigationRequest()) visited.push(sent.url());
      });
      const shown = await page.goto(asked.params.url);
      // After the authorization server and the callback: the page's own form, with its headers.
      expect(shown?.status()).toBe(200);
      const headers = (await shown?.allHeaders()) ?? {};
      for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(headers[name], name).toBe(value);
      expect(page.url()).toBe(asked.params.url);
      await page.getByLabel(LABEL).fill(credential);
      await page.getByRole("button", { name: "Save credential" }).click();
      await page.getByRole("heading", { name: "Credential saved" }).waitFor();
      return { action: "accept" };
    });
    const token = await as.mint({ sub: USER, aud: AUDIENCE });
    await client.connect(
      new V2Transport(new URL(`${gateway.url}/mcp/${expositionId}`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(stack.backend.received.at(-1)?.headers["x-pet-key"]).toBe(`Key ${credential}`);
    // The browser went to the authorization server and came back through the callback.
    const authorize = new URL(visited.find((url) => url.startsWith(`${as.issuer}/auth`)) as string);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: "code",
      scope: "openid",
      redirect_uri: `${gateway.url}${SIGN_IN_CALLBACK_PATH}`,
      code_challenge_method: "S256",
    });
    expect(visited.some((url) => url.startsWith(`${gateway.url}${SIGN_IN_CALLBACK_PATH}?code=`))).toBe(true);
    await client.close();
  });

  it("another user signing in is refused with 403 and nothing is stored; the right user then can", async () => {
    const { client, url } = await askedFor("owner-1");
    const page = await browser.page();
    as.loginAs = "mallory";
    const refused = await page.goto(url);
    expect(refused?.status()).toBe(403);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Signed in as another user than the one the agent asked for",
    );
    expect(await page.getByLabel(LABEL).count()).toBe(0);
    // Nothing stored: the call is still asked for a credential.
    const again = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(UrlElicitationRequiredError);

    // The link was not used up: signing in as its user opens the form.
    const credential = newPetKey();
    as.loginAs = "owner-1";
    await page.getByRole("link", { name: "Sign in again" }).click();
    await page.getByLabel(LABEL).fill(credential);
    await page.getByRole("button", { name: "Save credential" }).click();
    await page.getByRole("heading", { name: "Credential saved" }).waitFor();
    const result = await client.callTool({ name: "listPets", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(stack.backend.received.at(-1)?.headers["x-pet-key"]).toBe(`Key ${credential}`);
    await client.close();
  });

  it("the redirect carries a sealed state, PKCE S256 and a nonce; a tampered state is refused", async () => {
    const { client, url } = await askedFor("owner-2");
    const { authorize, state, cookie } = await startSignIn(url);
    expect(authorize.origin).toBe(as.issuer);
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The state is sealed: the elicitation id of the URL is not readable in it.
    expect(state).not.toContain(url.split("/").at(-1));
    const flipped = `${state.slice(0, -2)}${state.at(-2) === "A" ? "B" : "A"}${state.at(-1)}`;
    const tampered = await callback({ code: "any", state: flipped }, cookie);
    expect(tampered.status).toBe(400);
    expect(tampered.text).toContain("This sign-in could not be checked");
    expect(tampered.headers["cache-control"]).toBe("no-store");
    const missing = await callback({ code: "any" }, cookie);
    expect(missing.status).toBe(400);
    await client.close();
  });

  it("a callback from another browser (no binding cookie) and a cancelled sign-in are refused, nothing signed in", async () => {
    const { client, url } = await askedFor("owner-3");
    const { state, cookie } = await startSignIn(url);
    const elsewhere = await callback({ code: "any", state });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain("This sign-in was started in another browser");
    const cancelled = await callback({ error: "access_denied", state }, cookie);
    expect(cancelled.status).toBe(403);
    expect(cancelled.text).toContain("Sign-in was cancelled or refused");
    const otherError = await callback({ error: "server_error", state }, cookie);
    expect(otherError.status).toBe(400);
    expect(otherError.text).toContain("The sign-in did not succeed");
    // A code the authorization server never issued: the exchange fails, nobody is signed in.
    const forged = await callback({ code: "forged-code", state }, cookie);
    expect(forged.status).toBe(502);
    expect(String(forged.headers["set-cookie"] ?? "")).not.toContain(proofCookie(url.split("/").at(-1) as string));
    await client.close();
  });

  it("a sign-in holds for its own link only: its proof does not open another elicitation of the same user", async () => {
    const first = await askedFor("owner-5");
    const second = await askedFor("owner-5");
    as.loginAs = "owner-5";
    const page = await browser.page();
    await page.goto(first.url);
    await page.getByLabel(LABEL).waitFor();
    const firstId = first.url.split("/").at(-1) as string;
    const secondId = second.url.split("/").at(-1) as string;
    const proof = (await page.context().cookies()).find((cookie) => cookie.name === proofCookie(firstId));
    expect(proof?.httpOnly).toBe(true);
    for (const cookie of [`${proofCookie(secondId)}=${proof?.value}`, `${proofCookie(firstId)}=${proof?.value}`]) {
      const submitted = await request(second.url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ credential: newPetKey(), intent: "store", csrf: "x" }).toString(),
      });
      expect(submitted.statusCode).toBe(403);
      expect(await submitted.body.text()).toContain("Sign in first");
    }
    await first.client.close();
    await second.client.close();
  });

  it("a submit without the sign-in is refused with 403, and stores nothing", async () => {
    const { client, url } = await askedFor("owner-4");
    const submitted = await request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ credential: newPetKey(), intent: "store", csrf: "x" }).toString(),
    });
    expect(submitted.statusCode).toBe(403);
    expect(await submitted.body.text()).toContain("Sign in first");
    // A proof cookie of another elicitation, or a made-up one, is no sign-in either.
    const madeUp = await request(url, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `${proofCookie(url.split("/").at(-1) as string)}=abc.def`,
      },
      body: new URLSearchParams({ credential: newPetKey(), intent: "store", csrf: "x" }).toString(),
    });
    expect(madeUp.statusCode).toBe(403);
    await madeUp.body.dump();
    const again = await client.callTool({ name: "listPets", arguments: {} }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(UrlElicitationRequiredError);
    await client.close();
  });
});
