/**
 * The elicitation page over real HTTP, against a real control plane (PGlite): the form renders
 * with its heading, label and hint; a submit stores the credential for the elicitation's user,
 * openable by the call path, and uses the id up on every replica; of two submits at once exactly
 * one is stored; an unreachable control plane is a 503 page; CSRF refusals (no token, a
 * token of another id or browser, no cookie, a cross-site post) consume nothing; unknown, used,
 * expired and unserved ids; the body limit and the credential's own limits, the credential never
 * written back; revoke; the security headers on every answer; the credential in no log line,
 * even at trace level.
 */
import { randomBytes } from "node:crypto";
import { RestClient } from "@atrium/contract/rest-client";
import { recordSecret } from "@atrium/reliability/secrets";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClusterKeyring } from "./cluster-keys.ts";
import { ElicitedCredentialStore, principalDigest } from "./credential-store.ts";
import { newElicitationId } from "./elicitation-id.ts";
import { type ElicitationPageParts, PAGE_BODY_LIMIT, PAGE_HEADERS } from "./page.ts";
import { CSRF_COOKIE } from "./page-csrf.ts";
import { elicitingExposition, elicitingScope, type PageServer, pageServices, startPageServer } from "./page-testing.ts";
import { PendingElicitations } from "./pending-elicitations.ts";
import { useElicitationStack } from "./testing.ts";

const alice = { iss: "https://id.example", sub: "alice-7f3a" };
const stack = useElicitationStack();
const scope = () => elicitingScope(stack());
const keyring = new ClusterKeyring([randomBytes(32)]);
const logLines: string[] = [];

const startPage = (overrides: Partial<ElicitationPageParts> = {}) =>
  startPageServer(stack(), keyring, logLines, overrides);

/** Another page server (another replica, or other parts) for the time of `use`. */
async function withPage(overrides: Partial<ElicitationPageParts>, use: (url: string) => Promise<void>): Promise<void> {
  const other = await startPage(overrides);
  try {
    await use(other.url);
  } finally {
    await other.app.close();
  }
}
const services = (store?: ElicitedCredentialStore) => pageServices(stack(), keyring, store);

