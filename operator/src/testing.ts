/**
 * Test support (tests and bench/operator): a real kube-apiserver + etcd with the eight CRDs
 * installed from `customResourceDefinition(kind)` as raw JSON, a control plane on PGlite whose
 * data directory outlives a restart (outage tests), an API token stored in a Secret the
 * operator reads, polling helpers, and a harness running an operator over one namespace.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ApiClient,
  sampleOpenApi,
  startTestControlPlane,
  type TestControlPlane,
  useDuringTests,
} from "@atrium/control-plane/testing";
import { API_GROUP, API_VERSION, customResourceDefinition, kindNamed, kinds } from "@atrium/crds";
import { type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import { recordSecret, testLogging } from "@atrium/reliability/secrets";
import { CoreV1Api, CustomObjectsApi, KubernetesObjectApi } from "@kubernetes/client-node";
import { Agent, fetch } from "undici";
import type { OperatorConfig } from "./config.ts";
import type { AtriumObject } from "./kube/objects.ts";
import { type Operator, startOperator } from "./operator.ts";

export const OPERATOR_NAMESPACE = "atrium-system";
export const TOKEN_SECRET = "atrium-operator-token";

export interface OperatorTestEnv {
  kube: KubeTestEnv;
  /** The control plane currently running (replaced by `restartControlPlane`). */
  controlPlane: TestControlPlane;
  /** The operator's API token (organization `default`). */
  token: string;
  custom: CustomObjectsApi;
  core: CoreV1Api;
  objects: KubernetesObjectApi;
  /** Operator settings for this environment: fast retries and a short Lease. */
  operatorConfig(overrides?: Partial<OperatorConfig>): OperatorConfig;
  /** Closes the control plane (an outage). */
  stopControlPlane(): Promise<void>;
  /** Starts a control plane again on the same data directory, keys and port. */
  startControlPlane(): Promise<void>;
  stop(): Promise<void>;
}

