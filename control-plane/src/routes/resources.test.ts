/**
 * Organizations kept apart, on PGlite and on PostgreSQL: every kind of record one organization
 * has (Service, plan, group, Exposition, custom tools, prompts, gateways, secrets) is out of
 * another's reach — not read, deleted, renewed, referenced or listed. The records are made once,
 * before the journey, so it does not depend on any other test having run.
 */
import { describe, expect, it } from "vitest";
import {
  type ApiClient,
  addOrganization,
  DATABASE_KINDS,
  type Exposed,
  expose,
  registerGateway,
  tokenClient,
  useIsolatedControlPlane,
} from "../testing.ts";

describe.each(DATABASE_KINDS)("records on %s", (kind) => {
  let other: ApiClient;
  let exposed: Exposed;
  const artifacts: Record<string, string> = {};

  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    other = await addOrganization(cp, "other");
    const admin = cp.admin;
    exposed = await expose(admin, "petstore", { labels: { env: "dev" }, plan: { apiKey: true } });
    const serviceId = exposed.serviceId;
    artifacts.tools = (
      await admin.call("POST", "/api/v1/custom-tools", {
        name: "extra-tools",
        serviceId,
        tools: [{ name: "mark_sold", description: "Marks a pet sold", request: { method: "PATCH", path: "/pets/1" } }],
      })
    ).body.id;
    artifacts.prompts = (
      await admin.call("POST", "/api/v1/prompts", {
        name: "prompts",
        serviceId,
        prompts: [{ name: "hello", messages: [{ role: "user", text: "Hello {{name}}" }] }],
      })
    ).body.id;
    await admin.call("POST", "/api/v1/resources", {
      name: "docs",
      serviceId,
      resources: [{ uri: "docs://policy", name: "policy", text: "Adults only." }],
    });
    await admin.call("POST", "/api/v1/secrets", { name: "backend-token", value: "s3cr3t-value-42" });
    await registerGateway(await tokenClient(cp), { id: "gw-dev", instanceId: "instance-aaaa" }, { env: "dev" });
  });

  it("keeps every kind of record out of other organizations' reach", async () => {
    const paths = [
      `/api/v1/services/${exposed.serviceId}`,
      `/api/v1/configuration-plans/${exposed.planId}`,
      `/api/v1/gateway-groups/${exposed.groupId}`,
      `/api/v1/expositions/${exposed.expositionId}`,
      `/api/v1/custom-tools/${artifacts.tools}`,
      `/api/v1/prompts/${artifacts.prompts}`,
    ];
    for (const path of paths) {
      expect((await other.call("GET", path)).status, path).toBe(404);
      expect((await other.call("DELETE", path)).status, path).toBe(404);
    }
    const renew = await other.call("POST", `/api/v1/configuration-plans/${exposed.planId}/renew-api-key`);
    expect(renew.status).toBe(404);
    const crossPlan = await other.call("POST", "/api/v1/configuration-plans", {
      name: "steal",
      serviceId: exposed.serviceId,
      backendEndpoint: "https://x.example.com",
    });
    expect(crossPlan.status).toBe(422);
    for (const list of [
      "/api/v1/services",
      "/api/v1/configuration-plans",
      "/api/v1/gateway-groups",
      "/api/v1/expositions",
      "/api/v1/gateways",
      "/api/v1/secrets",
      "/api/v1/custom-tools",
      "/api/v1/resources",
      "/api/v1/prompts",
    ]) {
      expect((await other.call("GET", list)).body.items, list).toEqual([]);
    }
    // The records are there: the organization that owns them lists them.
    for (const list of ["/api/v1/services", "/api/v1/gateways", "/api/v1/secrets", "/api/v1/resources"]) {
      expect((await controlPlane().admin.call("GET", list)).body.items, list).toHaveLength(1);
    }
  });
});
