/**
 * The operator against a real kube-apiserver + etcd and a real control plane (PGlite): the
 * sample working set applied in a shuffled order, dependency waits, spec updates, Secret and
 * ConfigMap changes, the plan's API-key Secret, OAuth and audit settings carried through (and
 * both client-auth modes refused by CEL), deletion with and without keepOnDelete, an
 * operator restart (no duplicates), a control-plane outage, and deleting everything at once.
 */

import { type ApiClient, sampleOpenApi } from "@atrium/control-plane/testing";
import { validSamples } from "@atrium/crds";
import { ApiException } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KubeApi } from "./kube/api.ts";
import { type AtriumObject, FINALIZER } from "./kube/objects.ts";
import { type Operator, startOperator } from "./operator.ts";
import {
  createNamespace,
  deleteResource,
  getResource,
  isReady,
  type OperatorTestEnv,
  patchResource,
  startOperatorTestEnv,
  statusOf,
  waitFor,
} from "./testing.ts";

const NS = "samples";
let env: OperatorTestEnv;
let operator: Operator;

const samples = validSamples().map((sample) => sample.document);
const sampleResources = samples.filter((document) => document.kind !== "Secret");

/** The control plane as the operator's organization sees it (the current one, across restarts). */
function controlPlane(): ApiClient {
  return env.controlPlane.api.withToken(env.token);
}

