/**
 * The GatewayGroup reconciler on a real API server and control plane (and the deletion every kind
 * shares): the record deleted with the resource, or kept with keepOnDelete; finalizer edits
 * guarded, so a stale read never clobbers another writer's finalizer.
 */
import { describe, expect, it } from "vitest";
import { KubeApi } from "../../kube/api.ts";
import { FINALIZER } from "../../kube/objects.ts";
import { deleteResource, patchResource, resource, useOperatorHarness } from "../../testing.ts";

const testHarness = useOperatorHarness("gateway-groups");

describe("GatewayGroup", () => {
  it("deletes the record with the resource, and keeps it with keepOnDelete", async () => {
    const harness = testHarness();
    const { env, namespace } = harness;
    await harness.create(resource("GatewayGroup", "gone", { labels: { env: "gone" } }));
    await harness.waitReady("GatewayGroup", "gone");
    expect(await harness.recordNamed("/gateway-groups", "gone")).toBeDefined();
    await deleteResource(env.custom, "GatewayGroup", namespace, "gone");
    await harness.waitGone("GatewayGroup", "gone");
    expect(await harness.recordNamed("/gateway-groups", "gone")).toBeUndefined();

    await harness.create(resource("GatewayGroup", "kept", { description: "kept on delete", keepOnDelete: true }));
    const kept = await harness.waitReady("GatewayGroup", "kept");
    await deleteResource(env.custom, "GatewayGroup", namespace, "kept");
    await harness.waitGone("GatewayGroup", "kept");
    expect(await harness.recordNamed("/gateway-groups", "kept")).toMatchObject({ id: Number(kept.status?.id) });
  });

  it("guards finalizer edits: a stale read never clobbers another writer's finalizer", async () => {
    const harness = testHarness();
    const { env, namespace } = harness;
    await harness.create(resource("GatewayGroup", "guarded", {}));
    const ready = await harness.waitReady("GatewayGroup", "guarded");
    expect(ready.metadata.finalizers).toEqual([FINALIZER]);
    const other = "example.com/other";
    await patchResource(env.custom, "GatewayGroup", namespace, "guarded", [
      { op: "add", path: "/metadata/finalizers/-", value: other },
    ]);
    const kube = new KubeApi(env.kube.kubeConfig);
    // As read before the other writer: no finalizers yet, an old resourceVersion.
    const stale = { ...ready, metadata: { ...ready.metadata, finalizers: undefined } };
    await expect(kube.addFinalizer(stale)).rejects.toMatchObject({ code: "KUBE_REQUEST_FAILED" });
    const staleList = { ...ready, metadata: { ...ready.metadata, finalizers: ["example.com/gone"] } };
    await expect(kube.addFinalizer(staleList)).rejects.toMatchObject({ code: "KUBE_REQUEST_FAILED" });
    // Removing tests the index it read: ours moved to index 1 here, so a read with it at 0 is refused.
    const current = await harness.get("GatewayGroup", "guarded");
    await expect(
      kube.removeFinalizer({ ...ready, metadata: { ...ready.metadata, finalizers: [other, FINALIZER] } }),
    ).rejects.toMatchObject({ code: "KUBE_REQUEST_FAILED" });
    expect((await harness.get("GatewayGroup", "guarded"))?.metadata.finalizers).toEqual([FINALIZER, other]);
    expect(current?.metadata.finalizers).toEqual([FINALIZER, other]);

    await patchResource(env.custom, "GatewayGroup", namespace, "guarded", [
      { op: "remove", path: "/metadata/finalizers/1" },
    ]);
    await deleteResource(env.custom, "GatewayGroup", namespace, "guarded");
    await harness.waitGone("GatewayGroup", "guarded");
    expect(await harness.recordNamed("/gateway-groups", "guarded")).toBeUndefined();
  });
});
