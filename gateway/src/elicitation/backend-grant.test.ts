/**
 * A stored grant turned into an access token against a real token endpoint on 127.0.0.1: used as
 * it is while it is fresh; refreshed once (however many calls wait) when it expires within a
 * minute, the new grant handed back to be stored (keeping the refresh token when the server does
 * not rotate it); gone when the server refuses the refresh (invalid_grant) or there is no refresh
 * token; a failure to reach the server a failure in words, never the token or the client secret.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenLocally } from "../testing.ts";
import { type AuthorizationCodeSettings, BackendGrants, type StoredGrant } from "./backend-grant.ts";
import { ClusterKeyring } from "./cluster-keys.ts";

const CLIENT_SECRET = "grant-client-secret-0123456789";
/** What the token endpoint answers next. */
const answer = { status: 200, body: {} as Record<string, unknown> };
const forms: URLSearchParams[] = [];
const authorizations: (string | undefined)[] = [];
let server: Awaited<ReturnType<typeof listenLocally>>;

beforeAll(async () => {
  server = await listenLocally(
    createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        forms.push(new URLSearchParams(body));
        authorizations.push(req.headers.authorization);
        // A little late: calls waiting for one refresh must all find it in flight.
        setTimeout(() => {
          res.writeHead(answer.status, { "content-type": "application/json" });
          res.end(JSON.stringify(answer.body));
        }, 50);
      });
    }),
  );
});
afterAll(() => server?.close());

const settings = (): AuthorizationCodeSettings => ({
  authorizationUrl: `${server.url}/authorize`,
  tokenUrl: `${server.url}/token`,
  clientId: "atrium",
  clientSecret: { source: "value", value: CLIENT_SECRET },
});
const grants = () => new BackendGrants(new ClusterKeyring([randomBytes(32)]));
const stored = (grant: StoredGrant) => JSON.stringify(grant);

describe("BackendGrants.current", () => {
  it("uses a fresh grant's access token as it is, asking nothing", async () => {
    const before = forms.length;
    const outcome = await grants().current(
      stored({ a: "fresh", x: Date.now() + 300_000, r: "r1" }),
      settings(),
      "k",
      () => {
        throw new Error("nothing to store");
      },
    );
    expect(outcome).toEqual({ kind: "token", token: "fresh" });
    expect(forms.length).toBe(before);
  });

  it("refreshes an expiring grant once for every call waiting, and hands back the grant to store", async () => {
    Object.assign(answer, { status: 200, body: { access_token: "renewed", token_type: "Bearer", expires_in: 600 } });
    const before = forms.length;
    const kept: StoredGrant[] = [];
    const expiring = stored({ a: "old", x: Date.now() + 30_000, r: "refresh-1" });
    const shared = grants();
    const outcomes = await Promise.all(
      [1, 2, 3].map(() =>
        shared.current(expiring, settings(), "user-1", async (grant) => {
          kept.push(grant);
        }),
      ),
    );
    expect(outcomes).toEqual([1, 2, 3].map(() => ({ kind: "token", token: "renewed" })));
    expect(forms.length - before).toBe(1);
    const form = forms.at(-1);
    expect(Object.fromEntries(form ?? [])).toEqual({ grant_type: "refresh_token", refresh_token: "refresh-1" });
    expect(authorizations.at(-1)).toBe(`Basic ${Buffer.from(`atrium:${CLIENT_SECRET}`).toString("base64")}`);
    // No new refresh token in the answer: the old one is kept.
    expect(kept[0]).toMatchObject({ a: "renewed", r: "refresh-1" });
    expect(kept[0]?.x).toBeGreaterThan(Date.now() + 500_000);
  });

  it("says the grant is gone when the server refuses the refresh (invalid_grant), or when it cannot be refreshed", async () => {
    Object.assign(answer, { status: 400, body: { error: "invalid_grant" } });
    const expiring = stored({ a: "old", x: Date.now() + 10_000, r: "revoked" });
    expect(await grants().current(expiring, settings(), "k", async () => {})).toEqual({ kind: "gone" });
    const noRefresh = stored({ a: "old", x: Date.now() - 1 });
    expect(await grants().current(noRefresh, settings(), "k", async () => {})).toEqual({ kind: "gone" });
    expect(await grants().current("not a grant", settings(), "k", async () => {})).toEqual({ kind: "gone" });
  });

  it("describes another failure in words, keeping the grant; never with a token or the client secret", async () => {
    Object.assign(answer, { status: 503, body: { error: "temporarily_unavailable" } });
    const expiring = stored({ a: "old-token", x: Date.now(), r: "refresh-secret" });
    const outcome = await grants().current(expiring, settings(), "k", async () => {
      throw new Error("nothing to store");
    });
    expect(outcome).toMatchObject({
      kind: "error",
      forClient: "The backend's authorization server refused the refresh of your authorization (HTTP 503)",
    });
    for (const secret of ["old-token", "refresh-secret", CLIENT_SECRET])
      expect(JSON.stringify(outcome)).not.toContain(secret);
  });
});
