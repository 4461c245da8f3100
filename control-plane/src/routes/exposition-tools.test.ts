/**
 * `GET /expositions/:id/tools`, on PGlite and on PostgreSQL: each tool as clients see it — the
 * overridden name beside the Service's, the override's words, fixed arguments, the filter with the
 * outputSchema derived through it, and the budget (the tool's, else the plan's); 404 for an
 * Exposition of no one.
 */
import { describe, expect, it } from "vitest";
import { createPetstore, DATABASE_KINDS, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("exposition tools on %s", (kind) => {
  const controlPlane = useIsolatedControlPlane(kind);

  it("shows each tool's effective name, words, fixed arguments, filter, outputSchema and budget", async () => {
    const admin = controlPlane().admin;
    const plan = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "curated",
      serviceId: await createPetstore(admin),
      backendEndpoint: "https://petstore.example.com/api",
      excludedOperations: ["deletePet"],
      maxResultBytes: 65536,
      toolOverrides: {
        getPet: {
          name: "get_the_pet",
          description: "One pet, by id",
          fixedArguments: { petId: 7 },
          maxResultBytes: 4096,
        },
      },
      toolOutputFilters: { getPet: { retain: ["/name"], format: "toon" } },
    });
    expect(plan.status).toBe(201);
    const group = await admin.call("POST", "/api/v1/gateway-groups", { name: "dev", labels: { env: "dev" } });
    const expo = await admin.call("POST", "/api/v1/expositions", {
      name: "petstore",
      configurationPlanId: plan.body.id,
      gatewayGroupId: group.body.id,
    });
    expect(expo.status).toBe(201);

    const tools = await admin.call("GET", `/api/v1/expositions/${expo.body.id}/tools`);
    expect(tools.status).toBe(200);
    const names = tools.body.items.map((tool: { name: string }) => tool.name);
    expect(names).toContain("get_the_pet");
    expect(names).not.toContain("getPet");
    expect(names).not.toContain("deletePet");
    const getPet = tools.body.items.find((tool: { from: string }) => tool.from === "getPet");
    expect(getPet).toMatchObject({
      name: "get_the_pet",
      kind: "operation",
      description: "One pet, by id",
      fixedArguments: { petId: 7 },
      filter: { retain: ["/name"], format: "toon" },
      maxResultBytes: 4096,
    });
    expect(Object.keys(getPet.outputSchema.properties)).toEqual(["name"]);
    const other = tools.body.items.find((tool: { from: string }) => tool.from !== "getPet");
    expect(other).toMatchObject({ name: other.from, maxResultBytes: 65536 });
    // As gateways describe an operation: its summary, then its description.
    expect(other.description).toEqual(expect.any(String));
    expect(other.filter).toBeUndefined();

    const missing = await admin.call("GET", "/api/v1/expositions/00000000-0000-4000-8000-000000000000/tools");
    expect(missing.status).toBe(404);
  });
});
