/**
 * A plan's toolOverrides at write time, on PGlite and on PostgreSQL: each names a tool the plan
 * has (its custom tools' too), renames collide with no other tool, fixed arguments are the tool's
 * and match their schema; every refusal is a located 422 that changes nothing.
 */
import { describe, expect, it } from "vitest";
import { createPetstore, DATABASE_KINDS, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("plan toolOverrides on %s", (kind) => {
  let serviceId: string;
  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    serviceId = await createPetstore(cp.admin);
    const tools = await cp.admin.call("POST", "/api/v1/custom-tools", {
      name: "extra-tools",
      serviceId,
      tools: [
        {
          name: "mark_sold",
          description: "Marks a pet sold",
          inputSchema: { type: "object", properties: { petId: { type: "integer" } } },
          request: { method: "PATCH", path: "/pets/{{petId}}" },
        },
      ],
    });
    expect(tools.status).toBe(201);
  });

  const plan = (fields: Record<string, unknown>) =>
    controlPlane().admin.call("POST", "/api/v1/configuration-plans", {
      name: "curated",
      serviceId,
      backendEndpoint: "https://petstore.example.com/api",
      ...fields,
    });

  it("keeps overrides, fixed arguments and budgets that fit the Service, and shows them", async () => {
    const toolOverrides = {
      getPet: { name: "get_the_pet", description: "One pet, by id", fixedArguments: { petId: 7 } },
      mark_sold: { title: "Sell", fixedArguments: { petId: 3 }, maxResultBytes: 4096 },
      createPet: { fixedArguments: { body: { name: "Rex" } }, annotations: { idempotentHint: true } },
    };
    const created = await plan({ toolOverrides, maxResultBytes: 65536 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ toolOverrides, maxResultBytes: 65536 });
    const read = await controlPlane().admin.call("GET", `/api/v1/configuration-plans/${created.body.id}`);
    expect(read.body).toMatchObject({ toolOverrides, maxResultBytes: 65536 });
    const removed = await controlPlane().admin.call("DELETE", `/api/v1/configuration-plans/${created.body.id}`);
    expect(removed.status).toBe(204);
  });

  it("refuses a tool the plan does not have, one it excludes among them", async () => {
    const refused = await plan({ excludedOperations: ["deletePet"], toolOverrides: { deletePet: { title: "x" } } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { field: "body.toolOverrides.deletePet", message: expect.stringContaining("no tool is named deletePet") },
    ]);
    expect(refused.body.errors[0].message).toContain("mark_sold");
    const listed = await controlPlane().admin.call("GET", "/api/v1/configuration-plans");
    expect(listed.body.items).toEqual([]);
  });

  it("refuses a rename onto another tool's name, and two renames onto one name", async () => {
    const taken = await plan({ toolOverrides: { getPet: { name: "listPets" } } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual([
      {
        field: "body.toolOverrides.getPet.name",
        message: "listPets is the name of tool listPets too: tool names must stay unique",
      },
    ]);
    const twice = await plan({ toolOverrides: { getPet: { name: "pet" }, listPets: { name: "pet" } } });
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0]).toMatchObject({
      field: "body.toolOverrides.listPets.name",
      message: "listPets and getPet are both renamed pet: tool names must stay unique",
    });
    // A swap is no collision.
    const swap = await plan({ toolOverrides: { getPet: { name: "listPets" }, listPets: { name: "getPet" } } });
    expect(swap.status).toBe(201);
    await controlPlane().admin.call("DELETE", `/api/v1/configuration-plans/${swap.body.id}`);
  });

  it("refuses fixed arguments the tool lacks or whose value its schema refuses", async () => {
    const refused = await plan({
      toolOverrides: {
        getPet: { fixedArguments: { petId: "seven", owner: "me" } },
        mark_sold: { fixedArguments: { petId: 1.5 } },
        createPet: { fixedArguments: { body: { status: "lost" } } },
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { field: "body.toolOverrides.getPet.fixedArguments.petId", message: expect.stringContaining("must be integer") },
      {
        field: "body.toolOverrides.getPet.fixedArguments.owner",
        message: "getPet has no argument owner; its arguments are petId",
      },
      {
        field: "body.toolOverrides.mark_sold.fixedArguments.petId",
        message: expect.stringContaining("must be integer"),
      },
      {
        field: "body.toolOverrides.createPet.fixedArguments.body",
        message: expect.stringContaining("must have required property 'name'"),
      },
    ]);
  });

  it("refuses an empty override, a budget below 1024 bytes, and a scope naming a renamed tool by its old name", async () => {
    const refused = await plan({
      toolOverrides: { getPet: {}, listPets: { name: "pets" } },
      maxResultBytes: 10,
      limits: { tools: { listPets: { concurrentCalls: 1 } } },
    });
    expect(refused.status).toBe(400);
    const fields = refused.body.errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(
      expect.arrayContaining(["body.toolOverrides.getPet", "body.maxResultBytes", "body.limits.tools.listPets"]),
    );
    expect(JSON.stringify(refused.body.errors)).toContain("toolOverrides renames listPets to pets: name it pets here");
  });
});
