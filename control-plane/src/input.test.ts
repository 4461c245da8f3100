/**
 * Input the database cannot take is the client's to fix: a NUL character in any text field (the
 * unauthenticated login included) and ids beyond their column's range answer 400 naming the
 * field, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  DATABASE_KINDS,
  startIsolatedControlPlane,
  TEST_ADMIN,
  type TestControlPlane,
} from "./testing.ts";

describe.each(DATABASE_KINDS)("input the database refuses, on %s", (kind) => {
  let cp: TestControlPlane & { stop(): Promise<void> };
  let gateway: ApiClient;

  beforeAll(async () => {
    cp = await startIsolatedControlPlane(kind);
    const token = await cp.admin.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 });
    gateway = cp.api.withToken(token.body.token);
  });
  afterAll(() => cp?.stop());

  const fieldsOf = (response: { body: { errors?: { field: string }[] } }) =>
    response.body.errors?.map((error) => error.field);

  it("answers a NUL character with a 400 naming the field, on login too", async () => {
    const login = await cp.api.call("POST", "/api/v1/login", { ...TEST_ADMIN, organization: "default\u0000" });
    expect(login.status).toBe(400);
    expect(fieldsOf(login)).toEqual(["body.organization"]);
    expect(login.body.detail).toContain("NUL");

    const group = await cp.admin.call("POST", "/api/v1/gateway-groups", { name: "g", description: "a\u0000b" });
    expect(group.status).toBe(400);
    expect(fieldsOf(group)).toEqual(["body.description"]);

    const user = await cp.admin.call("POST", "/api/v1/users", {
      username: "x\u0000",
      password: "long-enough-password",
    });
    expect(user.status).toBe(400);
    expect(fieldsOf(user)).toEqual(["body.username"]);

    const key = await cp.admin.call("POST", "/api/v1/api-tokens", {
      name: "t",
      validityDays: 1,
      requiredLabels: { "k\u0000": "v" },
    });
    expect(key.status).toBe(400);
    expect(fieldsOf(key)).toEqual(["body.requiredLabels"]);

    const query = await gateway.call("GET", "/api/v1/gateways/gw-1/stream?instanceId=instance-%00-1");
    expect(query.status).toBe(400);
    expect(fieldsOf(query)).toEqual(["querystring.instanceId"]);

    const document = await cp.admin.call("POST", "/api/v1/services/import?name=x&version=1", "openapi: 3.0.0\u0000", {
      "content-type": "application/yaml",
    });
    expect(document.status).toBe(400);
    expect(fieldsOf(document)).toEqual(["body"]);
    // Nothing was written.
    const groups = await cp.admin.call("GET", "/api/v1/gateway-groups");
    expect(groups.body.items).toEqual([]);
  });

  it("answers a path the router refuses with the problem document (found by the REST bodies fuzz test)", async () => {
    const long = await cp.admin.call("PUT", `/api/v1/prompts/${"x".repeat(300)}`, { prompts: [] });
    expect(long.status).toBe(414);
    expect(long.headers["content-type"]).toContain("application/problem+json");
    expect(long.body.code).toBe("PATH_PARAMETER_TOO_LONG");
    expect(long.body.detail).toContain("longer than 100 characters");

    const badEncoding = await cp.admin.call("GET", "/api/v1/services/%E0%A4%A");
    expect(badEncoding.status).toBe(400);
    expect(badEncoding.headers["content-type"]).toContain("application/problem+json");
    expect(badEncoding.body.code).toBe("BAD_URL");
  });

  it("answers ids beyond their column's range with a 400, not a database error", async () => {
    const path = await cp.admin.call("GET", "/api/v1/gateway-groups/2147483648");
    expect(path.status).toBe(400);
    expect(fieldsOf(path)).toEqual(["params.id"]);
    expect((await cp.admin.call("GET", "/api/v1/gateway-groups/2147483647")).status).toBe(404);
    expect((await cp.admin.call("DELETE", "/api/v1/gateway-groups/99999999999999999999")).status).toBe(400);

    const body = await cp.admin.call("POST", "/api/v1/expositions", {
      name: "e",
      configurationPlanId: "00000000-0000-4000-8000-000000000000",
      gatewayGroupId: 2147483648,
    });
    expect(body.status).toBe(400);
    expect(fieldsOf(body)).toEqual(["body.gatewayGroupId"]);

    const since = await gateway.call("GET", "/api/v1/gateways/gw-1/stream?instanceId=instance-1&since=1e300");
    expect(since.status).toBe(400);
    expect(fieldsOf(since)).toContain("querystring.since");
  });
});
