/**
 * The generated CRDs against a real kube-apiserver + etcd: every CRD becomes Established, the
 * valid samples are accepted, and the printer columns, short names and status subresource work.
 * What the API server refuses, sample by sample, beside the other entry points: cli/src/rulebook.test.ts.
 */

import { type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  KubernetesObjectApi,
  type V1CustomResourceDefinition,
} from "@kubernetes/client-node";
import { Agent, fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customResourceDefinition } from "./crd.ts";
import { API_GROUP, API_VERSION } from "./group.ts";
import { kinds } from "./kinds.ts";
import { validSamples } from "./samples.ts";

const namespace = "samples";
let env: KubeTestEnv;

async function waitEstablished(api: ApiextensionsV1Api, name: string): Promise<V1CustomResourceDefinition> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const crd = await api.readCustomResourceDefinition({ name });
    if (crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True")) return crd;
    if (Date.now() > deadline) throw new Error(`${name} not Established: ${JSON.stringify(crd.status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The API server's own message for a refused request. */
function serverMessage(error: unknown): string {
  if (!(error instanceof ApiException)) throw error;
  const body = typeof error.body === "string" ? JSON.parse(error.body) : error.body;
  return `${error.code} ${body?.message ?? ""}`;
}

beforeAll(async () => {
  env = await startKubeTestEnv();
});

afterAll(async () => {
  await env?.stop();
});

describe("generated CRDs on a real API server", () => {
  it("are accepted and become Established", async () => {
    // Raw JSON on purpose: client-node's typed models would silently drop `enum`, `default`
    // and `x-kubernetes-*` keys of a plain object (they expect `_enum`, `_default`, ...).
    for (const kind of kinds) {
      const response = await fetchApi("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
        method: "POST",
        body: JSON.stringify(customResourceDefinition(kind)),
      });
      expect(response.status, await response.text()).toBe(201);
    }
    const api = env.kubeConfig.makeApiClient(ApiextensionsV1Api);
    for (const kind of kinds) {
      const crd = await waitEstablished(api, `${kind.plural}.${API_GROUP}`);
      expect(crd.status?.acceptedNames?.kind).toBe(kind.kind);
    }
    await env.kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
  });

  it("are discoverable with their short names and the atrium category", async () => {
    const response = await fetchApi(`/apis/${API_GROUP}/${API_VERSION}`);
    const { resources } = (await response.json()) as {
      resources: { name: string; shortNames?: string[]; categories?: string[] }[];
    };
    for (const kind of kinds) {
      const resource = resources.find((r) => r.name === kind.plural);
      expect(resource?.shortNames).toEqual(kind.shortNames);
      expect(resource?.categories).toEqual(["atrium"]);
    }
  });

  it("accept every valid sample", async () => {
    const objects = KubernetesObjectApi.makeApiClient(env.kubeConfig);
    for (const sample of validSamples()) {
      const created: KubernetesObject = await objects.create({
        ...sample.document,
        metadata: { ...sample.document.metadata, namespace },
      });
      expect(created.metadata?.uid, sample.file).toBeTruthy();
    }
  });

  it("refuse the singular kind Resource, which Atrium does not have", async () => {
    const response = await fetchApi(`/apis/${API_GROUP}/${API_VERSION}/namespaces/${namespace}/resource`, {
      method: "POST",
      body: JSON.stringify({ apiVersion: `${API_GROUP}/${API_VERSION}`, kind: "Resource", metadata: { name: "x" } }),
    });
    expect(response.status).toBe(404);
  });

  it("print STATUS, ID and AGE columns", async () => {
    const response = await fetchApi(`/apis/${API_GROUP}/${API_VERSION}/namespaces/${namespace}/expositions`, {
      headers: { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    });
    const table = (await response.json()) as Table;
    expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(["Name", "Status", "ID", "Age"]);
    expect(table.rows[0]?.cells[0]).toBe("petstore");
  });

  it("take status only through the status subresource, in the spec's shape", async () => {
    const custom = env.kubeConfig.makeApiClient(CustomObjectsApi);
    const target = { group: API_GROUP, version: API_VERSION, namespace, plural: "expositions", name: "petstore" };
    const current = (await custom.getNamespacedCustomObject(target)) as { metadata: { generation: number } };
    const status = { status: "READY", observedGeneration: current.metadata.generation, id: "42" };
    const updated = (await custom.patchNamespacedCustomObjectStatus(
      { ...target, body: [{ op: "add", path: "/status", value: status }] },
      undefined,
    )) as { status: unknown };
    expect(updated.status).toEqual(status);

    const refused = await custom
      .patchNamespacedCustomObjectStatus({ ...target, body: [{ op: "add", path: "/status/status", value: "DONE" }] })
      .then(() => "accepted", serverMessage);
    expect(refused).toMatch(/^422 .*status\.status/);

    const table = (await (
      await fetchApi(`/apis/${API_GROUP}/${API_VERSION}/namespaces/${namespace}/expositions/petstore`, {
        headers: { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
      })
    ).json()) as Table;
    expect(table.rows[0]?.cells.slice(0, 3)).toEqual(["petstore", "READY", "42"]);
  });
});

/** The Table rendering kubectl prints (`Accept: application/json;as=Table`). */
interface Table {
  columnDefinitions: { name: string }[];
  rows: { cells: unknown[] }[];
}

/** A raw request to the API server, authenticated as the admin and verifying its certificate. */
async function fetchApi(path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return fetch(`${env.server}${path}`, {
    method: init.method ?? "GET",
    body: init.body,
    headers: { authorization: `Bearer ${env.token}`, "content-type": "application/json", ...init.headers },
    dispatcher: new Agent({ connect: { ca: env.caPem } }),
  });
}