/** A browser of sorts: keeps the page's cookie, reads the hidden token, posts forms. */
class Visitor {
  cookie: string | undefined;
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  async get(path: string) {
    const answer = await request(`${this.base}${path}`, { headers: this.cookie ? { cookie: this.cookie } : {} });
    const body = await answer.body.text();
    const set = answer.headers["set-cookie"];
    const cookie = (Array.isArray(set) ? set[0] : set)?.split(";")[0];
    if (cookie) this.cookie = cookie;
    return {
      status: answer.statusCode,
      headers: answer.headers,
      body,
      csrf: /name="csrf" value="([^"]+)"/.exec(body)?.[1],
    };
  }

  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.postRaw(path, new URLSearchParams(fields).toString(), headers);
  }

  async postRaw(path: string, body: string, headers: Record<string, string> = {}) {
    const answer = await request(`${this.base}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      body,
    });
    return { status: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
  }
}

function expectPageHeaders(headers: Record<string, unknown>) {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(headers[name], name).toBe(value);
  expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(String(headers["content-security-policy"])).not.toContain("script-src");
  expect(String(headers["content-security-policy"])).toContain("frame-ancestors 'none'");
}

async function pendingId(ttlSeconds?: number): Promise<string> {
  const pending = new PendingElicitations(stack().rest);
  return (await pending.record(stack().expositionId, principalDigest(alice), "get_weather", ttlSeconds)).id;
}

function secret(): string {
  const value = `sk-live-${randomBytes(16).toString("hex")}`;
  recordSecret("elicited credential", value);
  return value;
}

describe("the elicitation page", () => {
  let page: PageServer;
  const store = () => new ElicitedCredentialStore(stack().rest, keyring);

  beforeAll(async () => {
    page = await startPage();
  });
  afterAll(async () => {
    await page?.app.close();
  });

  it("renders the form: lang, heading with the Exposition and what is asked, label, hint tied to the field", async () => {
    const id = await pendingId();
    const visitor = new Visitor(page.url);
    const shown = await visitor.get(`/elicitations/${id}`);
    expect(shown.status).toBe(200);
    expectPageHeaders(shown.headers);
    expect(shown.body).toContain('<html lang="en">');
    expect(shown.body).toContain("<h1>weather: Your OpenWeather API key</h1>");
    expect(shown.body).toContain('<label for="credential">Your OpenWeather API key</label>');
    expect(shown.body).toMatch(
      /<input id="credential" name="credential" type="password" required[^>]*aria-describedby="credential-hint"/,
    );
    expect(shown.body).toContain("the header <code>X-Api-Key</code>, after <code>Key </code>");
    // Where the credential goes: the plan's backend origin, so the user can tell a lure.
    expect(shown.body).toContain(`It is sent only to <code>${scope().backend}</code>`);
    expect(shown.body).toContain("<code>get_weather</code>");
    expect(shown.body).not.toContain("<script");
    expect(shown.csrf).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(shown.headers["set-cookie"]).toMatch(
      new RegExp(`^${CSRF_COOKIE}=[A-Za-z0-9_-]{43}; Max-Age=900; HttpOnly; SameSite=Strict$`),
    );
    const behindTls = await request(`${page.url}/elicitations/${id}`, { headers: { "x-forwarded-proto": "https" } });
    await behindTls.body.dump();
    expect(behindTls.headers["set-cookie"]).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    // Nothing focusable comes before the credential field.
    const beforeField = shown.body.slice(0, shown.body.indexOf('<input id="credential"'));
    expect(beforeField).not.toMatch(/<(a|button|select|textarea)\b|<input(?![^>]*type="hidden")/);
  });

  it("stores the credential for the elicitation's user, once: the call path opens it, a second submit is refused", async () => {
    const id = await pendingId();
    const credential = secret();
    const visitor = new Visitor(page.url);
    const { csrf } = await visitor.get(`/elicitations/${id}`);
    const saved = await visitor.post(`/elicitations/${id}`, { csrf: csrf as string, credential, intent: "store" });
    expect(saved.status).toBe(200);
    expectPageHeaders(saved.headers);
    expect(saved.body).toContain("<h1>Credential saved</h1>");
    expect(saved.body).toContain("You can return to your agent");
    expect(saved.body).not.toContain(credential);
    expect(await store().get(scope(), alice)).toBe(credential);

    const again = await visitor.post(`/elicitations/${id}`, {
      csrf: csrf as string,
      credential: secret(),
      intent: "store",
    });
    expect(again.status).toBe(410);
    expectPageHeaders(again.headers);
    expect(again.body).toContain("expired or was already used");
    expect(await store().get(scope(), alice)).toBe(credential);
    // Another replica (another page server on the same control plane) refuses it too.
    await withPage({}, async (replica) => {
      expect((await new Visitor(replica).get(`/elicitations/${id}`)).status).toBe(410);
    });
  });

  it("two submits at once: exactly one is stored, the other is told the link is used", async () => {
    const id = await pendingId();
    const visitor = new Visitor(page.url);
    const { csrf } = await visitor.get(`/elicitations/${id}`);
    const credentials = [secret(), secret()];
    const answers = await Promise.all(
      credentials.map((credential) => visitor.post(`/elicitations/${id}`, { csrf: csrf as string, credential })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
    const winner = credentials[answers.findIndex((answer) => answer.status === 200)];
    expect(await store().get(scope(), alice)).toBe(winner);
  });

  it("a control plane that cannot be reached: a 503 page, nothing shown", async () => {
    const unreachable = new RestClient({ baseUrl: "http://127.0.0.1:9", token: "atr_t_unused", timeoutMs: 2_000 });
    await withPage({ services: { ...services(), pending: new PendingElicitations(unreachable) } }, async (down) => {
      const answer = await new Visitor(down).get(`/elicitations/${newElicitationId()}`);
      expect(answer.status).toBe(503);
      expectPageHeaders(answer.headers);
      expect(answer.body).toContain("<h1>Try again in a minute</h1>");
      expect(answer.csrf).toBeUndefined();
    });
  });

  it("a plan asking for a sign-in on a page that cannot sign users in: a 503 page, no form, nothing stored", async () => {
    const served = elicitingExposition(stack().expositionId);
    const secretOf = served.plan.backendSecret as NonNullable<typeof served.plan.backendSecret>;
    const signInPlan = {
      ...served,
      plan: {
        ...served.plan,
        oauth: { issuer: alice.iss },
        backendSecret: { ...secretOf, signIn: { clientId: "atrium-page" } },
      },
    };
    await withPage({ exposition: () => signInPlan }, async (noSignIn) => {
      const id = await pendingId();
      const visitor = new Visitor(noSignIn);
      const shown = await visitor.get(`/elicitations/${id}`);
      expect(shown.status).toBe(503);
      expect(shown.csrf).toBeUndefined();
      const submitted = await visitor.post(`/elicitations/${id}`, { credential: secret(), intent: "store", csrf: "x" });
      expect(submitted.status).toBe(503);
      expect((await new PendingElicitations(stack().rest).read(id))?.usedAt).toBeNull();
    });
  });

  it("refuses a submit without the token, with another id's token, without the cookie, or from another site; nothing is consumed", async () => {
    const id = await pendingId();
    const other = await pendingId();
    const visitor = new Visitor(page.url);
    const { csrf } = await visitor.get(`/elicitations/${id}`);
    const { csrf: otherCsrf } = await visitor.get(`/elicitations/${other}`);
    const stranger = new Visitor(page.url);
    await stranger.get(`/elicitations/${id}`);
    const credential = secret();
    const attempts = [
      () => visitor.post(`/elicitations/${id}`, { credential }),
      () => visitor.post(`/elicitations/${id}`, { credential, csrf: "" }),
      () => visitor.post(`/elicitations/${id}`, { credential, csrf: otherCsrf as string }),
      () => visitor.post(`/elicitations/${id}`, { credential, csrf: `${csrf}x` }),
      // Another browser's cookie with this browser's token.
      () => stranger.post(`/elicitations/${id}`, { credential, csrf: csrf as string }),
      () => new Visitor(page.url).post(`/elicitations/${id}`, { credential, csrf: csrf as string }),
      () =>
        visitor.post(`/elicitations/${id}`, { credential, csrf: csrf as string }, { "sec-fetch-site": "cross-site" }),
      () =>
        visitor.post(`/elicitations/${id}`, { credential, csrf: csrf as string }, { "sec-fetch-site": "same-site" }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      const refused = await attempt();
      expect(refused.status, `attempt ${i}`).toBe(403);
      expectPageHeaders(refused.headers);
      expect(refused.body).toContain("<title>Error: weather: Your OpenWeather API key</title>");
      expect(refused.body).toContain('aria-describedby="credential-hint credential-error" aria-invalid="true"');
      expect(refused.body).toContain("could not be checked");
      expect(refused.body).not.toContain(credential);
    }
    expect(await store().get(scope(), alice)).not.toBe(credential);
    const accepted = await visitor.post(
      `/elicitations/${id}`,
      { credential, csrf: csrf as string, intent: "store" },
      { "sec-fetch-site": "same-origin" },
    );
    expect(accepted.status).toBe(200);
    expect(await store().get(scope(), alice)).toBe(credential);
  });

  it("an unknown, malformed, expired or unserved id: 404 or 410, saying nothing more", async () => {
    const visitor = new Visitor(page.url);
    for (const path of [
      `/elicitations/${newElicitationId()}`,
      "/elicitations/abc",
      `/elicitations/${"%00".repeat(43)}`,
    ]) {
      const unknown = await visitor.get(path);
      expect(unknown.status, path).toBe(404);
      expectPageHeaders(unknown.headers);
      expect(unknown.body).toContain("<h1>This link is not valid</h1>");
      expect(unknown.csrf).toBeUndefined();
      expect((await visitor.post(path, { credential: "x" })).status).toBe(404);
    }
    const expiring = await pendingId(1);
    const { csrf } = await visitor.get(`/elicitations/${expiring}`);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const expired = await visitor.get(`/elicitations/${expiring}`);
    expect(expired.status).toBe(410);
    expectPageHeaders(expired.headers);
    expect(expired.body).toContain("<h1>This link has expired or was already used</h1>");
    const late = await visitor.post(`/elicitations/${expiring}`, { csrf: csrf as string, credential: secret() });
    expect(late.status).toBe(410);

    // The Exposition is no longer served here (or its plan no longer elicits): as if unknown.
    await withPage({ exposition: () => undefined }, async (unserved) => {
      expect((await new Visitor(unserved).get(`/elicitations/${await pendingId()}`)).status).toBe(404);
    });
  });

  it("refuses an empty, over-long or multi-line credential and an oversized body with the form again, never echoing it", async () => {
    const id = await pendingId();
    const visitor = new Visitor(page.url);
    const { csrf } = await visitor.get(`/elicitations/${id}`);
    const tooLong = `sk-${"k".repeat(4094)}`;
    const cases = [
      { credential: "", status: 400, text: "Enter the credential." },
      { credential: tooLong, status: 400, text: "at most 4096 bytes" },
      { credential: "line-one-secret\r\nline-two", status: 400, text: "line breaks" },
    ];
    for (const { credential, status, text } of cases) {
      const refused = await visitor.post(`/elicitations/${id}`, { csrf: csrf as string, credential });
      expect(refused.status, text).toBe(status);
      expectPageHeaders(refused.headers);
      expect(refused.body).toContain(text);
      expect(refused.body).toContain('aria-invalid="true"');
      if (credential) expect(refused.body).not.toContain(credential.slice(0, 15));
    }
    const huge = `sk-huge-${"h".repeat(PAGE_BODY_LIMIT)}`;
    const oversized = await visitor.post(`/elicitations/${id}`, { csrf: csrf as string, credential: huge });
    expect(oversized.status).toBe(413);
    expectPageHeaders(oversized.headers);
    expect(oversized.body).toContain("The form was too large");
    expect(oversized.body).not.toContain("sk-huge-");
    const json = await visitor.postRaw(`/elicitations/${id}`, JSON.stringify({ credential: "sk-json-1234" }), {
      "content-type": "application/json",
    });
    expect(json.status).toBe(415);
    expect(json.body).toContain("Submit the form on this page.");
    // None of them used the id up.
    const credential = secret();
    expect((await visitor.post(`/elicitations/${id}`, { csrf: csrf as string, credential })).status).toBe(200);
    expect(await store().get(scope(), alice)).toBe(credential);
  });

  it("revokes the user's stored credential, from the form and from the success page", async () => {
    const first = await pendingId();
    const visitor = new Visitor(page.url);
    const { csrf } = await visitor.get(`/elicitations/${first}`);
    const credential = secret();
    const saved = await visitor.post(`/elicitations/${first}`, { csrf: csrf as string, credential, intent: "store" });
    expect(saved.body).toContain("Remove my stored credential");
    const successCsrf = /name="csrf" value="([^"]+)"/.exec(saved.body)?.[1] as string;
    const revoked = await visitor.post(`/elicitations/${first}`, { csrf: successCsrf, intent: "revoke" });
    expect(revoked.status).toBe(200);
    expectPageHeaders(revoked.headers);
    expect(revoked.body).toContain("<h1>Credential removed</h1>");
    expect(revoked.body).not.toContain("Give a new credential"); // this link is used up
    expect(await store().get(scope(), alice)).toBeUndefined();

    await store().put(scope(), alice, secret());
    const second = await pendingId();
    const { csrf: formCsrf } = await visitor.get(`/elicitations/${second}`);
    expect((await visitor.post(`/elicitations/${second}`, { intent: "revoke" })).status).toBe(403);
    expect(await store().get(scope(), alice)).toBeDefined();
    const removed = await visitor.post(`/elicitations/${second}`, { csrf: formCsrf as string, intent: "revoke" });
    expect(removed.body).toContain("<h1>Credential removed</h1>");
    expect(removed.body).toContain(`<a href="${second}">Give a new credential</a>`);
    expect(await store().get(scope(), alice)).toBeUndefined();
    const none = await visitor.post(`/elicitations/${second}`, { csrf: formCsrf as string, intent: "revoke" });
    expect(none.body).toContain("<h1>No credential was stored</h1>");
    // Revoking did not use the link: the form still takes a credential.
    expect((await visitor.get(`/elicitations/${second}`)).status).toBe(200);
    expect((await visitor.post(`/elicitations/${second}`, { csrf: formCsrf as string, intent: "other" })).status).toBe(
      400,
    );
  });

  it("a store that fails after the id was used says nothing was stored, and logs no credential", async () => {
    // Another organization's token: the control plane refuses the write.
    const refusing = services(new ElicitedCredentialStore(stack().otherOrganizationRest, keyring));
    await withPage({ services: refusing }, async (failing) => {
      const id = await pendingId();
      const visitor = new Visitor(failing);
      const { csrf } = await visitor.get(`/elicitations/${id}`);
      const credential = secret();
      const failed = await visitor.post(`/elicitations/${id}`, { csrf: csrf as string, credential });
      expect(failed.status).toBe(503);
      expectPageHeaders(failed.headers);
      expect(failed.body).toContain("<h1>Your credential was not stored</h1>");
      expect(failed.body).not.toContain(credential);
      expect(logLines.join("")).toContain("credential not stored");
    });
  });

  it("no log line holds a submitted credential or a CSRF token", async () => {
    const logged = logLines.join("");
    expect(logged).toContain("incoming request"); // trace level: every request was logged
    expect(logged).not.toMatch(/sk-live-|sk-huge-|sk-json-|line-one-secret/);
    expect(logged).not.toContain(`${CSRF_COOKIE}=`);
  });
});
