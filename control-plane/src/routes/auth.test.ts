/**
 * Login, API tokens, organizations: what each credential may and may not do, on PGlite and
 * on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  addOrganization,
  DATABASE_KINDS,
  type IsolatedControlPlane,
  startIsolatedControlPlane,
  startTestControlPlane,
  TEST_ADMIN,
} from "../testing.ts";

describe.each(DATABASE_KINDS)("authentication on %s", (kind) => {
  let cp: IsolatedControlPlane;
  let other: ApiClient; // admin of a second organization

  beforeAll(async () => {
    cp = await startIsolatedControlPlane(kind);
    other = await addOrganization(cp, "acme");
  });
  afterAll(async () => {
    await cp?.stop();
  });

  it("is ready once migrated", async () => {
    const ready = await cp.api.call("GET", "/q/health/ready");
    expect(ready).toMatchObject({ status: 200, body: { status: "UP" } });
  });

  it("refuses a wrong password, an unknown user and an unknown organization alike", async () => {
    for (const credentials of [
      { ...TEST_ADMIN, password: "wrong-password" },
      { ...TEST_ADMIN, username: "nobody" },
      { ...TEST_ADMIN, organization: "nowhere" },
    ]) {
      const response = await cp.api.call("POST", "/api/v1/login", credentials);
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("BAD_CREDENTIALS");
    }
  });

  it("refuses requests without a token, with a forged one, or after logout", async () => {
    expect((await cp.api.call("GET", "/api/v1/info")).status).toBe(401);
    expect((await cp.api.withToken("atr_s_forged").call("GET", "/api/v1/info")).status).toBe(401);
    expect((await cp.api.withToken("something-else").call("GET", "/api/v1/info")).status).toBe(401);
    const session = await cp.api.login(TEST_ADMIN);
    expect((await session.call("GET", "/api/v1/info")).status).toBe(200);
    expect((await session.call("POST", "/api/v1/logout")).status).toBe(204);
    expect((await session.call("GET", "/api/v1/info")).status).toBe(401);
  });

  it("refuses an expired login", async () => {
    const shortLived = await startTestControlPlane(kind, {
      databaseUrl: cp.databaseUrl,
      config: { loginTtlSeconds: 1 },
    });
    try {
      expect((await shortLived.admin.call("GET", "/api/v1/info")).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await shortLived.admin.call("GET", "/api/v1/info");
      expect(expired.status).toBe(401);
      expect(expired.body.detail).toContain("expired");
    } finally {
      await shortLived.close();
    }
  });

  it("shows an API token once, accepts it, and refuses it as soon as it is deleted", async () => {
    const created = await cp.admin.call("POST", "/api/v1/api-tokens", { name: "gateway-1", validityDays: 30 });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^atr_t_/);
    const listed = await cp.admin.call("GET", "/api/v1/api-tokens");
    expect(listed.body.items.map((t: { name: string }) => t.name)).toContain("gateway-1");
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);

    const asToken = cp.api.withToken(created.body.token);
    expect((await asToken.call("GET", "/api/v1/info")).status).toBe(200);
    expect((await cp.admin.call("DELETE", `/api/v1/api-tokens/${created.body.id}`)).status).toBe(204);
    expect((await asToken.call("GET", "/api/v1/info")).status).toBe(401);
  });

  it("does not let an API token manage tokens", async () => {
    const created = await cp.admin.call("POST", "/api/v1/api-tokens", { name: "operator", validityDays: 1 });
    const asToken = cp.api.withToken(created.body.token);
    const response = await asToken.call("POST", "/api/v1/api-tokens", { name: "child", validityDays: 1 });
    expect(response.status).toBe(403);
  });

  it("keeps organizations apart", async () => {
    const mine = await cp.admin.call("POST", "/api/v1/api-tokens", { name: "private", validityDays: 1 });
    const theirs = await other.call("GET", "/api/v1/api-tokens");
    expect(theirs.body.items.map((t: { id: string }) => t.id)).not.toContain(mine.body.id);
    expect((await other.call("DELETE", `/api/v1/api-tokens/${mine.body.id}`)).status).toBe(404);
    expect((await cp.api.withToken(mine.body.token).call("GET", "/api/v1/info")).status).toBe(200);
    const org = await other.call("GET", "/api/v1/organization");
    expect(org.body.name).toBe("acme");
  });

  it("lets only platform admins create organizations, with clear errors for bad input", async () => {
    const refused = await other.call("POST", "/api/v1/organizations", {
      name: "evil",
      admin: { username: "x", password: "long-enough-pass" },
    });
    expect(refused.status).toBe(403);
    const badName = await cp.admin.call("POST", "/api/v1/organizations", {
      name: "Not Valid",
      admin: { username: "x", password: "short" },
    });
    expect(badName.status).toBe(400);
    expect(badName.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "body.admin.password",
      "body.name",
    ]);
    const duplicate = await cp.admin.call("POST", "/api/v1/organizations", {
      name: "acme",
      admin: { username: "bob", password: "bob-password-12" },
    });
    expect(duplicate).toMatchObject({ status: 409, body: { code: "ALREADY_EXISTS" } });
  });

  it("answers bad input with problem+json, never a 500", async () => {
    const malformed = await cp.admin.call("POST", "/api/v1/api-tokens", "{not json");
    expect(malformed.status).toBe(400);
    expect(malformed.headers["content-type"]).toContain("application/problem+json");
    const badId = await cp.admin.call("DELETE", "/api/v1/api-tokens/not-a-uuid");
    expect(badId.status).toBe(400);
    const noRoute = await cp.admin.call("GET", "/api/v1/nothing-here");
    expect(noRoute.status).toBe(404);
  });
});
