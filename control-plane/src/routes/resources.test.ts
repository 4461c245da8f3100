/**
 * The REST API's records end to end, on PGlite and on PostgreSQL: import, plans and their API
 * keys, groups, expositions and their endpoints, the gateway registry, secrets at rest, and
 * organizations kept apart for every kind of record.
 */
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../auth/tokens.ts";
import {
  type ApiClient,
  createTestDatabase,
  DATABASE_KINDS,
  sampleOpenApi,
  startTestControlPlane,
  type TestControlPlane,
  type TestDatabase,
} from "../testing.ts";

const petstore = sampleOpenApi();

describe.each(DATABASE_KINDS)("records on %s", (kind) => {
  let database: TestDatabase | undefined;
  let cp: TestControlPlane;
  let admin: ApiClient;
  let other: ApiClient;
  let gatewayClient: ApiClient;
  const ids: Record<string, string | number> = {};

  beforeAll(async () => {
    database = kind === "postgres" ? await createTestDatabase() : undefined;
    cp = await startTestControlPlane(kind, { databaseUrl: database?.url });
    admin = cp.admin;
    await admin.call("POST", "/api/v1/organizations", {
      name: "other",
      admin: { username: "eve", password: "eve-password-12" },
    });
    other = await cp.api.login({ organization: "other", username: "eve", password: "eve-password-12" });
    const token = await admin.call("POST", "/api/v1/api-tokens", { name: "gateways", validityDays: 1 });
    gatewayClient = cp.api.withToken(token.body.token);
  });
  afterAll(async () => {
    await cp?.close();
    await database?.drop();
  });

  it("imports a service from inline OpenAPI and lists its operations", async () => {
    const created = await admin.call("POST", "/api/v1/services", {
      name: "petstore",
      version: "1.0.0",
      openapi: { inline: petstore },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Pet Store", openapiVersion: "3.0.3", operationCount: 4 });
    ids.service = created.body.id;
    const detail = await admin.call("GET", `/api/v1/services/${ids.service}`);
    expect(detail.body.operations.map((op: { operationId: string }) => op.operationId)).toEqual([
      "listPets",
      "createPet",
      "getPet",
      "deletePet",
    ]);
  });

  it("imports an uploaded document and refuses an invalid one with the parser's message and location", async () => {
    const uploaded = await admin.call("POST", "/api/v1/services/import?name=petstore-upload&version=2", petstore, {
      "content-type": "application/yaml",
    });
    expect(uploaded.status).toBe(201);
    const broken = await admin.call("POST", "/api/v1/services", {
      name: "broken",
      version: "1",
      openapi: {
        inline: "openapi: 3.0.3\ninfo: { title: x, version: 1 }\npaths:\n  /x:\n    get:\n      responses: 12\n",
      },
    });
    expect(broken.status).toBe(422);
    expect(broken.body.code).toMatch(/^OPENAPI_/);
    expect(broken.body.errors[0].field).toBe("body.openapi.inline");
    expect(broken.body.location).toBeDefined();
    const notYaml = await admin.call("POST", "/api/v1/services", {
      name: "junk",
      version: "1",
      openapi: { inline: "a: [1, 2" },
    });
    expect(notYaml).toMatchObject({ status: 422, body: { code: "OPENAPI_SYNTAX" } });
  });

  it("creates a plan with an API key shown once, and checks its operations against the service", async () => {
    const unknownOp = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "bad-plan",
      serviceId: ids.service,
      backendEndpoint: "https://petstore.example.com",
      includedOperations: ["listPets", "nope"],
    });
    expect(unknownOp.status).toBe(422);
    expect(unknownOp.body.errors[0]).toMatchObject({ field: "body.includedOperations" });
    expect(unknownOp.body.errors[0].message).toContain("nope");

    const badUrl = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "bad-url",
      serviceId: ids.service,
      backendEndpoint: "ftp://x",
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.errors[0].field).toBe("body.backendEndpoint");

    const created = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "petstore-plan",
      serviceId: ids.service,
      backendEndpoint: "https://petstore.example.com/api",
      apiKey: true,
      excludedOperations: ["deletePet"],
    });
    expect(created.status).toBe(201);
    expect(created.body.apiKey).toMatch(/^atr_k_/);
    expect(created.body).toMatchObject({ hasApiKey: true, toolExposureMode: "PerOperation", backendTimeoutMs: 30000 });
    ids.plan = created.body.id;
    ids.apiKey = created.body.apiKey;
    const read = await admin.call("GET", `/api/v1/configuration-plans/${ids.plan}`);
    expect(read.body.apiKey).toBeUndefined();
  });

  it("renews the API key with no overlap", async () => {
    const renewed = await admin.call("POST", `/api/v1/configuration-plans/${ids.plan}/renew-api-key`);
    expect(renewed.status).toBe(200);
    expect(renewed.body.apiKey).toMatch(/^atr_k_/);
    expect(renewed.body.apiKey).not.toBe(ids.apiKey);
    ids.apiKey = renewed.body.apiKey;
  });

  it("publishes an exposition whose endpoints follow the live gateways its group selects", async () => {
    const group = await admin.call("POST", "/api/v1/gateway-groups", { name: "dev", labels: { env: "dev" } });
    expect(group.status).toBe(201);
    expect(typeof group.body.id).toBe("number");
    ids.group = group.body.id;
    const expo = await admin.call("POST", "/api/v1/expositions", {
      name: "petstore",
      configurationPlanId: ids.plan,
      gatewayGroupId: ids.group,
    });
    expect(expo.status).toBe(201);
    expect(expo.body).toMatchObject({ gatewayGroup: { id: ids.group, name: "dev" }, endpoints: [] });
    ids.exposition = expo.body.id;

    const register = (id: string, instanceId: string, labels: Record<string, string>) =>
      gatewayClient.call("POST", "/api/v1/gateways/register", { id, instanceId, fqdns: [`${id}.example.com`], labels });
    expect((await register("gw-dev", "instance-aaaa", { env: "dev" })).status).toBe(200);
    expect((await register("gw-prod", "instance-bbbb", { env: "prod" })).status).toBe(200);
    const read = await admin.call("GET", `/api/v1/expositions/${ids.exposition}`);
    expect(read.body.endpoints).toEqual(["gw-dev.example.com"]);

    const taken = await register("gw-dev", "instance-cccc", { env: "dev" });
    expect(taken.status).toBe(409);
    expect((await register("gw-dev", "instance-aaaa", { env: "dev" })).status).toBe(200);
    const health = await gatewayClient.call("POST", "/api/v1/gateways/gw-dev/health", { instanceId: "instance-aaaa" });
    expect(health.status).toBe(204);
    const wrongInstance = await gatewayClient.call("POST", "/api/v1/gateways/gw-dev/health", {
      instanceId: "instance-cccc",
    });
    expect(wrongInstance.status).toBe(404);
    const bad = await gatewayClient.call("POST", "/api/v1/gateways/register", {
      id: "Bad ID",
      instanceId: "instance-dddd",
      fqdns: ["not a host"],
      labels: { "bad key!": "x" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(["body.id", "body.fqdns.0"]),
    );
    const listed = await admin.call("GET", "/api/v1/gateways");
    expect(listed.body.items.map((g: { id: string; health: string }) => [g.id, g.health]).sort()).toEqual([
      ["gw-dev", "UP"],
      ["gw-prod", "UP"],
    ]);
  });

  it("attaches custom tools, resources and prompts to a service", async () => {
    const tools = await admin.call("POST", "/api/v1/custom-tools", {
      name: "extra-tools",
      serviceId: ids.service,
      tools: [
        { name: "mark_sold", description: "Marks a pet sold", request: { method: "PATCH", path: "/pets/{{petId}}" } },
      ],
    });
    expect(tools.status).toBe(201);
    ids.tools = tools.body.id;
    const resources = await admin.call("POST", "/api/v1/resources", {
      name: "docs",
      serviceId: ids.service,
      resources: [{ uri: "docs://policy", name: "policy", text: "Adults only." }],
    });
    expect(resources.status).toBe(201);
    const prompts = await admin.call("POST", "/api/v1/prompts", {
      name: "prompts",
      serviceId: ids.service,
      prompts: [{ name: "hello", messages: [{ role: "user", text: "Hello {{name}}" }] }],
    });
    expect(prompts.status).toBe(201);
    ids.prompts = prompts.body.id;
    expect((await admin.call("GET", "/api/v1/prompts")).body.items.map((p: { name: string }) => p.name)).toEqual([
      "prompts",
    ]);

    const duplicate = await admin.call("POST", "/api/v1/custom-tools", {
      name: "dupes",
      serviceId: ids.service,
      tools: [
        { name: "a", description: "x", request: { method: "GET", path: "/a" } },
        { name: "a", description: "y", request: { method: "GET", path: "/b" } },
      ],
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0].field).toBe("body.tools.1");
    const noService = await admin.call("POST", "/api/v1/resources", {
      name: "orphan",
      serviceId: "00000000-0000-4000-8000-000000000000",
      resources: [],
    });
    expect(noService.status).toBe(422);
  });

  it("refuses deleting what is still in use, and keeps the record", async () => {
    const refused = await admin.call("DELETE", `/api/v1/configuration-plans/${ids.plan}`);
    expect(refused.status).toBe(409);
    expect((await admin.call("GET", `/api/v1/configuration-plans/${ids.plan}`)).status).toBe(200);
  });

  it("stores secrets encrypted, never returns them, and re-encrypts idempotently", async () => {
    const created = await admin.call("POST", "/api/v1/secrets", { name: "backend-token", value: "s3cr3t-value-42" });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain("s3cr3t-value-42");
    const listed = await admin.call("GET", "/api/v1/secrets");
    expect(JSON.stringify(listed.body)).not.toContain("s3cr3t-value-42");
    const rows = await selectRows<{ encrypted_value: string }>(cp, sql`select encrypted_value from secrets`);
    const values = rows.map((r) => r.encrypted_value);
    expect(values[0]).toMatch(/^gcm1:test:/);
    expect(values.join()).not.toContain("s3cr3t");
    const report = await admin.call("POST", "/api/v1/admin/reencrypt");
    expect(report.body).toMatchObject({ scanned: 1, reencrypted: 0, alreadyCurrent: 1 });
    expect((await other.call("POST", "/api/v1/admin/reencrypt")).status).toBe(403);
  });

  it("keeps every kind of record out of other organizations' reach", async () => {
    const paths = [
      `/api/v1/services/${ids.service}`,
      `/api/v1/configuration-plans/${ids.plan}`,
      `/api/v1/gateway-groups/${ids.group}`,
      `/api/v1/expositions/${ids.exposition}`,
      `/api/v1/custom-tools/${ids.tools}`,
      `/api/v1/prompts/${ids.prompts}`,
    ];
    for (const path of paths) {
      expect((await other.call("GET", path)).status, path).toBe(404);
      expect((await other.call("DELETE", path)).status, path).toBe(404);
    }
    const renew = await other.call("POST", `/api/v1/configuration-plans/${ids.plan}/renew-api-key`);
    expect(renew.status).toBe(404);
    const crossPlan = await other.call("POST", "/api/v1/configuration-plans", {
      name: "steal",
      serviceId: ids.service,
      backendEndpoint: "https://x.example.com",
    });
    expect(crossPlan.status).toBe(422);
    for (const list of [
      "/api/v1/services",
      "/api/v1/configuration-plans",
      "/api/v1/gateway-groups",
      "/api/v1/expositions",
      "/api/v1/gateways",
      "/api/v1/secrets",
      "/api/v1/custom-tools",
      "/api/v1/resources",
      "/api/v1/prompts",
    ]) {
      expect((await other.call("GET", list)).body.items, list).toEqual([]);
    }
  });

  it("stores API keys hashed", async () => {
    const rows = await selectRows<{ api_key_hash: string }>(
      cp,
      sql`select api_key_hash from configuration_plans where id = ${ids.plan}`,
    );
    expect(rows[0]?.api_key_hash).toBe(sha256(String(ids.apiKey)));
  });
});

async function selectRows<T>(cp: TestControlPlane, query: SQL): Promise<T[]> {
  return ((await cp.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
