/**
 * The CustomTools, Resources and Prompts routes, on PGlite and on PostgreSQL: lists attached to
 * a Service, their items' names unique, their Service one of the organization's.
 */
import { describe, expect, it } from "vitest";
import { createPetstore, DATABASE_KINDS, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("service artifacts on %s", (kind) => {
  let serviceId: string;
  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    serviceId = await createPetstore(cp.admin);
  });

  it("attaches custom tools, resources and prompts to a service", async () => {
    const admin = controlPlane().admin;
    const tools = await admin.call("POST", "/api/v1/custom-tools", {
      name: "extra-tools",
      serviceId,
      tools: [
        { name: "mark_sold", description: "Marks a pet sold", request: { method: "PATCH", path: "/pets/{{petId}}" } },
      ],
    });
    expect(tools.status).toBe(201);
    const resources = await admin.call("POST", "/api/v1/resources", {
      name: "docs",
      serviceId,
      resources: [{ uri: "docs://policy", name: "policy", text: "Adults only." }],
    });
    expect(resources.status).toBe(201);
    const prompts = await admin.call("POST", "/api/v1/prompts", {
      name: "prompts",
      serviceId,
      prompts: [{ name: "hello", messages: [{ role: "user", text: "Hello {{name}}" }] }],
    });
    expect(prompts.status).toBe(201);
    expect((await admin.call("GET", "/api/v1/prompts")).body.items.map((p: { name: string }) => p.name)).toEqual([
      "prompts",
    ]);

    const duplicate = await admin.call("POST", "/api/v1/custom-tools", {
      name: "dupes",
      serviceId,
      tools: [
        { name: "a", description: "x", request: { method: "GET", path: "/a" } },
        { name: "a", description: "y", request: { method: "GET", path: "/b" } },
      ],
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0].field).toBe("body.tools.1");
    const noService = await admin.call("POST", "/api/v1/resources", {
      name: "orphan",
      serviceId: "00000000-0000-4000-8000-000000000000",
      resources: [],
    });
    expect(noService.status).toBe(422);
  });
});
