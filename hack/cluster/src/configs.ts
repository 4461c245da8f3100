/**
 * The configuration files of one run, written into its folder: containerd's (its own root, state
 * and socket; the settings these machines need), the CNI bridge network, the kubelet's and
 * kube-proxy's. Nothing under /etc is read or written.
 */
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  BRIDGE,
  CLUSTER_DOMAIN,
  containerdRoot,
  DNS_SERVICE_IP,
  NODE_IP,
  NODE_NAME,
  POD_CIDR,
  POD_GATEWAY,
  type RunLayout,
} from "./layout.ts";
import type { ClusterPki } from "./pki.ts";

const run = promisify(execFile);

/** Debian's containernetworking-plugins. */
export const CNI_BIN_DIR = "/usr/lib/cni";

export async function writeContainerdConfig(layout: RunLayout, sandboxImage: string): Promise<void> {
  await mkdir(layout.containerdState, { recursive: true });
  // The default OCI spec without process.rlimits: setting rlimits is refused in this sandbox.
  const { stdout } = await run("ctr", ["oci", "spec"]);
  const spec = JSON.parse(stdout) as { process?: { rlimits?: unknown } };
  delete spec.process?.rlimits;
  const baseSpec = join(layout.dir, "base-runtime-spec.json");
  await writeFile(baseSpec, JSON.stringify(spec, null, 2));
  const toml = `version = 2
root = ${JSON.stringify(containerdRoot())}
state = ${JSON.stringify(layout.containerdState)}
# Snapshotters and services the cluster does not use stay off (fewer warnings, faster start).
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = ${JSON.stringify(layout.containerdSocket)}

[ttrpc]
  address = ""

[debug]
  address = ""

[plugins."io.containerd.internal.v1.opt"]
  path = ${JSON.stringify(join(layout.dir, "containerd-opt"))}

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${JSON.stringify(sandboxImage)}
  # Without it every sandbox fails with runc's "can't get final child's PID from pipe: EOF".
  restrict_oom_score_adj = true
  # Pod network namespaces under the run folder, unmounted with it.
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  enable_selinux = false
  disable_apparmor = true
  tolerate_missing_hugetlb_controller = true

  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = ${JSON.stringify(CNI_BIN_DIR)}
    conf_dir = ${JSON.stringify(layout.cniConfig)}
    max_conf_num = 1

  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"

    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      base_runtime_spec = ${JSON.stringify(baseSpec)}

      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = ${JSON.stringify(layout.runcRoot)}
`;
  await writeFile(layout.containerdConfig, toml);
}

/** One bridge network, no masquerading: pods reach each other, Services and the node, nothing else. */
export async function writeCniConfig(layout: RunLayout): Promise<void> {
  await mkdir(layout.cniConfig, { recursive: true });
  const config = {
    cniVersion: "1.0.0",
    name: "atrium-cluster",
    plugins: [
      {
        type: "bridge",
        bridge: BRIDGE,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: "host-local",
          dataDir: layout.cniIpam,
          ranges: [[{ subnet: POD_CIDR, gateway: POD_GATEWAY }]],
          routes: [{ dst: "0.0.0.0/0" }],
        },
      },
      { type: "portmap", capabilities: { portMappings: true } },
    ],
  };
  await writeFile(join(layout.cniConfig, "10-atrium.conflist"), JSON.stringify(config, null, 2));
}

/** The settings measured on these machines: cgroupfs without per-QoS cgroups, cgroup v1 allowed, no swap check. */
export async function writeKubeletConfig(layout: RunLayout, pki: ClusterPki): Promise<string> {
  await mkdir(layout.kubelet, { recursive: true });
  await mkdir(layout.podLogs, { recursive: true });
  const noResolvers = join(layout.dir, "resolv.conf");
  // Pods with dnsPolicy Default get no upstream resolver: nothing resolves outside the cluster.
  await writeFile(noResolvers, "");
  const config = {
    apiVersion: "kubelet.config.k8s.io/v1beta1",
    kind: "KubeletConfiguration",
    address: NODE_IP,
    port: 10250,
    readOnlyPort: 0,
    healthzBindAddress: "127.0.0.1",
    healthzPort: 10248,
    tlsCertFile: pki.kubeletServing.cert,
    tlsPrivateKeyFile: pki.kubeletServing.key,
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: true },
      x509: { clientCAFile: pki.certs.caCert },
    },
    authorization: { mode: "Webhook" },
    containerRuntimeEndpoint: `unix://${layout.containerdSocket}`,
    cgroupDriver: "cgroupfs",
    failCgroupV1: false,
    failSwapOn: false,
    cgroupsPerQOS: false,
    enforceNodeAllocatable: [],
    clusterDNS: [DNS_SERVICE_IP],
    clusterDomain: CLUSTER_DOMAIN,
    resolvConf: noResolvers,
    podLogsDir: layout.podLogs,
    // A test node keeps its images (they are imported, never pulled) and evicts nothing.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    evictionHard: { "memory.available": "1Mi", "nodefs.available": "1%", "imagefs.available": "1%" },
    serializeImagePulls: false,
    nodeStatusReportFrequency: "10s",
    syncFrequency: "5s",
  };
  const path = join(layout.dir, "kubelet.json");
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}

export async function writeKubeProxyConfig(layout: RunLayout, pki: ClusterPki): Promise<string> {
  const config = {
    apiVersion: "kubeproxy.config.k8s.io/v1alpha1",
    kind: "KubeProxyConfiguration",
    mode: "iptables",
    clientConnection: { kubeconfig: pki.kubeconfigs["kube-proxy"] },
    hostnameOverride: NODE_NAME,
    clusterCIDR: POD_CIDR,
    detectLocalMode: "ClusterCIDR",
    healthzBindAddress: "127.0.0.1:10256",
    metricsBindAddress: "127.0.0.1:10249",
    // 0: leave the kernel's conntrack settings alone (they are not per namespace).
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: "0s", tcpCloseWaitTimeout: "0s" },
  };
  const path = join(layout.dir, "kube-proxy.json");
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}
