/**
 * Every route of the served OpenAPI document has a rule in the access table, and every role gets
 * exactly what the table says: a 403 naming the allowed roles when it lists the caller, never a
 * 403 (nor a 401) when it does. A new route without a rule fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  DATABASE_KINDS,
  startIsolatedControlPlane,
  TEST_ADMIN,
  type TestControlPlane,
} from "../testing.ts";
import { ACCESS_RULES, ACTORS, type Actor, PUBLIC, ruleOf } from "./access-rules.ts";

/** `/api/v1/gateways/{id}/stream` → `/api/v1/gateways/:id/stream`, as fastify names routes. */
const routeOf = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ":$1");

/** A value for a path parameter that passes validation but names nothing. */
function fill(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, _name: string) =>
    path.startsWith("/api/v1/gateway-groups")
      ? "999999"
      : path.startsWith("/api/v1/gateways/")
        ? "gw-nobody"
        : "00000000-0000-4000-8000-000000000000",
  );
}

describe.each(DATABASE_KINDS)("access rules on %s", (kind) => {
  let cp: TestControlPlane & { stop(): Promise<void> };
  const clients = {} as Record<Actor, ApiClient>;
  let operations: { method: string; path: string }[] = [];

  beforeAll(async () => {
    cp = await startIsolatedControlPlane(kind);
    clients["user:admin"] = cp.admin;
    const member = { username: "mia", password: "member-password-1", role: "member" };
    expect((await cp.admin.call("POST", "/api/v1/users", member)).status).toBe(201);
    clients["user:member"] = await cp.api.login({ organization: TEST_ADMIN.organization, ...member });
    for (const role of ["admin", "operator", "gateway"] as const) {
      const created = await cp.admin.call("POST", "/api/v1/api-tokens", { name: role, validityDays: 1, role });
      expect(created.status).toBe(201);
      expect(created.body.role).toBe(role);
      clients[`token:${role}`] = cp.api.withToken(created.body.token);
    }
    const document = await cp.api.call("GET", "/api/v1/openapi.json");
    expect(document.status).toBe(200);
    operations = Object.entries(document.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
  });
  afterAll(() => cp?.stop());

  it("has a rule for every route of the OpenAPI document, and no rule for a route that is gone", () => {
    const apiOperations = operations.filter((operation) => operation.path.startsWith("/api/v1/"));
    expect(apiOperations.length).toBeGreaterThan(40);
    const missing = apiOperations.filter((op) => ruleOf(op.method, routeOf(op.path)) === undefined);
    expect(missing).toEqual([]);
    const served = new Set(apiOperations.map((op) => `${op.method} ${routeOf(op.path)}`));
    const stale = Object.keys(ACCESS_RULES).filter((key) => key !== "GET /api/v1/openapi.json" && !served.has(key));
    expect(stale).toEqual([]);
  });

  it("gives each role exactly what its rule says, on every route", async () => {
    const wrong: string[] = [];
    for (const { method, path } of operations) {
      if (!path.startsWith("/api/v1/")) continue;
      const rule = ruleOf(method, routeOf(path));
      for (const actor of ACTORS) {
        // Logging out ends the caller's login: do it with a login of its own.
        const client =
          path === "/api/v1/logout" && actor.startsWith("user:")
            ? await cp.api.login(
                actor === "user:admin" ? TEST_ADMIN : { ...TEST_ADMIN, username: "mia", password: "member-password-1" },
              )
            : clients[actor];
        const body = ["POST", "PUT"].includes(method) ? {} : undefined;
        const response = await client.call(method, fill(path), body);
        const allowed = rule === PUBLIC || (rule?.includes(actor) ?? false);
        const refused = response.status === 403 && ["ROLE_REFUSED", "NO_ACCESS_RULE"].includes(response.body?.code);
        if (allowed === refused || response.status === 401 || response.status >= 500) {
          wrong.push(
            `${actor} ${method} ${path}: ${allowed ? "allowed" : "refused"} by the table, got ${response.status}`,
          );
        }
        if (refused) expect(response.body.detail).toMatch(/needs .*role/);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("lets only a gateway token register a gateway", async () => {
    const registration = { id: "gw-1", instanceId: "instance-1", fqdns: ["gw1.example.com"], labels: {} };
    for (const actor of ACTORS) {
      const response = await clients[actor].call("POST", "/api/v1/gateways/register", registration);
      expect(response.status, actor).toBe(actor === "token:gateway" ? 200 : 403);
    }
  });
});
