/**
 * Problems gateways report (Expositions they received but do not serve), on PGlite and on
 * PostgreSQL: shown in the Exposition's view, replaced by each report, kept to the organization's
 * own Expositions, refused when malformed, and forgotten with the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  createTestDatabase,
  DATABASE_KINDS,
  sampleOpenApi,
  startTestControlPlane,
  type TestControlPlane,
  type TestDatabase,
} from "../testing.ts";

const gateway = { id: "gw-problems", instanceId: "problems-test-instance" };
const reportPath = `/api/v1/gateways/${gateway.id}/problems`;

async function expose(client: ApiClient, name: string): Promise<string> {
  const service = await client.call("POST", "/api/v1/services", {
    name,
    version: "1",
    openapi: { inline: sampleOpenApi() },
  });
  const plan = await client.call("POST", "/api/v1/configuration-plans", {
    name,
    serviceId: service.body.id,
    backendEndpoint: "https://petstore.example.com",
  });
  const group = await client.call("POST", "/api/v1/gateway-groups", { name, labels: { region: "eu" } });
  const exposition = await client.call("POST", "/api/v1/expositions", {
    name,
    configurationPlanId: plan.body.id,
    gatewayGroupId: group.body.id,
  });
  expect(exposition.status).toBe(201);
  return exposition.body.id;
}

describe.each(DATABASE_KINDS)("gateway problems on %s", (kind) => {
  let database: TestDatabase | undefined;
  let controlPlane: TestControlPlane;
  let reporter: ApiClient;
  let eu: string;
  let us: string;
  let foreign: string;

  beforeAll(async () => {
    database = kind === "postgres" ? await createTestDatabase() : undefined;
    controlPlane = await startTestControlPlane(kind, { databaseUrl: database?.url });
    const admin = controlPlane.admin;
    eu = await expose(admin, "eu");
    us = await expose(admin, "us");
    await admin.call("POST", "/api/v1/organizations", {
      name: "other",
      admin: { username: "eve", password: "eve-password-12" },
    });
    const other = await controlPlane.api.login({ organization: "other", username: "eve", password: "eve-password-12" });
    foreign = await expose(other, "eu");
    const token = (await admin.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 })).body.token;
    reporter = controlPlane.api.withToken(token);
    const registered = await reporter.call("POST", "/api/v1/gateways/register", {
      ...gateway,
      fqdns: ["gw-problems.example.com"],
      labels: { region: "eu" },
    });
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ heartbeatSeconds: 15, organization: { name: "default" } });
  });
  afterAll(async () => {
    await controlPlane?.close();
    await database?.drop();
  });

  const problemsOf = async (id: string) =>
    (await controlPlane.admin.call("GET", `/api/v1/expositions/${id}`)).body.problems;

  it("shows what a gateway reports, replaced by its next report", async () => {
    const report = (problems: { expositionId: string; message: string }[]) =>
      reporter.call("PUT", reportPath, { instanceId: gateway.instanceId, problems });
    expect((await report([{ expositionId: eu, message: "contract: parameters.0.name" }])).status).toBe(204);
    const [first] = await problemsOf(eu);
    expect(first).toEqual({ gatewayId: gateway.id, message: "contract: parameters.0.name", at: expect.any(String) });
    expect(await problemsOf(us)).toEqual([]);

    // Reported again, a problem keeps the time it was first seen; another one is added.
    expect(
      (
        await report([
          { expositionId: eu, message: "contract: parameters.0.name" },
          { expositionId: us, message: "env not allowed" },
        ])
      ).status,
    ).toBe(204);
    expect(await problemsOf(eu)).toEqual([first]);
    expect((await problemsOf(us))[0]?.message).toBe("env not allowed");
    const listed = await controlPlane.admin.call("GET", "/api/v1/expositions");
    expect(listed.body.items.find((e: { id: string }) => e.id === us).problems).toHaveLength(1);

    // Another organization's Exposition is not kept; the fixed one is cleared.
    expect(
      (
        await report([
          { expositionId: foreign, message: "x" },
          { expositionId: us, message: "env" },
        ])
      ).status,
    ).toBe(204);
    expect(await problemsOf(eu)).toEqual([]);
    expect((await problemsOf(us))[0]?.message).toBe("env");
    expect((await report([])).status).toBe(204);
    expect(await problemsOf(us)).toEqual([]);
  });

  it("refuses malformed reports, other instances and callers without a token", async () => {
    const cases: [unknown, string][] = [
      [
        { instanceId: gateway.instanceId, problems: [{ expositionId: "eu", message: "x" }] },
        "body.problems.0.expositionId",
      ],
      [{ instanceId: gateway.instanceId, problems: [{ expositionId: eu, message: "" }] }, "body.problems.0.message"],
      [
        { instanceId: gateway.instanceId, problems: [{ expositionId: eu, message: "x".repeat(501) }] },
        "body.problems.0.message",
      ],
      [{ problems: [] }, "body.instanceId"],
    ];
    for (const [body, field] of cases) {
      const refused = await reporter.call("PUT", reportPath, body);
      expect(refused.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const impostor = await reporter.call("PUT", reportPath, { instanceId: "another-instance", problems: [] });
    expect(impostor.status).toBe(404);
    const anonymous = await controlPlane.api.call("PUT", reportPath, { instanceId: gateway.instanceId, problems: [] });
    expect(anonymous.status).toBe(401);
  });

  it("forgets a gateway's problems with its registration", async () => {
    await reporter.call("PUT", reportPath, {
      instanceId: gateway.instanceId,
      problems: [{ expositionId: eu, message: "x" }],
    });
    expect(await problemsOf(eu)).toHaveLength(1);
    const deleted = await reporter.call("DELETE", `/api/v1/gateways/${gateway.id}?instanceId=${gateway.instanceId}`);
    expect(deleted.status).toBe(204);
    expect(await problemsOf(eu)).toEqual([]);
  });
});
