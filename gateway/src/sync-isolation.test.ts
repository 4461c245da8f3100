/**
 * One Exposition a gateway cannot serve never affects another: a record the contract refuses (an
 * operation parameter without a name, written past the import's checks) or a backend secret
 * naming an environment variable the gateway does not allow is skipped and reported — shown in
 * the Exposition's REST view, in readiness details and metrics — while the Expositions around it
 * are served, a freshly started gateway becomes ready, and a repaired one is served again.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { sql } from "drizzle-orm";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { FIXTURE_OPENAPI, type Stack, useStackWithGateway, waitFor } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;

useStackWithGateway((running) => ({ stack, gateway } = running));

/** A Service, plan and Exposition on the gateways' group; `corrupt` breaks the stored operations first. */
async function expose(name: string, plan: Record<string, unknown> = {}, corrupt = false) {
  const admin = stack.controlPlane.admin;
  const service = await admin.call("POST", "/api/v1/services", {
    name,
    version: "1",
    openapi: { inline: FIXTURE_OPENAPI },
  });
  expect(service.status).toBe(201);
  // Written behind the import's back, as records stored by older versions may be.
  if (corrupt) await setFirstParameterName(service.body.id, "");
  const planBody = { name, serviceId: service.body.id, backendEndpoint: `${stack.backend.url}/api`, ...plan };
  const created = await admin.call("POST", "/api/v1/configuration-plans", planBody);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const exposition = await admin.call("POST", "/api/v1/expositions", {
    name,
    configurationPlanId: created.body.id,
    gatewayGroupId: stack.groupId,
  });
  expect(exposition.status).toBe(201);
  return { id: exposition.body.id as string, serviceId: service.body.id as string, planId: created.body.id, planBody };
}

async function setFirstParameterName(serviceId: string, name: string) {
  await stack.controlPlane.database.db.execute(
    sql`update services set operations = jsonb_set(operations, '{0,parameters,0,name}', to_jsonb(${name}::text)) where id = ${serviceId}`,
  );
}

async function problemsOf(expositionId: string): Promise<{ gatewayId: string; message: string; at: string }[]> {
  const view = await stack.controlPlane.admin.call("GET", `/api/v1/expositions/${expositionId}`);
  expect(view.status).toBe(200);
  return view.body.problems;
}

async function metricsText(of: Gateway): Promise<string> {
  const response = await request(`${managementUrl(of.app)}/q/metrics`);
  return response.body.text();
}

