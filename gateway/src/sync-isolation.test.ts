/**
 * One Exposition a gateway cannot serve never affects another: a record the contract refuses (an
 * operation parameter without a name, written past the import's checks), a Service kind or an
 * operation's call recipe the gateway does not know (a newer control plane's), or a backend secret
 * naming an environment variable the gateway does not allow is skipped and reported — logged,
 * shown in the Exposition's REST view, in readiness details and metrics — while the Expositions
 * around it are served, a freshly started gateway becomes ready, and a repaired one is served again.
 */
import { PassThrough } from "node:stream";
import { captureOutput } from "@atrium/reliability/secrets";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { sql } from "drizzle-orm";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { type Gateway, startGateway } from "./gateway.ts";
import { managementUrl } from "./server.ts";
import { FIXTURE_OPENAPI, type Stack, useStackWithGateway, waitFor } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;

useStackWithGateway((running) => ({ stack, gateway } = running));

/**
 * A Service, plan and Exposition on the gateways' group; `tamper` rewrites the stored Service before
 * the Exposition is created (as records stored by older versions, or a newer control plane's, may be).
 */
async function expose(
  name: string,
  plan: Record<string, unknown> = {},
  tamper?: (serviceId: string) => Promise<unknown>,
) {
  const admin = stack.controlPlane.admin;
  const service = await admin.call("POST", "/api/v1/services", {
    name,
    version: "1",
    openapi: { inline: FIXTURE_OPENAPI },
  });
  expect(service.status).toBe(201);
  const planBody = { name, serviceId: service.body.id, backendEndpoint: `${stack.backend.url}/api`, ...plan };
  const created = await admin.call("POST", "/api/v1/configuration-plans", planBody);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await tamper?.(service.body.id);
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

/** Calls `getPet` on an Exposition (its plan has no API key) with the official client. */
async function getPet(expositionId: string) {
  const client = new Client(
    { name: "isolation-test", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp/${expositionId}`)));
  try {
    return await client.callTool({ name: "getPet", arguments: { petId: 1 } });
  } finally {
    await client.close();
  }
}

async function metricsText(of: Gateway): Promise<string> {
  const response = await request(`${managementUrl(of.app)}/q/metrics`);
  return response.body.text();
}

describe("a record a gateway cannot serve", () => {
  it("is skipped and reported, while the Expositions after it are served", async () => {
    const broken = await expose("broken", {}, (id) => setFirstParameterName(id, ""));
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

    await getPet(allowed.id);
    expect(stack.backend.received.at(-1)?.headers["x-secret"]).toBe("pets-secret");
    expect(JSON.stringify(stack.backend.received)).not.toContain("the-gateway-token");

    // Whatever its operator allows, a gateway's own settings stay out of reach.
    const permissive = await stack.startGateway({ envAllow: ["*"] });
    expect(permissive.registry.byId(unlisted.id)).toBeDefined();
    expect(permissive.registry.byId(own.id)).toBeUndefined();
    await permissive.close();
  });
  it("skips an Exposition of a Service kind, or with a call recipe, it does not know, and serves the one beside it", async () => {
    const db = stack.controlPlane.database.db;
    // What a newer control plane could send: a kind, and a recipe on an operation, of a protocol this gateway does not call.
    const soapService = await expose("soap-service", {}, (id) =>
      db.execute(sql`update services set document = jsonb_set(document, '{kind}', '"soap"') where id = ${id}`),
    );
    const soapRecipe = await expose("soap-recipe", {}, (id) =>
      db.execute(
        sql`update services set operations = jsonb_set(operations, '{0,soap}', '{"action": "urn:listPets"}') where id = ${id}`,
      ),
    );
    const beside = await expose("beside-soap");
    await waitFor(() => gateway.registry.byId(beside.id) !== undefined, "the Exposition after the unknown ones");
    const listed = gateway.registry.all().map((exposition) => exposition.id);
    expect(listed).toContain(beside.id);
    expect(listed).not.toContain(soapService.id);
    expect(listed).not.toContain(soapRecipe.id);
    expect(gateway.sync.lastFailure).toBeUndefined();

    await waitFor(async () => (await problemsOf(soapRecipe.id)).length > 0, "the reports");
    await waitFor(async () => (await problemsOf(soapService.id)).length > 0, "the reports");
    expect((await problemsOf(soapService.id))[0]?.message).toContain('its Service is of kind "soap"');
    expect((await problemsOf(soapRecipe.id))[0]?.message).toContain('carries "soap"');
    expect(await problemsOf(beside.id)).toEqual([]);
    expect(await metricsText(gateway)).toContain('atrium_gateway_expositions_refused{reason="unsupported"} 2');

    // The one beside them serves.
    expect((await getPet(beside.id)).isError).toBeFalsy();

    // A gateway starting now gets them in its snapshot, logs each, and still becomes ready.
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
    captureOutput("gateway", logStream); // and to the run dir, for the end-of-run secrets scan
    const fresh = await startGateway(stack.gatewayConfig({ logLevel: "warn" }), { logStream });
    try {
      await waitFor(() => fresh.sync.ready && fresh.registry.byId(beside.id) !== undefined, "the fresh gateway");
      expect(fresh.registry.byId(soapService.id)).toBeUndefined();
      const skipped = lines
        .map((line) => JSON.parse(line) as { msg?: string; exposition?: string; reason?: string })
        .filter((entry) => entry.msg?.startsWith("skipped an Exposition"));
      expect(skipped).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ exposition: soapService.id, reason: "unsupported" }),
          expect.objectContaining({ exposition: soapRecipe.id, reason: "unsupported" }),
        ]),
      );
    } finally {
      await fresh.close();
    }
  });
});
