/**
 * The cluster's credentials, from kube-testenv's test CA (one certificate generator): the
 * kube-apiserver serving certificate for every name pods and the host use, the kubelet's serving
 * certificate, the client certificate kube-apiserver shows the kubelet (`kubectl logs`/`exec`), the
 * service-account keys, and one bearer token and kubeconfig per component.
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { kubeconfigJson, makeCerts, type PemFiles, type TestCerts } from "@atrium/kube-testenv";
import { APISERVER_URL, CLUSTER_DOMAIN, KUBERNETES_SERVICE_IP, NODE_IP, NODE_NAME } from "./layout.ts";

/** Who each component is to the API server (user, groups): the names its default RBAC expects. */
const IDENTITIES = {
  admin: ["admin", "system:masters"],
  kubelet: [`system:node:${NODE_NAME}`, "system:nodes"],
  "kube-controller-manager": ["system:kube-controller-manager"],
  "kube-scheduler": ["system:kube-scheduler"],
  "kube-proxy": ["system:kube-proxy"],
} as const;

export type Component = keyof typeof IDENTITIES;

export interface ClusterPki {
  certs: TestCerts;
  kubeletServing: PemFiles;
  apiserverKubeletClient: PemFiles;
  /** --token-auth-file of kube-apiserver. */
  tokenFile: string;
  adminToken: string;
  /** A kubeconfig per component, each with its own token. */
  kubeconfigs: Record<Component, string>;
}

export async function makeClusterPki(dir: string): Promise<ClusterPki> {
  await mkdir(dir, { recursive: true });
  const names = [
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    `kubernetes.default.svc.${CLUSTER_DOMAIN}`,
  ];
  const certs = await makeCerts(dir, [
    ...[NODE_IP, KUBERNETES_SERVICE_IP, "127.0.0.1"].map((ip) => `IP:${ip}`),
    ...[...names, "localhost"].map((name) => `DNS:${name}`),
  ]);
  const kubeletServing = await certs.ca.issueServingCert("kubelet", NODE_NAME, [`IP:${NODE_IP}`, `DNS:${NODE_NAME}`]);
  // system:masters: the kubelet asks the API server whether this user may read logs and exec.
  const apiserverKubeletClient = await certs.ca.issueClientCert("apiserver-kubelet-client", "kube-apiserver", [
    "system:masters",
  ]);

  const tokens = Object.fromEntries(
    Object.keys(IDENTITIES).map((component) => [component, randomBytes(32).toString("hex")]),
  ) as Record<Component, string>;
  const tokenFile = join(dir, "tokens.csv");
  const lines = Object.entries(IDENTITIES).map(([component, [user, ...groups]]) => {
    const token = tokens[component as Component];
    return groups.length > 0 ? `${token},${user},${user},"${groups.join(",")}"` : `${token},${user},${user}`;
  });
  await writeFile(tokenFile, `${lines.join("\n")}\n`, { mode: 0o600 });

  const kubeconfigs = {} as Record<Component, string>;
  for (const component of Object.keys(IDENTITIES) as Component[]) {
    const path = join(dir, `${component}.kubeconfig`);
    await writeFile(path, kubeconfigJson(APISERVER_URL, certs.caPem, tokens[component], "atrium-cluster"), {
      mode: 0o600,
    });
    kubeconfigs[component] = path;
  }
  return { certs, kubeletServing, apiserverKubeletClient, tokenFile, adminToken: tokens.admin, kubeconfigs };
}