/** A raw request to the API server, as the admin, verifying its certificate. */
export async function kubeFetch(
  env: KubeTestEnv,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${env.server}${path}`, {
    method: init.method ?? "GET",
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: { authorization: `Bearer ${env.token}`, "content-type": "application/json" },
    dispatcher: new Agent({ connect: { ca: env.caPem } }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Installs the eight CRDs and waits until each is Established. Raw JSON on purpose: client-node's
 * typed models silently drop `enum`, `default` and `x-kubernetes-*` keys of plain objects.
 */
export async function installCrds(env: KubeTestEnv): Promise<void> {
  for (const kind of kinds) {
    const response = await kubeFetch(env, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      method: "POST",
      body: customResourceDefinition(kind),
    });
    if (response.status !== 201)
      throw new Error(`CRD ${kind.plural}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  for (const kind of kinds) {
    await waitFor(`CRD ${kind.plural} Established`, async () => {
      const { body } = await kubeFetch(
        env,
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${kind.plural}.${API_GROUP}`,
      );
      const conditions = (body as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions;
      return conditions?.some((c) => c.type === "Established" && c.status === "True") ? true : undefined;
    });
  }
  // Discovery must list the group before clients that resolve kinds (KubernetesObjectApi) work.
  await waitFor("atrium.dev discovery", async () => {
    const { status, body } = await kubeFetch(env, `/apis/${API_GROUP}/${API_VERSION}`);
    const resources = (body as { resources?: unknown[] } | undefined)?.resources ?? [];
    return status === 200 && resources.length >= kinds.length * 2 ? true : undefined;
  });
  // An Established CRD may still answer 429 "storage is (re)initializing" for a moment.
  for (const kind of kinds) {
    await waitFor(`${kind.plural} listable`, async () =>
      (await kubeFetch(env, `/apis/${API_GROUP}/${API_VERSION}/${kind.plural}`)).status === 200 ? true : undefined,
    );
  }
}

export async function createNamespace(core: CoreV1Api, name: string): Promise<void> {
  await core.createNamespace({ body: { metadata: { name } } });
}

/** Polls `probe` until it returns something other than undefined; fails with `what` and the last value seen. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number; last?: () => unknown } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = options.last ? ` (last: ${JSON.stringify(await options.last())})` : "";
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`timed out waiting for ${what}${detail}${reason}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** Reads a custom resource; undefined when it does not exist. */
export async function getResource(
  custom: CustomObjectsApi,
  kind: string,
  namespace: string,
  name: string,
): Promise<AtriumObject | undefined> {
  const definition = kindNamed(kind);
  if (!definition) throw new Error(`unknown kind ${kind}`);
  try {
    return (await custom.getNamespacedCustomObject({
      group: API_GROUP,
      version: API_VERSION,
      namespace,
      plural: definition.plural,
      name,
    })) as AtriumObject;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
}

/** JSON-patches a custom resource's spec (or metadata): a new generation for spec changes. */
export async function patchResource(
  custom: CustomObjectsApi,
  kind: string,
  namespace: string,
  name: string,
  patch: { op: "add" | "replace" | "remove"; path: string; value?: unknown }[],
): Promise<AtriumObject> {
  const definition = kindNamed(kind);
  if (!definition) throw new Error(`unknown kind ${kind}`);
  return (await custom.patchNamespacedCustomObject({
    group: API_GROUP,
    version: API_VERSION,
    namespace,
    plural: definition.plural,
    name,
    body: patch,
  })) as AtriumObject;
}

export async function deleteResource(custom: CustomObjectsApi, kind: string, namespace: string, name: string) {
  const definition = kindNamed(kind);
  if (!definition) throw new Error(`unknown kind ${kind}`);
  await custom.deleteNamespacedCustomObject({
    group: API_GROUP,
    version: API_VERSION,
    namespace,
    plural: definition.plural,
    name,
  });
}

/** `status.status` (or `status.state`), `observedGeneration` and `message` of a resource. */
export function statusOf(object: AtriumObject | undefined) {
  const status = object?.status ?? {};
  return {
    state: (status.status ?? status.state) as string | undefined,
    observedGeneration: status.observedGeneration as number | undefined,
    message: status.message as string | undefined,
    id: status.id as string | undefined,
  };
}

/** Whether a resource is READY at its current generation. */
export function isReady(object: AtriumObject | undefined): boolean {
  const status = statusOf(object);
  return status.state === "READY" && status.observedGeneration === object?.metadata.generation;
}

export async function startOperatorTestEnv(): Promise<OperatorTestEnv> {
  const kube = await startKubeTestEnv();
  const dataDir = await mkdtemp(join(tmpdir(), "atrium-operator-cp-"));
  let controlPlane: TestControlPlane | undefined;
  try {
    await installCrds(kube);
    const core = kube.kubeConfig.makeApiClient(CoreV1Api);
    const custom = kube.kubeConfig.makeApiClient(CustomObjectsApi);
    const objects = KubernetesObjectApi.makeApiClient(kube.kubeConfig);
    controlPlane = await startTestControlPlane("pglite", { config: { dataDir } });
    const port = Number(new URL(controlPlane.url).port);
    const created = await controlPlane.admin.call("POST", "/api/v1/api-tokens", {
      name: "operator",
      validityDays: 1,
      role: "operator",
    });
    if (created.status !== 201) throw new Error(`API token: ${JSON.stringify(created.body)}`);
    const token = created.body.token as string;
    await createNamespace(core, OPERATOR_NAMESPACE);
    await core.createNamespacedSecret({
      namespace: OPERATOR_NAMESPACE,
      body: { metadata: { name: TOKEN_SECRET }, stringData: { token } },
    });

    const env: OperatorTestEnv = {
      kube,
      controlPlane,
      token,
      custom,
      core,
      objects,
      operatorConfig: (overrides = {}) => ({
        controlPlaneUrl: env.controlPlane.url,
        token: { secret: { namespace: OPERATOR_NAMESPACE, name: TOKEN_SECRET, key: "token" } },
        watchNamespaces: [],
        host: "127.0.0.1",
        port: 0,
        identity: "operator-a",
        leaderElection: {
          enabled: true,
          namespace: OPERATOR_NAMESPACE,
          leaseName: "atrium-operator",
          leaseDurationSeconds: 3,
          renewDeadlineSeconds: 2,
          retryPeriodSeconds: 0.5,
        },
        concurrency: 4,
        retry: { baseDelayMs: 100, maxDelayMs: 2_000, ratePerSecond: 200, burst: 400 },
        // ATRIUM_TEST_LOG_LEVEL: to standard output, to watch a test; otherwise silent, or to the run dir.
        ...(process.env.ATRIUM_TEST_LOG_LEVEL
          ? { logLevel: process.env.ATRIUM_TEST_LOG_LEVEL }
          : testLogging("operator")),
        ...overrides,
      }),
      stopControlPlane: async () => {
        await env.controlPlane.close();
      },
      startControlPlane: async () => {
        env.controlPlane = await startTestControlPlane("pglite", { config: { dataDir, port } });
      },
      stop: async () => {
        await env.controlPlane.close().catch(() => {});
        await kube.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
    return env;
  } catch (error) {
    await controlPlane?.close().catch(() => {});
    await kube.stop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A test environment with a running operator and its resources in one namespace, read as a test does. */
export interface OperatorHarness {
  env: OperatorTestEnv;
  /** The running operator (replaced by `restartOperator`). */
  operator: Operator;
  namespace: string;
  /** Stops the operator and starts another replica with `identity`. */
  restartOperator(identity: string): Promise<void>;
  /** The control plane as the operator's organization sees it (the current one, across restarts). */
  controlPlane(): ApiClient;
  /** The records of a REST collection (`/services`, …). */
  records(collection: string): Promise<Record<string, unknown>[]>;
  recordNamed(collection: string, name: string): Promise<Record<string, unknown> | undefined>;
  get(kind: string, name: string): Promise<AtriumObject | undefined>;
  /** Creates a document (a custom resource, a Secret, …) in the namespace. */
  create(document: Record<string, unknown> & { metadata: Record<string, unknown> }): Promise<void>;
  waitReady(kind: string, name: string, timeoutMs?: number): Promise<AtriumObject>;
  waitState(kind: string, name: string, state: string, message?: RegExp): Promise<AtriumObject>;
  waitGone(kind: string, name: string): Promise<void>;
  stop(): Promise<void>;
}

/** A Kubernetes Secret's values (stringData, and data decoded), for the end-of-run log scan. */
function recordSecretData(secret: Record<string, unknown>): void {
  for (const value of Object.values((secret.stringData ?? {}) as Record<string, string>))
    recordSecret("Kubernetes Secret value", value);
  for (const value of Object.values((secret.data ?? {}) as Record<string, string>))
    recordSecret("Kubernetes Secret value", Buffer.from(value, "base64").toString("utf8"));
}

/** A custom resource of `kind` named `name`, for {@link OperatorHarness.create}. */
export function resource(kind: string, name: string, spec: Record<string, unknown>) {
  return { apiVersion: `${API_GROUP}/${API_VERSION}`, kind, metadata: { name }, spec };
}

/** An operator on a real API server and control plane, watching its resources in `namespace`. */
export async function startOperatorHarness(namespace: string): Promise<OperatorHarness> {
  const env = await startOperatorTestEnv();
  try {
    await createNamespace(env.core, namespace);
    const start = (identity?: string) =>
      startOperator(env.operatorConfig(identity ? { identity } : {}), { kubeConfig: env.kube.kubeConfig });
    const get = (kind: string, name: string) => getResource(env.custom, kind, namespace, name);
    const records = async (collection: string) => {
      const response = await harness.controlPlane().call("GET", `/api/v1${collection}`);
      if (response.status !== 200) throw new Error(`GET ${collection}: ${JSON.stringify(response.body)}`);
      return response.body.items as Record<string, unknown>[];
    };
    const last = (kind: string, name: string) => async () => statusOf(await get(kind, name));
    const harness: OperatorHarness = {
      env,
      operator: await start(),
      namespace,
      restartOperator: async (identity) => {
        await harness.operator.stop();
        harness.operator = await start(identity);
      },
      controlPlane: () => env.controlPlane.api.withToken(env.token),
      records,
      recordNamed: async (collection, name) => (await records(collection)).find((record) => record.name === name),
      get,
      create: async (document) => {
        if (document.kind === "Secret") recordSecretData(document);
        await env.objects.create({ ...document, metadata: { ...document.metadata, namespace } });
      },
      waitReady: (kind, name, timeoutMs = 20_000) =>
        waitFor(
          `${kind} ${name} READY`,
          async () => {
            const object = await get(kind, name);
            return isReady(object) ? object : undefined;
          },
          { timeoutMs, last: last(kind, name) },
        ),
      waitState: (kind, name, state, message) =>
        waitFor(
          `${kind} ${name} ${state} ${message ?? ""}`,
          async () => {
            const object = await get(kind, name);
            const status = statusOf(object);
            return status.state === state && (!message || message.test(status.message ?? "")) ? object : undefined;
          },
          { last: last(kind, name) },
        ),
      waitGone: async (kind, name) => {
        await waitFor(`${kind} ${name} deleted`, async () => ((await get(kind, name)) ? undefined : true), {
          last: last(kind, name),
        });
      },
      stop: async () => {
        await harness.operator.stop();
        await env.stop();
      },
    };
    return harness;
  } catch (error) {
    await env.stop();
    throw error;
  }
}

/**
 * For the test file (or describe block): a harness over `namespace`, started (then `setup` run
 * with it) before its tests and stopped after them. Returns a getter for use inside the tests.
 */
export function useOperatorHarness(
  namespace: string,
  setup: (harness: OperatorHarness) => Promise<unknown> = async () => {},
): () => OperatorHarness {
  return useDuringTests(
    () => startOperatorHarness(namespace),
    (harness) => harness.stop(),
    setup,
  );
}

/** Applies the Pet Store Service (its OpenAPI document inline) and waits until it is READY. */
export async function applyPetstore(harness: OperatorHarness): Promise<AtriumObject> {
  await harness.create(resource("Service", "petstore", { version: "1.0.0", openapi: { inline: sampleOpenApi() } }));
  return harness.waitReady("Service", "petstore");
}
