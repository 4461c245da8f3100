/**
 * A ConfigurationPlan's `graphql.selectionDepth` through the REST API and the change stream on
 * PGlite: refused on a Service that is not graphql (fail closed) and out of 1–5; a depth whose
 * tools would pass the fields budget is a 422 that stores nothing; an accepted depth reaches the
 * gateways as finished documents and output schemas, and a change of depth as a change; an
 * Exposition whose Service grew past the budget at its plan's depth is left out, not cut.
 */
import { describe, expect, it } from "vitest";
import {
  createPetstore,
  type IsolatedControlPlane,
  openChangeStream,
  registerGateway,
  tokenClient,
  useIsolatedControlPlane,
} from "../testing.ts";
import { deepSdl, storeSdl } from "./test-schemas.ts";

const upload = { "content-type": "text/plain" };

/**
 * The store imported as `name`, a plan on it at `selectionDepth`, published on a group of its own
 * that a gateway of its own registered for: what the tests read that gateway's stream with.
 */
async function published(cp: IsolatedControlPlane, name: string, selectionDepth: number) {
  const { admin } = cp;
  const service = await admin.call("POST", `/api/v1/services/import?name=${name}&version=1`, storeSdl, upload);
  const plan = await admin.call("POST", "/api/v1/configuration-plans", {
    name,
    serviceId: service.body.id,
    backendEndpoint: `https://${name}.example.com/graphql`,
    graphql: { selectionDepth },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const group = await admin.call("POST", "/api/v1/gateway-groups", { name, labels: { [name]: "yes" } });
  const exposition = await admin.call("POST", "/api/v1/expositions", {
    name,
    configurationPlanId: plan.body.id,
    gatewayGroupId: group.body.id,
  });
  const gateway = { id: `gw-${name}`, instanceId: `${name}-test-instance` };
  const gatewayClient = await tokenClient(cp, `gw-${name}`);
  await registerGateway(gatewayClient, gateway, { [name]: "yes" });
  const openStream = () => openChangeStream(cp.url, gatewayClient.token as string, gateway);
  return { serviceId: service.body.id, plan: plan.body, expositionId: exposition.body.id, openStream };
}

describe("a plan's GraphQL selection depth", () => {
  const controlPlane = useIsolatedControlPlane("pglite");

  it("is refused on an OpenAPI Service, and outside 1 to 5, storing nothing", async () => {
    const { admin } = controlPlane();
    const petstoreId = await createPetstore(admin);
    const plan = { name: "pets", serviceId: petstoreId, backendEndpoint: "https://petstore.example.com" };
    const refused = await admin.call("POST", "/api/v1/configuration-plans", {
      ...plan,
      graphql: { selectionDepth: 3 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("GRAPHQL_SETTINGS_NOT_APPLICABLE");
    expect(refused.body.detail).toContain(
      "is of kind openapi: only a plan on a graphql Service takes graphql settings",
    );
    for (const selectionDepth of [0, 6, 2.5]) {
      const outside = await admin.call("POST", "/api/v1/configuration-plans", { ...plan, graphql: { selectionDepth } });
      expect(outside.status, String(selectionDepth)).toBe(400);
      expect(JSON.stringify(outside.body)).toContain("selectionDepth");
    }
    const list = await admin.call("GET", "/api/v1/configuration-plans");
    expect(list.body.items).toEqual([]);
  });

  it("reaches the gateways as documents and output schemas of that depth", async () => {
    const cp = controlPlane();
    const { admin } = cp;
    const { serviceId, plan, expositionId, openStream } = await published(cp, "store", 3);
    expect(plan.graphql).toEqual({ selectionDepth: 3 });
    const stream = await openStream();
    try {
      const snapshot = await stream.next("snapshot");
      const compiled = snapshot.expositions.find((e: { id: string }) => e.id === expositionId);
      const product = compiled.service.operations.find((op: { operationId: string }) => op.operationId === "product");
      expect(product.graphql.document).toBe(
        "query product($id: ID!) { product(id: $id) { id name price category createdAt sku reviews { stars text author { id name } } } }",
      );
      expect(product.responses[0].schema.properties.product.properties.reviews.items.properties.author).toMatchObject({
        type: ["object", "null"],
        properties: { id: { type: "string" }, name: { type: "string" } },
      });

      const changed = await admin.call("PUT", `/api/v1/configuration-plans/${plan.id}`, {
        name: "store",
        serviceId,
        backendEndpoint: "https://store.example.com/graphql",
        graphql: { selectionDepth: 1 },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const change = await stream.next("changes");
      const upserted = change.upserts.find((e: { id: string }) => e.id === expositionId);
      const shallow = upserted.service.operations.find((op: { operationId: string }) => op.operationId === "product");
      expect(shallow.graphql.document).toBe(
        "query product($id: ID!) { product(id: $id) { id name price category createdAt sku } }",
      );
    } finally {
      stream.close();
    }
  });

  it("refuses a depth whose tools would pass the selected-fields budget, naming the way out", async () => {
    const { admin } = controlPlane();
    const service = await admin.call("POST", "/api/v1/services/import?name=deep&version=1", deepSdl, upload);
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    const refused = await admin.call("POST", "/api/v1/configuration-plans", {
      name: "deep",
      serviceId: service.body.id,
      backendEndpoint: "https://deep.example.com/graphql",
      graphql: { selectionDepth: 5 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("GRAPHQL_SELECTION_TOO_LARGE");
    expect(refused.body.detail).toContain("choose a smaller depth, or publish fewer operations");
  });

  it("leaves out an Exposition whose Service was imported again into tools past the budget at the plan's depth", async () => {
    const cp = controlPlane();
    const { serviceId, expositionId, openStream } = await published(cp, "grows", 4);
    const ids = async () => {
      const stream = await openStream();
      try {
        return (await stream.next("snapshot")).expositions.map((e: { id: string }) => e.id);
      } finally {
        stream.close();
      }
    };
    expect(await ids()).toEqual([expositionId]);
    // 65,640 fields at depth 4: past the plan budget, so the Exposition is not sent rather than cut.
    const reimported = await cp.admin.call("PUT", `/api/v1/services/${serviceId}`, {
      name: "grows",
      version: "1",
      kind: "graphql",
      openapi: { inline: deepSdl },
    });
    expect(reimported.status, JSON.stringify(reimported.body)).toBe(200);
    expect(await ids()).toEqual([]);
  });
});
