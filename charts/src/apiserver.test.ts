/**
 * The charts installed into a real kube-apiserver + etcd (no nodes: the objects are created and
 * validated by the server, no pod runs): install and upgrade, the values the API server checks,
 * the Secrets kept across upgrade and uninstall (Helm `lookup`), and the operator's RBAC proven
 * with SubjectAccessReviews.
 */
import { type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import { AdmissionregistrationV1Api, ApiextensionsV1Api, AuthorizationV1Api, CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartPath, type HelmResult, helmRunner, testValuesPath } from "./testing.ts";

const namespace = "atrium-system";
const operatorAccount = `system:serviceaccount:${namespace}:atrium-controllers-operator`;
let env: KubeTestEnv;
let core: CoreV1Api;
const runner = helmRunner();

/** helm against the test API server; fails the test with helm's output unless it succeeds. */
function helm(...args: string[]): HelmResult {
  const result = runner.helm([...args, "--kubeconfig", env.kubeconfigPath]);
  expect(result.status, `helm ${args.join(" ")}\n${result.stdout}\n${result.stderr}`).toBe(0);
  return result;
}

const install = (release: string, chart: string, ...args: string[]) =>
  helm("upgrade", "--install", release, chartPath(chart), "-n", namespace, ...args);

async function secretData(name: string): Promise<Record<string, string>> {
  return (await core.readNamespacedSecret({ namespace, name })).data ?? {};
}

beforeAll(async () => {
  env = await startKubeTestEnv();
  core = env.kubeConfig.makeApiClient(CoreV1Api);
  for (const name of [namespace, "team-a", "team-b"]) await core.createNamespace({ body: { metadata: { name } } });
  // Helm installs the eight CRDs from the controllers chart's crds/ on first install.
  install("atrium-control-plane", "control-plane");
  install("atrium-gateway", "gateway");
  install("atrium-controllers", "controllers");
});

afterAll(async () => {
  await env?.stop();
  runner.dispose();
});

// helm calls are slow on a loaded 2-core machine: more than the suite's default 30 s per test.
const slow = { timeout: 120_000 };

describe("charts on a real API server", slow, () => {
  it("installs all three with their defaults, CRDs included", async () => {
    const releases = JSON.parse(helm("list", "-n", namespace, "-o", "json").stdout) as {
      name: string;
      status: string;
    }[];
    expect(releases.map((r) => [r.name, r.status]).sort()).toEqual([
      ["atrium-control-plane", "deployed"],
      ["atrium-controllers", "deployed"],
      ["atrium-gateway", "deployed"],
    ]);
    const crds = await env.kubeConfig.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
    expect(crds.items.filter((crd) => crd.spec.group === "atrium.dev")).toHaveLength(8);
  });

  it("accepts every value set (server-side dry run)", () => {
    // Prometheus Operator and cert-manager are not installed here: their objects stay off
    // (the dashboard's ConfigMap, a core object, stays on).
    helm(
      "install",
      "full-cp",
      chartPath("control-plane"),
      "-n",
      namespace,
      "--dry-run=server",
      "-f",
      testValuesPath("control-plane"),
      ...["--set", "serviceMonitor.enabled=false", "--set", "prometheusRule.enabled=false"],
    );
    helm(
      ...["install", "full-gw", chartPath("gateway"), "-n", namespace, "--dry-run=server"],
      ...["-f", testValuesPath("gateway"), "--set", "serviceMonitor.enabled=false"],
      ...["--set", "prometheusRule.enabled=false"],
    );
    helm(
      ...["install", "full-ctl", chartPath("controllers"), "-n", namespace, "--dry-run=server", "--skip-crds"],
      ...["-f", testValuesPath("controllers"), "--set", "serviceMonitor.enabled=false"],
      ...["--set", "prometheusRule.enabled=false"],
      ...["--set", "admissionController.certificate.certManager.enabled=false"],
    );
  });

  it("refuses a misspelt value at helm install", () => {
    const result = runner.helm([
      ...["install", "typo", chartPath("gateway"), "-n", namespace, "--set", "gateway.controlPlane.tokenkey=t"],
      ...["--kubeconfig", env.kubeconfigPath],
    ]);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain("at '/gateway/controlPlane': additional properties 'tokenkey' not allowed");
  });

  it("keeps the cluster keystore, keys, admin password and webhook certificate across upgrades", async () => {
    const before = {
      keystore: await secretData("atrium-gateway-cluster-keystore"),
      keys: await secretData("atrium-control-plane-encryption-key"),
      admin: await secretData("atrium-control-plane-admin"),
      tls: await secretData("atrium-controllers-webhook-tls"),
    };
    // Values merged into the upgrade, not --reuse-values: a new key id distributed first.
    install("atrium-gateway", "gateway", "--set", "replicas=3");
    install("atrium-control-plane", "control-plane", "--set", "encryptionKey.keys.v2.key=encryption-key-v2");
    install("atrium-controllers", "controllers", "--set", "operator.replicas=3");

    expect(await secretData("atrium-gateway-cluster-keystore")).toEqual(before.keystore);
    expect(await secretData("atrium-control-plane-admin")).toEqual(before.admin);
    const keys = await secretData("atrium-control-plane-encryption-key");
    expect(keys["encryption-key-v1"]).toBe(before.keys["encryption-key-v1"]);
    expect(Buffer.from(Buffer.from(keys["encryption-key-v2"] ?? "", "base64").toString(), "base64")).toHaveLength(32);
    const tls = await secretData("atrium-controllers-webhook-tls");
    expect(tls).toEqual(before.tls);
    const admission = env.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
    const configuration = await admission.readValidatingWebhookConfiguration({ name: "atrium-controllers" });
    expect(configuration.webhooks?.[0]?.clientConfig.caBundle).toBe(tls["ca.crt"]);

    // Then the switch to the new key, in a second upgrade.
    install(
      ...["atrium-control-plane", "control-plane", "--set", "encryptionKey.keys.v2.key=encryption-key-v2"],
      ...["--set", "encryptionKey.activeKeyId=v2"],
    );
    expect(await secretData("atrium-control-plane-encryption-key")).toEqual(keys);
  });

  it("helm rollback re-applies a revision's Secrets: the keystore stays, a key added later goes", async () => {
    const keystore = await secretData("atrium-gateway-cluster-keystore");
    helm("rollback", "atrium-gateway", "1", "-n", namespace);
    expect(await secretData("atrium-gateway-cluster-keystore")).toEqual(keystore);
    const keys = await secretData("atrium-control-plane-encryption-key");
    expect(Object.keys(keys).sort()).toEqual(["encryption-key-v1", "encryption-key-v2"]);
    helm("rollback", "atrium-control-plane", "1", "-n", namespace);
    // Revision 1 knew v1 only (docs/kubernetes.md: roll forward after a rotation instead).
    expect(await secretData("atrium-control-plane-encryption-key")).toEqual({
      "encryption-key-v1": keys["encryption-key-v1"],
    });
  });

  it("keeps the cluster keystore on uninstall, and a new install adopts it", async () => {
    const keystore = await secretData("atrium-gateway-cluster-keystore");
    helm("uninstall", "atrium-gateway", "-n", namespace);
    expect(await secretData("atrium-gateway-cluster-keystore")).toEqual(keystore);
    await expect(core.readNamespacedService({ namespace, name: "atrium-gateway" })).rejects.toThrow(/404|not found/i);
    install("atrium-gateway", "gateway");
    expect(await secretData("atrium-gateway-cluster-keystore")).toEqual(keystore);
  });
});

describe("the operator's RBAC", slow, () => {
  async function can(
    verb: string,
    resource: string,
    options: { namespace?: string; group?: string; subresource?: string; name?: string } = {},
  ): Promise<boolean> {
    const authorization = env.kubeConfig.makeApiClient(AuthorizationV1Api);
    const review = await authorization.createSubjectAccessReview({
      body: {
        spec: {
          user: operatorAccount,
          groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, "system:authenticated"],
          resourceAttributes: { verb, resource, group: options.group ?? "", ...options },
        },
      },
    });
    return review.status?.allowed === true;
  }
  const atrium = { group: "atrium.dev" };

  it("watching every namespace: what the operator does, and nothing more", async () => {
    for (const resource of ["services", "configurationplans", "expositions", "resources", "prompts"]) {
      for (const verb of ["list", "watch"]) expect(await can(verb, resource, atrium), `${verb} ${resource}`).toBe(true);
      expect(await can("patch", resource, { ...atrium, namespace: "team-a" })).toBe(true);
      expect(await can("patch", resource, { ...atrium, namespace: "team-a", subresource: "status" })).toBe(true);
      for (const verb of ["create", "update", "delete", "deletecollection"]) {
        expect(await can(verb, resource, { ...atrium, namespace: "team-a" }), `${verb} ${resource}`).toBe(false);
      }
    }
    for (const verb of ["get", "list", "watch", "create", "update", "delete"]) {
      expect(await can(verb, "secrets", { namespace: "team-a" }), `${verb} secrets`).toBe(true);
    }
    expect(await can("list", "configmaps", { namespace: "team-b" })).toBe(true);
    expect(await can("update", "configmaps", { namespace: "team-b" })).toBe(false);
    expect(await can("deletecollection", "secrets", { namespace: "team-a" })).toBe(false);
    // The Lease: create in its own namespace; read and renew only its own.
    const lease = { group: "coordination.k8s.io", namespace };
    expect(await can("create", "leases", lease)).toBe(true);
    expect(await can("update", "leases", { ...lease, name: "atrium-operator" })).toBe(true);
    expect(await can("get", "leases", { ...lease, name: "atrium-operator" })).toBe(true);
    expect(await can("update", "leases", { ...lease, name: "kube-scheduler" })).toBe(false);
    expect(await can("create", "leases", { ...lease, namespace: "team-a" })).toBe(false);
    // Nothing else: CRDs, workloads, RBAC, webhooks.
    const apiextensions = { group: "apiextensions.k8s.io" };
    for (const verb of ["create", "update", "delete"]) {
      expect(await can(verb, "customresourcedefinitions", apiextensions), `${verb} CRDs`).toBe(false);
    }
    expect(await can("list", "pods", { namespace: "team-a" })).toBe(false);
    expect(await can("create", "deployments", { group: "apps", namespace })).toBe(false);
    expect(await can("create", "rolebindings", { group: "rbac.authorization.k8s.io", namespace })).toBe(false);
    expect(await can("update", "validatingwebhookconfigurations", { group: "admissionregistration.k8s.io" })).toBe(
      false,
    );
  });

  it("watching named namespaces: Secrets and resources there only, none cluster-wide", async () => {
    install("atrium-controllers", "controllers", "--set", "operator.watchNamespaces={team-a}");
    expect(await can("list", "secrets", { namespace: "team-a" })).toBe(true);
    expect(await can("create", "secrets", { namespace: "team-a" })).toBe(true);
    expect(await can("list", "expositions", { ...atrium, namespace: "team-a" })).toBe(true);
    expect(await can("list", "secrets", { namespace: "team-b" })).toBe(false);
    expect(await can("get", "secrets", { namespace })).toBe(false); // not even its own token: it is a mounted file
    expect(await can("list", "secrets")).toBe(false); // cluster-wide
    expect(await can("list", "expositions", atrium)).toBe(false);
    expect(await can("create", "leases", { group: "coordination.k8s.io", namespace })).toBe(true);
  });
});
