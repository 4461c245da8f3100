/**
 * The exposition routes with the gateway registry, on PGlite and on PostgreSQL: an Exposition's
 * endpoints follow the live gateways its group selects; a gateway id is held by one instance;
 * health advertisements and malformed registrations are checked.
 */
import { describe, expect, it } from "vitest";
import { type ApiClient, createPetstore, DATABASE_KINDS, tokenClient, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("expositions on %s", (kind) => {
  let gatewayClient: ApiClient;
  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    gatewayClient = await tokenClient(cp);
  });

  it("publishes an exposition whose endpoints follow the live gateways its group selects", async () => {
    const admin = controlPlane().admin;
    const plan = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "petstore-plan",
      serviceId: await createPetstore(admin),
      backendEndpoint: "https://petstore.example.com/api",
    });
    const group = await admin.call("POST", "/api/v1/gateway-groups", { name: "dev", labels: { env: "dev" } });
    expect(group.status).toBe(201);
    expect(typeof group.body.id).toBe("number");
    const expo = await admin.call("POST", "/api/v1/expositions", {
      name: "petstore",
      configurationPlanId: plan.body.id,
      gatewayGroupId: group.body.id,
    });
    expect(expo.status).toBe(201);
    expect(expo.body).toMatchObject({ gatewayGroup: { id: group.body.id, name: "dev" }, endpoints: [] });

    const register = (id: string, instanceId: string, labels: Record<string, string>) =>
      gatewayClient.call("POST", "/api/v1/gateways/register", { id, instanceId, fqdns: [`${id}.example.com`], labels });
    expect((await register("gw-dev", "instance-aaaa", { env: "dev" })).status).toBe(200);
    expect((await register("gw-prod", "instance-bbbb", { env: "prod" })).status).toBe(200);
    const read = await admin.call("GET", `/api/v1/expositions/${expo.body.id}`);
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
});
