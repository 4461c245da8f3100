/**
 * The operator's journeys against a real kube-apiserver + etcd and a real control plane (PGlite):
 * the sample working set applied in a shuffled order, a new generation of it, an operator
 * restart (no duplicates), a control-plane outage, and deleting everything at once. What one
 * kind does on its own is tested beside its reconciler (reconcile/kinds/*.test.ts).
 */

import { validSamples } from "@atrium/crds";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AtriumObject, FINALIZER } from "./kube/objects.ts";
import {
  deleteResource,
  isReady,
  type OperatorHarness,
  patchResource,
  resource,
  startOperatorHarness,
  statusOf,
  waitFor,
} from "./testing.ts";

const NS = "samples";
let harness: OperatorHarness;

const samples = validSamples().map((sample) => sample.document);
const sampleResources = samples.filter((document) => document.kind !== "Secret");

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

beforeAll(async () => {
  harness = await startOperatorHarness(NS);
});

afterAll(async () => {
  await harness?.stop();
});

describe("operator on a real API server and control plane", () => {
  it("reconciles the sample working set, applied in a shuffled order, to READY with the right links", async () => {
    const order = shuffled(samples);
    for (const document of order) await harness.create(document);
    const reason = `applied in the order ${order.map((d) => d.kind).join(", ")}`;

    const objects = await waitFor(
      "every sample READY",
      async () => {
        const all = await Promise.all(sampleResources.map((d) => harness.get(d.kind, d.metadata.name)));
        return all.every(isReady) ? (all as AtriumObject[]) : undefined;
      },
      {
        timeoutMs: 30_000,
        last: async () =>
          Promise.all(sampleResources.map(async (d) => [d.kind, statusOf(await harness.get(d.kind, d.metadata.name))])),
      },
    );
    // One object per kind, the main sample standing for its kind (the others show other settings or kinds).
    const main: Record<string, string> = {
      ConfigurationPlan: "petstore-plan",
      Service: "petstore",
      SecretSource: "petstore-credentials",
      CustomTools: "petstore-tools",
    };
    const byKind = Object.fromEntries(
      objects
        .filter((object) => (main[object.kind] ?? object.metadata.name) === object.metadata.name)
        .map((object) => [object.kind, object]),
    );
    for (const object of objects) {
      expect(object.metadata.finalizers, reason).toContain(FINALIZER);
      expect(object.status?.observedGeneration, object.kind).toBe(object.metadata.generation);
    }

    // One record each, linked by id as the references say.
    const service = (await harness.records("/services")).filter((r) => r.name === "petstore");
    expect(service, reason).toHaveLength(1);
    const serviceId = service[0]?.id;
    expect(byKind.Service?.status?.id).toBe(serviceId);
    const [group] = (await harness.records("/gateway-groups")).filter((r) => r.name === "dev-gateways");
    expect(group).toMatchObject({ labels: { env: "dev" }, description: "Gateways of the development environment." });
    expect(byKind.GatewayGroup?.status?.id).toBe(String(group?.id));
    const [secret] = (await harness.records("/secrets")).filter((r) => r.name === "petstore-credentials.token");
    expect(secret).toBeDefined();
    const plans = (await harness.records("/configuration-plans")).filter((r) => r.name === "petstore-plan");
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      id: byKind.ConfigurationPlan?.status?.id,
      serviceId,
      hasApiKey: true,
      backendEndpoint: "https://petstore.example.com/api/v1",
      backendSecret: { secretId: secret?.id, in: "header", name: "Authorization", prefix: "Bearer " },
      excludedOperations: ["deletePet"],
      backendTimeoutMs: 10000,
      audit: true,
    });
    const [exposition] = (await harness.records("/expositions")).filter((r) => r.name === "petstore");
    expect(exposition).toMatchObject({
      id: byKind.Exposition?.status?.id,
      configurationPlanId: plans[0]?.id,
      gatewayGroupId: group?.id,
    });
    for (const [collection, kind] of [
      ["/custom-tools", "CustomTools"],
      ["/resources", "Resources"],
      ["/prompts", "Prompts"],
    ] as const) {
      const items = (await harness.records(collection)).filter((r) => r.name === byKind[kind]?.metadata.name);
      expect(items, kind).toHaveLength(1);
      expect(items[0]).toMatchObject({ id: byKind[kind]?.status?.id, serviceId });
    }

    // The SecretSource reports one condition per Secret.
    expect(byKind.SecretSource?.status?.conditions).toEqual([
      expect.objectContaining({ type: "secret.atrium.dev/petstore-backend", status: "True", reason: "Synced" }),
    ]);
    // The plan's API key was written to its Secret, owned by the plan.
    const keySecret = await harness.env.core.readNamespacedSecret({ namespace: NS, name: "petstore-plan-api-key" });
    expect(Buffer.from(keySecret.data?.apiKey ?? "", "base64").toString()).toMatch(/^atr_/);
    expect(keySecret.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: "ConfigurationPlan",
        name: "petstore-plan",
        uid: byKind.ConfigurationPlan?.metadata.uid,
      }),
    ]);
  });

  it("reconciles a new generation: records updated in place, an Exposition re-created on its new group", async () => {
    const group = await patchResource(harness.env.custom, "GatewayGroup", NS, "dev-gateways", [
      { op: "replace", path: "/spec/labels", value: { env: "prod" } },
    ]);
    expect(group.metadata.generation).toBe(2);
    const plan = await patchResource(harness.env.custom, "ConfigurationPlan", NS, "petstore-plan", [
      { op: "replace", path: "/spec/backendTimeoutMs", value: 5000 },
    ]);
    const readyGroup = await harness.waitReady("GatewayGroup", "dev-gateways");
    expect(readyGroup.status?.observedGeneration).toBe(2);
    expect(await harness.recordNamed("/gateway-groups", "dev-gateways")).toMatchObject({
      id: Number(readyGroup.status?.id),
      labels: { env: "prod" },
    });
    const readyPlan = await harness.waitReady("ConfigurationPlan", "petstore-plan");
    expect(readyPlan.status?.observedGeneration).toBe(plan.metadata.generation);
    expect(await harness.recordNamed("/configuration-plans", "petstore-plan")).toMatchObject({
      id: readyPlan.status?.id,
      backendTimeoutMs: 5000,
      hasApiKey: true,
    });

    await harness.create(resource("GatewayGroup", "prod-gateways", { labels: { env: "prod" } }));
    const newGroup = await harness.waitReady("GatewayGroup", "prod-gateways");
    const before = await harness.get("Exposition", "petstore");
    await patchResource(harness.env.custom, "Exposition", NS, "petstore", [
      { op: "replace", path: "/spec/gatewayGroupRef", value: { name: "prod-gateways" } },
    ]);
    const moved = await waitFor("Exposition petstore on prod-gateways", async () => {
      const object = await harness.get("Exposition", "petstore");
      return isReady(object) && object?.status?.id !== before?.status?.id ? object : undefined;
    });
    const expositions = (await harness.records("/expositions")).filter((r) => r.name === "petstore");
    expect(expositions).toEqual([
      expect.objectContaining({ id: moved.status?.id, gatewayGroupId: Number(newGroup.status?.id) }),
    ]);
  });

  it("after an operator restart, verifies instead of duplicating, and adopts a record whose status was lost", async () => {
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ["/services", "/gateway-groups", "/secrets", "/configuration-plans", "/expositions", "/custom-tools"].map(
            async (collection) => [collection, (await harness.records(collection)).length] as const,
          ),
        ),
      );
    const before = await counts();
    const groupBefore = await harness.get("GatewayGroup", "dev-gateways");
    // A lost status: the record must be found again by name, not created twice.
    await harness.env.custom.patchNamespacedCustomObjectStatus({
      group: "atrium.dev",
      version: "v1alpha1",
      namespace: NS,
      plural: "gatewaygroups",
      name: "dev-gateways",
      body: [{ op: "remove", path: "/status" }],
    });
    await harness.restartOperator("operator-b");
    const group = await harness.waitReady("GatewayGroup", "dev-gateways");
    expect(group.status?.id).toBe(groupBefore?.status?.id);
    await waitFor("the new replica reconciled everything", async () =>
      // The samples and the group the new-generation case added.
      harness.operator.reconcileCount() >= sampleResources.length + 1 ? true : undefined,
    );
    for (const document of sampleResources)
      expect(isReady(await harness.get(document.kind, document.metadata.name))).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it("reports ERROR while the control plane is down and recovers by itself", async () => {
    await harness.env.stopControlPlane();
    try {
      await patchResource(harness.env.custom, "GatewayGroup", NS, "dev-gateways", [
        { op: "add", path: "/spec/description", value: "changed during the outage" },
      ]);
      await patchResource(harness.env.custom, "Service", NS, "petstore", [
        { op: "replace", path: "/spec/description", value: "changed during the outage" },
      ]);
      await harness.waitState("GatewayGroup", "dev-gateways", "ERROR", /^control plane unreachable: /);
      await harness.waitState("Service", "petstore", "ERROR", /^control plane unreachable: /);
      // Counted by reason, as /q/metrics shows it.
      const metrics = await (await fetch(`${harness.operator.url}/q/metrics`)).text();
      expect(metrics).toMatch(
        /^atrium_operator_reconcile_errors_total\{kind="Service",code="CONTROL_PLANE_UNREACHABLE"\} [1-9]\d*$/m,
      );
    } finally {
      await harness.env.startControlPlane();
    }
    const group = await harness.waitReady("GatewayGroup", "dev-gateways");
    expect(group.status?.observedGeneration).toBe(group.metadata.generation);
    expect(await harness.recordNamed("/gateway-groups", "dev-gateways")).toMatchObject({
      description: "changed during the outage",
    });
    await harness.waitReady("Service", "petstore");
    expect(await harness.recordNamed("/services", "petstore")).toMatchObject({
      description: "changed during the outage",
    });
  });

  it("deletes a whole set at once: records still in use wait for their users, then go", async () => {
    await Promise.all(sampleResources.map((d) => deleteResource(harness.env.custom, d.kind, NS, d.metadata.name)));
    for (const document of sampleResources) await harness.waitGone(document.kind, document.metadata.name);
    for (const [collection, name] of [
      ["/services", "petstore"],
      ["/gateway-groups", "dev-gateways"],
      ["/secrets", "petstore-credentials.token"],
      ["/configuration-plans", "petstore-plan"],
      ["/expositions", "petstore"],
      ["/custom-tools", "petstore-tools"],
      ["/resources", "petstore-resources"],
      ["/prompts", "petstore-prompts"],
    ] as const) {
      expect(await harness.recordNamed(collection, name), collection).toBeUndefined();
    }
    // No garbage collector runs here: the operator itself removed the plan's key Secret.
    await expect(
      harness.env.core.readNamespacedSecret({ namespace: NS, name: "petstore-plan-api-key" }),
    ).rejects.toThrow();
  });
});
