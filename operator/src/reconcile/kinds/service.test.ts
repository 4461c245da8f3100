/**
 * The Service reconciler on a real API server and control plane: a document read from a
 * ConfigMap is imported, and imported again when the ConfigMap changes; what the import changed
 * in the document's schemas shows as the ImportWarnings condition.
 */
import { sampleOpenApi } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { patchResource, resource, useOperatorHarness, waitFor } from "../../testing.ts";

const testHarness = useOperatorHarness("services");

describe("Service", () => {
  it("sends a Service's OpenAPI document from a ConfigMap, and again when the ConfigMap changes", async () => {
    const harness = testHarness();
    const { env, namespace } = harness;
    const document = sampleOpenApi();
    await env.core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: "openapi" }, data: { "openapi.yaml": document } },
    });
    await harness.create(
      resource("Service", "from-configmap", {
        version: "1.0.0",
        openapi: { configMapRef: { name: "openapi", key: "openapi.yaml" } },
      }),
    );
    const ready = await harness.waitReady("Service", "from-configmap");
    const recordUrl = `/api/v1/services/${ready.status?.id}`;
    expect((await harness.controlPlane().call("GET", recordUrl)).body.operationCount).toBe(4);

    const smaller = document.replace(/ {4}delete:[\s\S]*?"204": \{ description: Removed \}\n/, "");
    expect(smaller).not.toBe(document);
    await env.core.replaceNamespacedConfigMap({
      namespace,
      name: "openapi",
      body: { metadata: { name: "openapi" }, data: { "openapi.yaml": smaller } },
    });
    await waitFor("the Service record re-imported from the ConfigMap", async () =>
      (await harness.controlPlane().call("GET", recordUrl)).body.operationCount === 3 ? true : undefined,
    );
  });

  it("reports what the import changed in the document's schemas as the ImportWarnings condition, and its end", async () => {
    const harness = testHarness();
    /** A 3.1 document whose one operation has a query parameter per schema. */
    const documentWith = (...schemas: Record<string, unknown>[]) =>
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "warnings", version: "1" },
        paths: {
          "/a": {
            get: {
              operationId: "a",
              parameters: schemas.map((schema, index) => ({ name: `q${index}`, in: "query", schema })),
              responses: { "200": { description: "ok" } },
            },
          },
        },
      });
    const phone = { type: "string", format: "phone" };
    const identityEscape = { type: "string", pattern: "^a\\_b$" };
    await harness.create(
      resource("Service", "warned", {
        version: "1.0.0",
        openapi: { inline: documentWith(phone, identityEscape, phone, { type: "string", pattern: "a++" }) },
      }),
    );
    const warned = await harness.waitReady("Service", "warned");
    const [condition] = (warned.status?.conditions ?? []) as Record<string, unknown>[];
    expect(condition).toMatchObject({
      type: "ImportWarnings",
      status: "True",
      reason: "SchemasChanged",
      observedGeneration: 1,
      lastTransitionTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const message = String(condition?.message);
    expect(message).toMatch(/^The import changed the document in 4 places .*\(the first 3; /);
    expect(message).toContain('FORMAT_DROPPED: format "phone" at /paths/~1a/get/parameters/0/schema/format');
    expect(message).toContain('PATTERN_REWRITTEN: pattern "^a\\\\_b$"');
    expect(message).not.toContain("PATTERN_DROPPED"); // the fourth is counted, not quoted

    await patchResource(harness.env.custom, "Service", harness.namespace, "warned", [
      { op: "replace", path: "/spec/openapi/inline", value: documentWith({ type: "string", format: "date-time" }) },
    ]);
    const clean = await waitFor("the ImportWarnings condition False", async () => {
      const object = await harness.get("Service", "warned");
      const [next] = (object?.status?.conditions ?? []) as Record<string, unknown>[];
      return next?.status === "False" ? next : undefined;
    });
    expect(clean).toMatchObject({
      type: "ImportWarnings",
      reason: "NoChanges",
      observedGeneration: 2,
      message: "The import kept every schema of the document as written.",
    });
  });

  it("sends a graphql Service's kind with its schema, and a grpc Service's .proto files", async () => {
    const harness = testHarness();
    await harness.create(
      resource("Service", "store", {
        version: "1",
        kind: "graphql",
        openapi: { inline: 'type Query {\n  "One product."\n  product(id: ID!): String\n}\n' },
      }),
    );
    const ready = await harness.waitReady("Service", "store");
    const record = await harness.controlPlane().call("GET", `/api/v1/services/${ready.status?.id}`);
    expect(record.body).toMatchObject({ kind: "graphql", operationCount: 1 });

    const pets =
      'syntax = "proto3";\npackage pets.v1;\nimport "pets/v1/pet.proto";\nservice Pets {\n  rpc GetPet(Pet) returns (Pet);\n}\n';
    const pet = 'syntax = "proto3";\npackage pets.v1;\nmessage Pet {\n  string name = 1;\n}\n';
    await harness.create(
      resource("Service", "pets", {
        version: "1",
        kind: "grpc",
        openapi: {
          protoFiles: [
            { path: "pets/v1/pets.proto", content: pets },
            { path: "pets/v1/pet.proto", content: pet },
          ],
        },
      }),
    );
    const grpcReady = await harness.waitReady("Service", "pets");
    const grpcRecord = await harness.controlPlane().call("GET", `/api/v1/services/${grpcReady.status?.id}`);
    expect(grpcRecord.body).toMatchObject({ kind: "grpc", operationCount: 1 });
  });
});
