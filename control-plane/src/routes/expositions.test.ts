/**
 * The exposition routes with the gateway registry, on PGlite and on PostgreSQL: an Exposition's
 * endpoints follow the live gateways its group selects; a gateway id is held by one instance;
 * health advertisements and malformed registrations are checked; the list gives each Exposition
 * its own group's endpoints; PUT changes an Exposition in place, and a refused PUT keeps it as it was.
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

  it("lists every exposition with the endpoints of its own group, groups shared by several", async () => {
    const admin = controlPlane().admin;
    const { body: plan } = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "listed-plan",
      serviceId: await createPetstore(admin, "petstore-listed"),
      backendEndpoint: "https://petstore.example.com/api",
    });
    const group = async (zone: string) =>
      (await admin.call("POST", "/api/v1/gateway-groups", { name: `zone-${zone}`, labels: { zone } })).body.id;
    const [north, south, empty] = [await group("north"), await group("south"), await group("nowhere")];
    const listed = { "listed-1": north, "listed-2": south, "listed-3": north, "listed-4": empty };
    for (const [name, gatewayGroupId] of Object.entries(listed)) {
      const created = await admin.call("POST", "/api/v1/expositions", {
        name,
        configurationPlanId: plan.id,
        gatewayGroupId,
      });
      expect(created.status).toBe(201);
    }
    for (const [id, zone] of [
      ["n2", "north"],
      ["s1", "south"],
      ["n1", "north"],
    ]) {
      const registered = await gatewayClient.call("POST", "/api/v1/gateways/register", {
        id,
        instanceId: `instance-${id}-listed`,
        fqdns: [`${id}.listed.example.com`],
        labels: { zone },
      });
      expect(registered.status).toBe(200);
    }
    const items = (await admin.call("GET", "/api/v1/expositions")).body.items as {
      name: string;
      endpoints: string[];
    }[];
    const endpoints = Object.fromEntries(
      items.filter((item) => item.name.startsWith("listed-")).map((item) => [item.name, item.endpoints]),
    );
    expect(endpoints).toEqual({
      "listed-1": ["n1.listed.example.com", "n2.listed.example.com"],
      "listed-2": ["s1.listed.example.com"],
      "listed-3": ["n1.listed.example.com", "n2.listed.example.com"],
      "listed-4": [],
    });
  });

  it("changes an exposition's name, plan and group in place; a refused change keeps it as it was", async () => {
    const admin = controlPlane().admin;
    const serviceId = await createPetstore(admin, "petstore-edited");
    const plan = (name: string) =>
      admin.call("POST", "/api/v1/configuration-plans", {
        name,
        serviceId,
        backendEndpoint: "https://petstore.example.com/api",
      });
    const [first, second] = [(await plan("first-plan")).body.id, (await plan("second-plan")).body.id];
    const blue = (await admin.call("POST", "/api/v1/gateway-groups", { name: "blue", labels: { c: "blue" } })).body.id;
    const green = (await admin.call("POST", "/api/v1/gateway-groups", { name: "green", labels: { c: "green" } })).body
      .id;
    const create = (name: string) =>
      admin.call("POST", "/api/v1/expositions", { name, configurationPlanId: first, gatewayGroupId: blue });
    const expo = (await create("shop")).body;
    await create("taken");

    const moved = await admin.call("PUT", `/api/v1/expositions/${expo.id}`, {
      name: "shop-v2",
      configurationPlanId: second,
      gatewayGroupId: green,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      id: expo.id,
      name: "shop-v2",
      configurationPlanId: second,
      gatewayGroup: { id: green, name: "green" },
    });

    const unknownPlan = "00000000-0000-4000-8000-000000000000";
    const refused = await admin.call("PUT", `/api/v1/expositions/${expo.id}`, {
      name: "shop-v3",
      configurationPlanId: unknownPlan,
      gatewayGroupId: 999_999,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([
      "body.configurationPlanId",
      "body.gatewayGroupId",
    ]);
    const clash = await admin.call("PUT", `/api/v1/expositions/${expo.id}`, {
      name: "taken",
      configurationPlanId: first,
      gatewayGroupId: blue,
    });
    expect(clash.status).toBe(409);
    const kept = await admin.call("GET", `/api/v1/expositions/${expo.id}`);
    expect(kept.body).toMatchObject({ name: "shop-v2", configurationPlanId: second, gatewayGroupId: green });

    const missing = await admin.call("PUT", `/api/v1/expositions/${unknownPlan}`, {
      name: "ghost",
      configurationPlanId: first,
      gatewayGroupId: blue,
    });
    expect(missing.status).toBe(404);
  });
});
