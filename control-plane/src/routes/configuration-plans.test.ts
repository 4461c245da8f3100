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
