/**
 * Where the test cluster lives: its addresses (all inside a network namespace it creates, plus
 * the host end of one veth pair) and its folders. One cluster runs at a time on a machine.
 *
 * Addresses: the host reaches the namespace over 10.245.0.0/30; pods sit on a bridge inside it
 * (10.244.0.0/24); Services get 10.96.0.0/16. The namespace has no default route, so nothing a pod
 * sends can leave the machine; the host routes the pod and Service ranges into the namespace.
 */
import { homedir } from "node:os";
import { join } from "node:path";

export const NETNS = "atrium-cluster";
export const NETNS_PATH = `/run/netns/${NETNS}`;
/** The host's end of the veth pair, and its address. */
export const HOST_LINK = "atrium-cl0";
export const HOST_IP = "10.245.0.1";
/** The namespace's end: the node's address, where kube-apiserver and the kubelet listen. */
export const NODE_LINK = "uplink";
export const NODE_IP = "10.245.0.2";
export const LINK_PREFIX = 30;
export const BRIDGE = "atrium-br0";
export const POD_CIDR = "10.244.0.0/24";
export const POD_GATEWAY = "10.244.0.1";
export const SERVICE_CIDR = "10.96.0.0/16";
/** The `kubernetes` Service: the first address of the Service range. */
export const KUBERNETES_SERVICE_IP = "10.96.0.1";
export const DNS_SERVICE_IP = "10.96.0.10";
export const CLUSTER_DOMAIN = "cluster.local";
export const NODE_NAME = "atrium-node";
export const APISERVER_PORT = 6443;
export const APISERVER_URL = `https://${NODE_IP}:${APISERVER_PORT}`;

/** ~/.cache/atrium/cluster (ATRIUM_CACHE_DIR and XDG_CACHE_HOME honoured, as in hack/env.sh). */
export function clusterCacheDir(): string {
  const cache = process.env.ATRIUM_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "atrium");
  return join(cache, "cluster");
}

/** Says which run owns the namespace: `<pid> <run folder>`. */
export function ownerFile(): string {
  return join(clusterCacheDir(), "owner");
}

/** containerd's root: kept between runs so imported images stay. */
export function containerdRoot(): string {
  return join(clusterCacheDir(), "containerd");
}

/** Present while a run uses containerd's root; a run that finds it wipes the root (its last user died). */
export function containerdRootInUseMarker(): string {
  return join(containerdRoot(), ".in-use");
}

/** The folders of one run (a temp folder, removed on stop). */
export function runLayout(dir: string) {
  return {
    dir,
    pki: join(dir, "pki"),
    etcd: join(dir, "etcd"),
    containerdState: join(dir, "containerd"),
    containerdSocket: join(dir, "containerd", "containerd.sock"),
    containerdConfig: join(dir, "containerd.toml"),
    runcRoot: join(dir, "runc"),
    cniConfig: join(dir, "cni"),
    cniIpam: join(dir, "cni-ipam"),
    kubelet: join(dir, "kubelet"),
    podLogs: join(dir, "pod-logs"),
    manifests: join(dir, "manifests"),
    /** Read by teardown.sh. */
    teardownEnv: join(dir, "teardown.env"),
    kubeconfig: join(dir, "kubeconfig"),
  };
}

export type RunLayout = ReturnType<typeof runLayout>;
