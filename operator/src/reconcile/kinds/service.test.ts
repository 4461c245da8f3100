/**
 * The Service reconciler on a real API server and control plane: a document read from a
 * ConfigMap is imported, and imported again when the ConfigMap changes.
 */
import { sampleOpenApi } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { resource, useOperatorHarness, waitFor } from "../../testing.ts";

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
});
