/**
 * `GET /expositions/:id/tools`, on PGlite and on PostgreSQL: each tool as clients see it — the
 * overridden name beside the Service's, the override's words, the effective inputSchema (fixed
 * arguments gone from it, as the shared builder makes it: that a gateway lists the same is
 * gateway/src/exposition-tools-view.stack.test.ts), fixed arguments, the filter with the
 * outputSchema derived through it, a custom tool's own schemas, and the budget (the tool's, else
 * the plan's); 404 for an Exposition of no one.
 */
import { customToolInputSchema, withoutArguments } from "@atrium/contract/tool-schema";
import { describe, expect, it } from "vitest";
import { createPetstore, DATABASE_KINDS, useIsolatedControlPlane } from "../testing.ts";

/** A custom tool of the Pet Store: its own inputSchema, one argument mirrored into an Mcp-Param header. */
const markSold = {
  name: "mark_sold",
  description: "Marks a pet sold",
  inputSchema: {
    type: "object",
    properties: {
      petId: { type: "integer", description: "The pet", "x-mcp-header": "Pet", "x-internal": "dropped when published" },
      store: { type: "string" },
      note: { type: "string" },
    },
    required: ["petId", "store"],
  },
  request: { method: "PATCH", path: "/stores/{{store}}/pets/{{petId}}", body: '{"note": {{note}}}' },
};

describe.each(DATABASE_KINDS)("exposition tools on %s", (kind) => {
  const controlPlane = useIsolatedControlPlane(kind);

  it("shows each tool's effective name, words, inputSchema, fixed arguments, filter, outputSchema and budget", async () => {
    const admin = controlPlane().admin;
    const serviceId = await createPetstore(admin);
    const custom = await admin.call("POST", "/api/v1/custom-tools", {
      name: "pet-tools",
      serviceId,
      tools: [markSold],
    });
    expect(custom.status).toBe(201);
    const plan = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "curated",
      serviceId,
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
        mark_sold: { fixedArguments: { store: "main" } },
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
    // Its only argument is fixed: gone from the properties and from required.
    expect(getPet.inputSchema).toEqual({ type: "object", properties: {}, additionalProperties: false });
    const byName = (name: string) => tools.body.items.find((tool: { name: string }) => tool.name === name);
    expect(byName("listPets").inputSchema).toEqual({
      type: "object",
      properties: { status: { type: "string", enum: ["available", "sold"] } },
      additionalProperties: false,
    });
    expect(byName("createPet").inputSchema).toMatchObject({
      type: "object",
      properties: { body: { type: "object", required: ["name"], properties: { name: { type: "string" } } } },
      required: ["body"],
      additionalProperties: false,
    });

    // A custom tool: its own inputSchema as the shared builder publishes it, the fixed store dropped.
    const marked = byName("mark_sold");
    expect(marked).toMatchObject({ from: "mark_sold", kind: "custom", fixedArguments: { store: "main" } });
    expect(marked.inputSchema).toEqual(withoutArguments(customToolInputSchema(markSold).inputSchema, ["store"]));
    expect(marked.inputSchema).toEqual({
      type: "object",
      properties: {
        petId: { type: "integer", description: "The pet", "x-mcp-header": "Pet" },
        note: { type: "string" },
      },
      required: ["petId"],
    });
    expect(marked.outputSchema).toBeUndefined(); // a request template declares no answer
    const other = tools.body.items.find((tool: { from: string }) => tool.from !== "getPet");
    expect(other).toMatchObject({ name: other.from, maxResultBytes: 65536 });
    // As gateways describe an operation: its summary, then its description.
    expect(other.description).toEqual(expect.any(String));
    expect(other.filter).toBeUndefined();

    const missing = await admin.call("GET", "/api/v1/expositions/00000000-0000-4000-8000-000000000000/tools");
    expect(missing.status).toBe(404);
  });
});
