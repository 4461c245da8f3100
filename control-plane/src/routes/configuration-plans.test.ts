/**
 * The configuration-plan routes, on PGlite and on PostgreSQL: a plan's operations are checked
 * against its Service, its client API key is shown once, stored hashed and renewed with no
 * overlap, a plan still in use cannot be deleted, and one stored before the circuit breaker
 * existed reads with its defaults.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sha256 } from "../auth/tokens.ts";
import { createPetstore, DATABASE_KINDS, expose, selectRows, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("configuration plans on %s", (kind) => {
  let serviceId: string;
  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    serviceId = await createPetstore(cp.admin);
  });

  /** A plan with a client API key; returns its id and key. */
  async function planWithKey(name: string): Promise<{ id: string; apiKey: string }> {
    const created = await controlPlane().admin.call("POST", "/api/v1/configuration-plans", {
      name,
      serviceId,
      backendEndpoint: "https://petstore.example.com/api",
      apiKey: true,
    });
    expect(created.status).toBe(201);
    return { id: created.body.id, apiKey: created.body.apiKey };
  }

  it("creates a plan with an API key shown once, and checks its operations against the service", async () => {
    const unknownOp = await controlPlane().admin.call("POST", "/api/v1/configuration-plans", {
      name: "bad-plan",
      serviceId,
      backendEndpoint: "https://petstore.example.com",
      includedOperations: ["listPets", "nope"],
    });
    expect(unknownOp.status).toBe(422);
    expect(unknownOp.body.errors[0]).toMatchObject({ field: "body.includedOperations" });
    expect(unknownOp.body.errors[0].message).toContain("nope");

    const badUrl = await controlPlane().admin.call("POST", "/api/v1/configuration-plans", {
      name: "bad-url",
      serviceId,
      backendEndpoint: "ftp://x",
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.errors[0].field).toBe("body.backendEndpoint");

    const created = await controlPlane().admin.call("POST", "/api/v1/configuration-plans", {
      name: "petstore-plan",
      serviceId,
      backendEndpoint: "https://petstore.example.com/api",
      apiKey: true,
      excludedOperations: ["deletePet"],
    });
    expect(created.status).toBe(201);
    expect(created.body.apiKey).toMatch(/^atr_k_/);
    expect(created.body).toMatchObject({ hasApiKey: true, toolExposureMode: "PerOperation", backendTimeoutMs: 30000 });
    const read = await controlPlane().admin.call("GET", `/api/v1/configuration-plans/${created.body.id}`);
    expect(read.body.apiKey).toBeUndefined();
  });

  it("takes backendTls for https backends only, with stored secrets of the organization, and shows no key", async () => {
    const admin = controlPlane().admin;
    const base = { serviceId, backendEndpoint: "https://orders.example.com" };
    const onHttp = await admin.call("POST", "/api/v1/configuration-plans", {
      ...base,
      name: "tls-on-http",
      backendEndpoint: "http://orders.example.com",
      backendTls: { serverName: "orders.internal" },
    });
    expect(onHttp.status).toBe(400);
    expect(onHttp.body.errors).toContainEqual(
      expect.objectContaining({
        field: "body.backendTls",
        message: "backendTls needs an https backendEndpoint: a plain-http backend has no TLS to configure",
      }),
    );
    const certificateAlone = await admin.call("POST", "/api/v1/configuration-plans", {
      ...base,
      name: "tls-certificate-alone",
      backendTls: { clientCertificate: { file: "/var/run/atrium/backend-tls/tls.crt" } },
    });
    expect(certificateAlone.status).toBe(400);
    expect(certificateAlone.body.errors[0]).toMatchObject({ field: "body.backendTls.clientKey" });
    const keyInCa = await admin.call("POST", "/api/v1/configuration-plans", {
      ...base,
      name: "tls-key-in-ca",
      backendTls: {
        caBundle:
          "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nBBBB\n-----END PRIVATE KEY-----",
      },
    });
    expect(keyInCa.status).toBe(400);
    expect(keyInCa.body.errors[0]).toMatchObject({ field: "body.backendTls.caBundle" });
    const unknownSecret = await admin.call("POST", "/api/v1/configuration-plans", {
      ...base,
      name: "tls-unknown-secret",
      backendTls: {
        clientCertificate: { secretId: "00000000-0000-4000-8000-000000000001" },
        clientKey: { file: "/var/run/atrium/backend-tls/tls.key" },
      },
    });
    expect(unknownSecret.status).toBe(422);
    expect(unknownSecret.body.errors[0]).toMatchObject({ field: "body.backendTls.clientCertificate.secretId" });
    const names = (await admin.call("GET", "/api/v1/configuration-plans")).body.items.map(
      (p: { name: string }) => p.name,
    );
    expect(names.filter((name: string) => name.startsWith("tls-"))).toEqual([]);

    const key = await admin.call("POST", "/api/v1/secrets", {
      name: "orders-key",
      value: "-----BEGIN PRIVATE KEY-----",
    });
    const created = await admin.call("POST", "/api/v1/configuration-plans", {
      ...base,
      name: "tls-plan",
      backendTls: {
        clientCertificate: { file: "/var/run/atrium/backend-tls/tls.crt" },
        clientKey: { secretId: key.body.id },
        serverName: "orders.internal",
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await admin.call("GET", `/api/v1/configuration-plans/${created.body.id}`);
    expect(read.body.backendTls).toEqual({
      clientCertificate: { file: "/var/run/atrium/backend-tls/tls.crt" },
      clientKey: { secretId: key.body.id },
      serverName: "orders.internal",
    });
    expect(JSON.stringify(read.body)).not.toContain("PRIVATE KEY");
  });

  it("renews the API key with no overlap", async () => {
    const plan = await planWithKey("renewed");
    const renewed = await controlPlane().admin.call("POST", `/api/v1/configuration-plans/${plan.id}/renew-api-key`);
    expect(renewed.status).toBe(200);
    expect(renewed.body.apiKey).toMatch(/^atr_k_/);
    expect(renewed.body.apiKey).not.toBe(plan.apiKey);
  });

  it("stores API keys hashed, the renewed one too", async () => {
    const plan = await planWithKey("hashed");
    const storedHash = async () =>
      (
        await selectRows<{ api_key_hash: string }>(
          controlPlane(),
          sql`select api_key_hash from configuration_plans where id = ${plan.id}`,
        )
      )[0]?.api_key_hash;
    expect(await storedHash()).toBe(sha256(plan.apiKey));
    const renewed = await controlPlane().admin.call("POST", `/api/v1/configuration-plans/${plan.id}/renew-api-key`);
    expect(await storedHash()).toBe(sha256(renewed.body.apiKey));
  });

  it("reads a plan stored before the circuit breaker existed with the breaker's defaults", async () => {
    const plan = await planWithKey("stored-before-breaker");
    const settings = async () =>
      (
        await selectRows<{ settings: Record<string, unknown> }>(
          controlPlane(),
          sql`select settings from configuration_plans where id = ${plan.id}`,
        )
      )[0]?.settings;
    expect((await settings())?.circuitBreaker).toEqual({ enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 });
    // As an older control plane stored it: no circuitBreaker at all.
    await selectRows(
      controlPlane(),
      sql`update configuration_plans set settings = settings - 'circuitBreaker' where id = ${plan.id} returning id`,
    );
    expect(await settings()).not.toHaveProperty("circuitBreaker");
    const read = await controlPlane().admin.call("GET", `/api/v1/configuration-plans/${plan.id}`);
    expect(read.status).toBe(200);
    expect(read.body.circuitBreaker).toEqual({ enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 });
  });

  it("refuses deleting what is still in use, and keeps the record", async () => {
    const { planId } = await expose(controlPlane().admin, "in-use", { serviceId });
    const refused = await controlPlane().admin.call("DELETE", `/api/v1/configuration-plans/${planId}`);
    expect(refused.status).toBe(409);
    expect((await controlPlane().admin.call("GET", `/api/v1/configuration-plans/${planId}`)).status).toBe(200);
  });
});