async function records(collection: string): Promise<Record<string, unknown>[]> {
  const response = await controlPlane().call("GET", `/api/v1${collection}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items;
}

async function recordNamed(collection: string, name: string): Promise<Record<string, unknown> | undefined> {
  return (await records(collection)).find((record) => record.name === name);
}

function get(kind: string, name: string) {
  return getResource(env.custom, kind, NS, name);
}

async function waitReady(kind: string, name: string, timeoutMs = 20_000): Promise<AtriumObject> {
  return waitFor(
    `${kind} ${name} READY`,
    async () => {
      const object = await get(kind, name);
      return isReady(object) ? object : undefined;
    },
    { timeoutMs, last: async () => statusOf(await get(kind, name)) },
  );
}

async function waitState(kind: string, name: string, state: string, message?: RegExp): Promise<AtriumObject> {
  return waitFor(
    `${kind} ${name} ${state} ${message ?? ""}`,
    async () => {
      const object = await get(kind, name);
      const status = statusOf(object);
      return status.state === state && (!message || message.test(status.message ?? "")) ? object : undefined;
    },
    { last: async () => statusOf(await get(kind, name)) },
  );
}

async function waitGone(kind: string, name: string): Promise<void> {
  await waitFor(`${kind} ${name} deleted`, async () => ((await get(kind, name)) ? undefined : true), {
    last: async () => statusOf(await get(kind, name)),
  });
}

async function create(document: Record<string, unknown> & { metadata: Record<string, unknown> }) {
  await env.objects.create({ ...document, metadata: { ...document.metadata, namespace: NS } });
}

function resource(kind: string, name: string, spec: Record<string, unknown>) {
  return { apiVersion: "atrium.dev/v1alpha1", kind, metadata: { name }, spec };
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

beforeAll(async () => {
  env = await startOperatorTestEnv();
  await createNamespace(env.core, NS);
  operator = await startOperator(env.operatorConfig(), { kubeConfig: env.kube.kubeConfig });
});

afterAll(async () => {
  await operator?.stop();
  await env?.stop();
});

describe("operator on a real API server and control plane", () => {
  it("reconciles the sample working set, applied in a shuffled order, to READY with the right links", async () => {
    const order = shuffled(samples);
    for (const document of order) await create(document);
    const reason = `applied in the order ${order.map((d) => d.kind).join(", ")}`;

    const objects = await waitFor(
      "every sample READY",
      async () => {
        const all = await Promise.all(sampleResources.map((d) => get(d.kind, d.metadata.name)));
        return all.every(isReady) ? (all as AtriumObject[]) : undefined;
      },
      {
        timeoutMs: 30_000,
        last: async () =>
          Promise.all(sampleResources.map(async (d) => [d.kind, statusOf(await get(d.kind, d.metadata.name))])),
      },
    );
    const byKind = Object.fromEntries(objects.map((object) => [object.kind, object]));
    for (const object of objects) {
      expect(object.metadata.finalizers, reason).toContain(FINALIZER);
      if (!("state" in (object.status ?? {})))
        expect(object.status?.observedGeneration).toBe(object.metadata.generation);
    }

    // One record each, linked by id as the references say.
    const service = (await records("/services")).filter((r) => r.name === "petstore");
    expect(service, reason).toHaveLength(1);
    const serviceId = service[0]?.id;
    expect(byKind.Service?.status?.id).toBe(serviceId);
    const [group] = (await records("/gateway-groups")).filter((r) => r.name === "dev-gateways");
    expect(group).toMatchObject({ labels: { env: "dev" }, description: "Gateways of the development environment." });
    expect(byKind.GatewayGroup?.status?.id).toBe(String(group?.id));
    const [secret] = (await records("/secrets")).filter((r) => r.name === "petstore-credentials.token");
    expect(secret).toBeDefined();
    const plans = (await records("/configuration-plans")).filter((r) => r.name === "petstore-plan");
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
    const [exposition] = (await records("/expositions")).filter((r) => r.name === "petstore");
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
      const items = (await records(collection)).filter((r) => r.name === byKind[kind]?.metadata.name);
      expect(items, kind).toHaveLength(1);
      expect(items[0]).toMatchObject({ id: byKind[kind]?.status?.id, serviceId });
    }

    // The SecretSource reports one condition per Secret.
    expect(byKind.SecretSource?.status?.conditions).toEqual([
      expect.objectContaining({ type: "secret.atrium.dev/petstore-backend", status: "True", reason: "Synced" }),
    ]);
    // The plan's API key was written to its Secret, owned by the plan.
    const keySecret = await env.core.readNamespacedSecret({ namespace: NS, name: "petstore-plan-api-key" });
    expect(Buffer.from(keySecret.data?.apiKey ?? "", "base64").toString()).toMatch(/^atr_/);
    expect(keySecret.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: "ConfigurationPlan",
        name: "petstore-plan",
        uid: byKind.ConfigurationPlan?.metadata.uid,
      }),
    ]);
  });

  it("keeps an Exposition IN_PROGRESS, naming what it waits for, until its dependencies exist", async () => {
    await create(
      resource("Exposition", "late", {
        configurationPlanRef: { name: "late-plan" },
        gatewayGroupRef: { name: "late-group" },
      }),
    );
    await waitState("Exposition", "late", "IN_PROGRESS", /ConfigurationPlan late-plan.*GatewayGroup late-group/);

    await create(resource("GatewayGroup", "late-group", { labels: { tier: "late" } }));
    const waiting = await waitState(
      "Exposition",
      "late",
      "IN_PROGRESS",
      /^waiting for ConfigurationPlan late-plan \(not found\)$/,
    );
    expect(statusOf(waiting).id).toBeUndefined();

    await create(
      resource("ConfigurationPlan", "late-plan", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://late.example.com",
      }),
    );
    const ready = await waitReady("Exposition", "late");
    const plan = await recordNamed("/configuration-plans", "late-plan");
    const group = await recordNamed("/gateway-groups", "late-group");
    expect(await recordNamed("/expositions", "late")).toMatchObject({
      id: ready.status?.id,
      configurationPlanId: plan?.id,
      gatewayGroupId: group?.id,
    });
    expect(plan).toMatchObject({ hasApiKey: false });
  });

  it("carries a plan's oauth (with toolScopes) and audit to the control plane unchanged, updates included", async () => {
    const oauth = {
      issuer: "https://login.example.com/realms/pets",
      jwksUri: "https://login.example.com/realms/pets/certs",
      audience: "atrium-petstore",
      resource: "https://mcp.example.com/mcp/default/oauth-plan",
      requiredScopes: ["mcp:use", "pets:read"],
      toolScopes: { deletePet: ["pets:write", "pets:admin"], createPet: ["pets:write"] },
    };
    await create(
      resource("ConfigurationPlan", "oauth-plan", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://oauth.example.com",
        oauth,
        audit: true,
      }),
    );
    const ready = await waitReady("ConfigurationPlan", "oauth-plan");
    const record = await recordNamed("/configuration-plans", "oauth-plan");
    expect(record).toMatchObject({ id: ready.status?.id, hasApiKey: false, audit: true });
    expect(record?.oauth).toEqual(oauth);

    const changed = { ...oauth, requiredScopes: ["mcp:use"], toolScopes: { getPet: ["pets:read"] } };
    const patched = await patchResource(env.custom, "ConfigurationPlan", NS, "oauth-plan", [
      { op: "replace", path: "/spec/oauth", value: changed },
      { op: "replace", path: "/spec/audit", value: false },
    ]);
    await waitFor("the plan record's new oauth settings", async () => {
      const object = await get("ConfigurationPlan", "oauth-plan");
      return object?.status?.observedGeneration === patched.metadata.generation ? true : undefined;
    });
    const updated = await recordNamed("/configuration-plans", "oauth-plan");
    expect(updated).toMatchObject({ id: ready.status?.id, audit: false });
    expect(updated?.oauth).toEqual(changed);

    await deleteResource(env.custom, "ConfigurationPlan", NS, "oauth-plan");
    await waitGone("ConfigurationPlan", "oauth-plan");
    expect(await recordNamed("/configuration-plans", "oauth-plan")).toBeUndefined();
  });

  it("refuses a plan with both apiKey and oauth at the API server (CEL), naming spec.oauth", async () => {
    const refusal = await create(
      resource("ConfigurationPlan", "two-modes", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://two.example.com",
        apiKey: { secretName: "two-modes-key" },
        oauth: { issuer: "https://login.example.com" },
      }),
    ).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiException);
    const { code, body } = refusal as ApiException<unknown>;
    const message = (typeof body === "string" ? JSON.parse(body) : body)?.message;
    expect(code).toBe(422);
    expect(message).toContain("spec.oauth");
    expect(message).toContain("a plan has one client authentication mode: set apiKey or oauth, not both");
    expect(await get("ConfigurationPlan", "two-modes")).toBeUndefined();
    expect(await recordNamed("/configuration-plans", "two-modes")).toBeUndefined();
  });

  it("reconciles a new generation: records updated in place, an Exposition re-created on its new group", async () => {
    const group = await patchResource(env.custom, "GatewayGroup", NS, "dev-gateways", [
      { op: "replace", path: "/spec/labels", value: { env: "prod" } },
    ]);
    expect(group.metadata.generation).toBe(2);
    const plan = await patchResource(env.custom, "ConfigurationPlan", NS, "petstore-plan", [
      { op: "replace", path: "/spec/backendTimeoutMs", value: 5000 },
    ]);
    const readyGroup = await waitReady("GatewayGroup", "dev-gateways");
    expect(readyGroup.status?.observedGeneration).toBe(2);
    expect(await recordNamed("/gateway-groups", "dev-gateways")).toMatchObject({
      id: Number(readyGroup.status?.id),
      labels: { env: "prod" },
    });
    const readyPlan = await waitReady("ConfigurationPlan", "petstore-plan");
    expect(readyPlan.status?.observedGeneration).toBe(plan.metadata.generation);
    expect(await recordNamed("/configuration-plans", "petstore-plan")).toMatchObject({
      id: readyPlan.status?.id,
      backendTimeoutMs: 5000,
      hasApiKey: true,
    });

    const before = await get("Exposition", "late");
    await patchResource(env.custom, "Exposition", NS, "late", [
      { op: "replace", path: "/spec/gatewayGroupRef", value: { name: "dev-gateways" } },
    ]);
    const moved = await waitFor("Exposition late on dev-gateways", async () => {
      const object = await get("Exposition", "late");
      return isReady(object) && object?.status?.id !== before?.status?.id ? object : undefined;
    });
    const expositions = (await records("/expositions")).filter((r) => r.name === "late");
    expect(expositions).toEqual([
      expect.objectContaining({ id: moved.status?.id, gatewayGroupId: Number(readyGroup.status?.id) }),
    ]);
  });

  it("sends a Service's OpenAPI document from a ConfigMap, and again when the ConfigMap changes", async () => {
    const document = sampleOpenApi();
    await env.core.createNamespacedConfigMap({
      namespace: NS,
      body: { metadata: { name: "openapi" }, data: { "openapi.yaml": document } },
    });
    await create(
      resource("Service", "from-configmap", {
        version: "1.0.0",
        openapi: { configMapRef: { name: "openapi", key: "openapi.yaml" } },
      }),
    );
    const ready = await waitReady("Service", "from-configmap");
    const recordUrl = `/api/v1/services/${ready.status?.id}`;
    expect((await controlPlane().call("GET", recordUrl)).body.operationCount).toBe(4);

    const smaller = document.replace(/ {4}delete:[\s\S]*?"204": \{ description: Removed \}\n/, "");
    expect(smaller).not.toBe(document);
    await env.core.replaceNamespacedConfigMap({
      namespace: NS,
      name: "openapi",
      body: { metadata: { name: "openapi" }, data: { "openapi.yaml": smaller } },
    });
    await waitFor("the Service record re-imported from the ConfigMap", async () =>
      (await controlPlane().call("GET", recordUrl)).body.operationCount === 3 ? true : undefined,
    );
  });

  it("propagates a changed Secret value to the backend secret record", async () => {
    const record = await recordNamed("/secrets", "petstore-credentials.token");
    await env.core.replaceNamespacedSecret({
      namespace: NS,
      name: "petstore-backend",
      body: { metadata: { name: "petstore-backend" }, stringData: { token: "rotated-token" } },
    });
    await waitFor("the secret record updated", async () => {
      const current = await recordNamed("/secrets", "petstore-credentials.token");
      return current && current.updatedAt !== record?.updatedAt ? current : undefined;
    });
    expect((await records("/secrets")).filter((r) => r.name === "petstore-credentials.token")).toHaveLength(1);
  });

  it("renews the API key and writes it again when the plan's Secret is deleted", async () => {
    const read = async () => {
      const secret = await env.core
        .readNamespacedSecret({ namespace: NS, name: "petstore-plan-api-key" })
        .catch(() => undefined);
      return secret?.data?.apiKey;
    };
    const before = await read();
    expect(before).toBeTruthy();
    await env.core.deleteNamespacedSecret({ namespace: NS, name: "petstore-plan-api-key" });
    const after = await waitFor("a new API key written", async () => {
      const value = await read();
      return value && value !== before ? value : undefined;
    });
    expect(Buffer.from(after, "base64").toString()).toMatch(/^atr_/);
  });

  it("deletes the record with the resource, and keeps it with keepOnDelete", async () => {
    await deleteResource(env.custom, "Exposition", NS, "late");
    await waitGone("Exposition", "late");
    expect(await recordNamed("/expositions", "late")).toBeUndefined();
    await deleteResource(env.custom, "ConfigurationPlan", NS, "late-plan");
    await waitGone("ConfigurationPlan", "late-plan");
    expect(await recordNamed("/configuration-plans", "late-plan")).toBeUndefined();

    await create(resource("GatewayGroup", "kept", { description: "kept on delete", keepOnDelete: true }));
    const kept = await waitReady("GatewayGroup", "kept");
    await deleteResource(env.custom, "GatewayGroup", NS, "kept");
    await waitGone("GatewayGroup", "kept");
    expect(await recordNamed("/gateway-groups", "kept")).toMatchObject({ id: Number(kept.status?.id) });
  });

  it("guards finalizer edits: a stale read never clobbers another writer's finalizer", async () => {
    await create(resource("GatewayGroup", "guarded", {}));
    const ready = await waitReady("GatewayGroup", "guarded");
    expect(ready.metadata.finalizers).toEqual([FINALIZER]);
    const other = "example.com/other";
    await patchResource(env.custom, "GatewayGroup", NS, "guarded", [
      { op: "add", path: "/metadata/finalizers/-", value: other },
    ]);
    const kube = new KubeApi(env.kube.kubeConfig);
    // As read before the other writer: no finalizers yet, an old resourceVersion.
    const stale = { ...ready, metadata: { ...ready.metadata, finalizers: undefined } };
    await expect(kube.addFinalizer(stale)).rejects.toMatchObject({ code: "KUBE_REQUEST_FAILED" });
    const staleList = { ...ready, metadata: { ...ready.metadata, finalizers: ["example.com/gone"] } };
    await expect(kube.addFinalizer(staleList)).rejects.toMatchObject({ code: "KUBE_REQUEST_FAILED" });
    // Removing tests the index it read: ours moved to index 1 here, so a read with it at 0 is refused.
    const current = await get("GatewayGroup", "guarded");
    await expect(
      kube.removeFinalizer({ ...ready, metadata: { ...ready.metadata, finalizers: [other, FINALIZER] } }),
    ).rejects.toMatchObject({ code: "KUBE_REQUEST_FAILED" });
    expect((await get("GatewayGroup", "guarded"))?.metadata.finalizers).toEqual([FINALIZER, other]);
    expect(current?.metadata.finalizers).toEqual([FINALIZER, other]);

    await patchResource(env.custom, "GatewayGroup", NS, "guarded", [{ op: "remove", path: "/metadata/finalizers/1" }]);
    await deleteResource(env.custom, "GatewayGroup", NS, "guarded");
    await waitGone("GatewayGroup", "guarded");
    expect(await recordNamed("/gateway-groups", "guarded")).toBeUndefined();
  });

  it("after an operator restart, verifies instead of duplicating, and adopts a record whose status was lost", async () => {
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(
          ["/services", "/gateway-groups", "/secrets", "/configuration-plans", "/expositions", "/custom-tools"].map(
            async (collection) => [collection, (await records(collection)).length] as const,
          ),
        ),
      );
    const before = await counts();
    const groupBefore = await get("GatewayGroup", "dev-gateways");
    await operator.stop();
    // A lost status: the record must be found again by name, not created twice.
    await env.custom.patchNamespacedCustomObjectStatus({
      group: "atrium.dev",
      version: "v1alpha1",
      namespace: NS,
      plural: "gatewaygroups",
      name: "dev-gateways",
      body: [{ op: "remove", path: "/status" }],
    });
    operator = await startOperator(env.operatorConfig({ identity: "operator-b" }), { kubeConfig: env.kube.kubeConfig });
    const group = await waitReady("GatewayGroup", "dev-gateways");
    expect(group.status?.id).toBe(groupBefore?.status?.id);
    await waitFor("the new replica reconciled everything", async () =>
      operator.reconcileCount() >= 12 ? true : undefined,
    );
    for (const document of sampleResources)
      expect(isReady(await get(document.kind, document.metadata.name))).toBe(true);
    expect(await counts()).toEqual(before);
  });

  it("reports ERROR while the control plane is down and recovers by itself", async () => {
    await env.stopControlPlane();
    try {
      await patchResource(env.custom, "GatewayGroup", NS, "dev-gateways", [
        { op: "add", path: "/spec/description", value: "changed during the outage" },
      ]);
      await patchResource(env.custom, "Service", NS, "petstore", [
        { op: "replace", path: "/spec/description", value: "changed during the outage" },
      ]);
      await waitState("GatewayGroup", "dev-gateways", "ERROR", /^control plane unreachable: /);
      await waitState("Service", "petstore", "ERROR", /^control plane unreachable: /);
    } finally {
      await env.startControlPlane();
    }
    const group = await waitReady("GatewayGroup", "dev-gateways");
    expect(group.status?.observedGeneration).toBe(group.metadata.generation);
    expect(await recordNamed("/gateway-groups", "dev-gateways")).toMatchObject({
      description: "changed during the outage",
    });
    await waitReady("Service", "petstore");
    expect(await recordNamed("/services", "petstore")).toMatchObject({ description: "changed during the outage" });
  });

  it("deletes a whole set at once: records still in use wait for their users, then go", async () => {
    await Promise.all(sampleResources.map((d) => deleteResource(env.custom, d.kind, NS, d.metadata.name)));
    await deleteResource(env.custom, "Service", NS, "from-configmap");
    for (const document of sampleResources) await waitGone(document.kind, document.metadata.name);
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
      expect(await recordNamed(collection, name), collection).toBeUndefined();
    }
    // No garbage collector runs here: the operator itself removed the plan's key Secret.
    await expect(env.core.readNamespacedSecret({ namespace: NS, name: "petstore-plan-api-key" })).rejects.toThrow();
  });
});