describe("a record a gateway cannot serve", () => {
  it("is skipped and reported, while the Expositions after it are served", async () => {
    const broken = await expose("broken", {}, true);
    const after = await expose("after-broken");
    await waitFor(() => gateway.registry.byId(after.id) !== undefined, "the Exposition after the broken one");
    expect(gateway.registry.byId(broken.id)).toBeUndefined();
    expect(gateway.registry.byId(stack.expositionId)).toBeDefined();
    expect(gateway.sync.lastFailure).toBeUndefined();

    await waitFor(async () => (await problemsOf(broken.id)).length > 0, "the problem to be reported");
    const [problem] = await problemsOf(broken.id);
    expect(problem).toEqual({ gatewayId: "gw-1", message: expect.stringContaining("name"), at: expect.any(String) });
    expect(problem?.message).toContain("service.operations.0.parameters.0.name");
    expect(await problemsOf(after.id)).toEqual([]);

    const ready = await request(`${gateway.url}/q/health/ready`);
    expect(ready.statusCode).toBe(200);
    const readiness = (await ready.body.json()) as { configuration: Record<string, unknown> };
    expect(readiness.configuration).toMatchObject({ notServed: 1 });
    expect(readiness.configuration.stalenessSeconds).toBeLessThan(60);
    expect(await metricsText(gateway)).toContain('atrium_gateway_expositions_refused{reason="invalid"} 1');

    // A gateway starting now gets it in its snapshot: it still becomes ready, with the others.
    const fresh = await stack.startGateway();
    expect(fresh.registry.byId(after.id)).toBeDefined();
    expect(fresh.registry.byId(broken.id)).toBeUndefined();
    await waitFor(async () => (await problemsOf(broken.id)).length === 2, "the second gateway's report");
    await fresh.close();

    // Repaired, it is served, and the problem is cleared.
    await setFirstParameterName(broken.serviceId, "status");
    const { name, serviceId, backendEndpoint } = broken.planBody;
    const put = await stack.controlPlane.admin.call("PUT", `/api/v1/configuration-plans/${broken.planId}`, {
      name,
      serviceId,
      backendEndpoint,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await waitFor(() => gateway.registry.byId(broken.id) !== undefined, "the repaired Exposition");
    await waitFor(
      async () => (await problemsOf(broken.id)).every((p) => p.gatewayId !== "gw-1"),
      "the problem to be cleared",
    );
    expect(await metricsText(gateway)).toContain('atrium_gateway_expositions_refused{reason="invalid"} 0');
  });

  it("serves a plan that elicits (a backend secret, missing arguments) only with a cluster key (fail closed without)", async () => {
    const keyless = await stack.startGateway({ clusterKey: undefined });
    const elicited = await expose("elicited", {
      oauth: { issuer: "https://issuer.test", jwksUri: "https://issuer.test/jwks" },
      backendSecret: { elicit: { description: "Your pet store key" } },
    });
    const asking = await expose("asking", { elicitMissingArguments: true });
    const after = await expose("after-elicited");
    await waitFor(() => keyless.registry.byId(after.id) !== undefined, "the Exposition after the elicited one");
    await waitFor(
      () => gateway.registry.byId(elicited.id) !== undefined,
      "the elicited one, on the gateway with a key",
    );
    expect(keyless.registry.byId(elicited.id)).toBeUndefined();
    await waitFor(async () => (await problemsOf(elicited.id)).length > 0, "the report");
    const [problem, ...others] = await problemsOf(elicited.id);
    expect(others).toEqual([]);
    expect(problem?.message).toContain("backendSecret.elicit");
    expect(problem?.message).toContain("ATRIUM_GATEWAY_CLUSTER_KEY_FILE");
    await waitFor(() => gateway.registry.byId(asking.id) !== undefined, "the asking one, on the gateway with a key");
    expect(keyless.registry.byId(asking.id)).toBeUndefined();
    await waitFor(async () => (await problemsOf(asking.id)).length > 0, "its report");
    expect((await problemsOf(asking.id))[0]?.message).toContain("elicitMissingArguments");
    expect(await metricsText(keyless)).toContain('atrium_gateway_expositions_refused{reason="unsupported"} 2');
    expect(await metricsText(gateway)).toContain('atrium_gateway_expositions_refused{reason="unsupported"} 0');
    await keyless.close();
  });

  it("resolves ${env:NAME} only for allowed names, and never the gateway's own settings", async () => {
    process.env.ATRIUM_BACKEND_SECRET_PETS = "pets-secret";
    process.env.ATRIUM_CONTROL_PLANE_TOKEN = "the-gateway-token";
    process.env.ATRIUM_TEST_UNLISTED = "unlisted";
    const secret = (variable: string) => ({ backendSecret: { env: `\${env:${variable}}`, in: "query", name: "t" } });
    const allowed = await expose("env-allowed", {
      backendSecret: { env: "${env:ATRIUM_BACKEND_SECRET_PETS}", name: "x-secret" },
    });
    const own = await expose("env-own", secret("ATRIUM_CONTROL_PLANE_TOKEN"));
    const unlisted = await expose("env-unlisted", secret("ATRIUM_TEST_UNLISTED"));
    const unset = await expose("env-unset", secret("ATRIUM_BACKEND_SECRET_NOBODY_SET"));
    await waitFor(() => gateway.registry.byId(allowed.id) !== undefined, "the allowed Exposition");
    for (const refused of [own, unlisted, unset]) expect(gateway.registry.byId(refused.id)).toBeUndefined();
    await waitFor(async () => (await problemsOf(unset.id)).length > 0, "the reports");
    expect((await problemsOf(own.id))[0]?.message).toContain("never resolvable");
    expect((await problemsOf(unlisted.id))[0]?.message).toContain("ATRIUM_GATEWAY_ENV_ALLOW");
    expect((await problemsOf(unset.id))[0]?.message).toContain("not set");
    expect(await metricsText(gateway)).toContain('atrium_gateway_expositions_refused{reason="environment"} 3');

    const client = new Client(
      { name: "env-test", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp/${allowed.id}`)));
    try {
      await client.callTool({ name: "getPet", arguments: { petId: 1 } });
    } finally {
      await client.close();
    }
    expect(stack.backend.received.at(-1)?.headers["x-secret"]).toBe("pets-secret");
    expect(JSON.stringify(stack.backend.received)).not.toContain("the-gateway-token");

    // Whatever its operator allows, a gateway's own settings stay out of reach.
    const permissive = await stack.startGateway({ envAllow: ["*"] });
    expect(permissive.registry.byId(unlisted.id)).toBeDefined();
    expect(permissive.registry.byId(own.id)).toBeUndefined();
    await permissive.close();
  });
});
