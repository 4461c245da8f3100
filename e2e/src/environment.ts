/**
 * The environment end-to-end tests run against: a kubeconfig, kubectl, a way to put locally
 * built images on the nodes, and HTTP to Services (service-http.ts). Tests see nothing else, so
 * the same tests run on:
 * - the local one-node test cluster of hack/cluster (the default; started here, stopped by stop());
 * - kind, when ATRIUM_E2E_KIND_CLUSTER names a running kind cluster (hack/kind-e2e.sh sets it and
 *   KUBECONFIG); images go on its nodes with `podman save` + `kind load image-archive`.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { busyboxImage, podman, runKubectl, startCluster } from "@atrium/test-cluster";
import { KubeConfig } from "@kubernetes/client-node";
import { forwardedServiceHttp, routedServiceHttp } from "./service-http.ts";

const run = promisify(execFile);

export interface E2eEnvironment {
  name: "local-cluster" | "kind";
  kubeconfigPath: string;
  kubeConfig: KubeConfig;
  /** kubectl with this environment's kubeconfig; resolves with stdout, rejects with stderr. */
  kubectl(args: string[], input?: string): Promise<string>;
  /** The kubectl binary, for long-running commands (port-forward.ts). */
  kubectlPath: string;
  /** The helm binary to run with `--kubeconfig kubeconfigPath`. */
  helm: string;
  /** Puts a podman image on the nodes; pods use it with `imagePullPolicy: Never`. */
  loadImage(ref: string): Promise<void>;
  /** A busybox image already on the nodes (applets: sh, httpd, wget, nc, nslookup, ...). */
  busyboxImage: string;
  /**
   * `http://<service>.<namespace>.svc:<port>`, the URL of a Service port for {@link fetch}: routed
   * to the ClusterIP on the local cluster, through a `kubectl port-forward` on kind.
   */
  serviceUrl(namespace: string, service: string, port: number): string;
  /** fetch() that reaches the URLs of serviceUrl from this process (and any other URL as usual). */
  fetch: typeof globalThis.fetch;
  /** Stops what this module started (the local cluster, port-forwards); a kind cluster is left to its owner. */
  stop(): Promise<void>;
}

export interface E2eEnvironmentOptions {
  log?: (line: string) => void;
  /** How long the local cluster waits for another run's cluster to stop (one per machine). */
  waitForOtherClusterMs?: number;
}

export async function startEnvironment(options: E2eEnvironmentOptions = {}): Promise<E2eEnvironment> {
  const kindCluster = process.env.ATRIUM_E2E_KIND_CLUSTER;
  if (kindCluster) return kindEnvironment(kindCluster);
  const cluster = await startCluster(options);
  const http = routedServiceHttp(() =>
    cluster.kubectlRun(["-n", "kube-system", "get", "service", "kube-dns", "-o", "jsonpath={.spec.clusterIP}"]),
  );
  return {
    name: "local-cluster",
    kubeconfigPath: cluster.kubeconfigPath,
    kubeConfig: cluster.kubeConfig,
    kubectl: cluster.kubectlRun,
    kubectlPath: cluster.kubectl,
    helm: cluster.helm,
    loadImage: cluster.loadImage,
    busyboxImage: cluster.busyboxImage,
    serviceUrl: http.serviceUrl,
    fetch: http.fetch,
    stop: async () => {
      await http.close();
      await cluster.stop();
    },
  };
}

async function kindEnvironment(clusterName: string): Promise<E2eEnvironment> {
  const kubeconfigPath = process.env.KUBECONFIG;
  if (!kubeconfigPath) throw new Error("ATRIUM_E2E_KIND_CLUSTER is set but KUBECONFIG is not: run hack/kind-e2e.sh");
  const kubectlBinary = process.env.KUBECTL ?? "kubectl";
  const loadImage = async (ref: string) => {
    const dir = await mkdtemp(join(tmpdir(), "atrium-e2e-image-"));
    try {
      const archive = join(dir, "image.tar");
      await podman(["save", "--quiet", "--output", archive, ref]);
      await run("kind", ["load", "image-archive", archive, "--name", clusterName]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  const busybox = await busyboxImage();
  await loadImage(busybox);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  const http = forwardedServiceHttp({ kubectlPath: kubectlBinary, kubeconfigPath });
  return {
    name: "kind",
    kubeconfigPath,
    kubeConfig,
    kubectl: (args, input) => runKubectl(kubectlBinary, kubeconfigPath, args, input),
    kubectlPath: kubectlBinary,
    helm: process.env.HELM ?? "helm",
    loadImage,
    busyboxImage: busybox,
    serviceUrl: http.serviceUrl,
    fetch: http.fetch,
    stop: () => http.close(),
  };
}
