/**
 * @atrium/test-cluster: a real one-node Kubernetes cluster for end-to-end tests, without Docker.
 * etcd, kube-apiserver, kube-controller-manager, kube-scheduler, a kubelet on Debian's containerd +
 * runc, kube-proxy (iptables) and CoreDNS, all inside a network namespace of their own, with pods on
 * a CNI bridge. e2e tests get a kubeconfig (and URLs), so the same tests run on kind.
 *
 * One cluster runs at a time per machine (a second start waits). Binaries come from
 * hack/kube/build.sh --cluster (cached by version); each run lives in a temp folder that stop()
 * removes, with a watchdog that tears everything down if the test process dies.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import {
  buildKubeBinaries,
  httpsGet,
  type ManagedProcess,
  onProcessExit,
  seconds,
  startProcess,
  startWatchdog,
  waitUntilReady,
} from "@atrium/kube-testenv";
import { KubeConfig } from "@kubernetes/client-node";
import { writeCniConfig, writeContainerdConfig, writeKubeletConfig, writeKubeProxyConfig } from "./configs.ts";
import { corednsManifests } from "./coredns.ts";
import { buildFromScratch, busyboxImage, corednsImage, importImage, podman } from "./images.ts";
import {
  APISERVER_PORT,
  APISERVER_URL,
  containerdRoot,
  containerdRootInUseMarker,
  NETNS,
  NETNS_PATH,
  NODE_IP,
  NODE_NAME,
  ownerFile,
  POD_CIDR,
  runLayout,
  SERVICE_CIDR,
} from "./layout.ts";
import { acquireCluster, type Release } from "./lock.ts";
import { createNetwork } from "./network.ts";
import { makeClusterPki } from "./pki.ts";
import { storageClassManifest } from "./storage.ts";
import { TEARDOWN_SCRIPT, teardown, teardownSync } from "./teardown.ts";

const run = promisify(execFile);

export interface TestCluster {
  /** Admin kubeconfig (a bearer token in system:masters); kubectl, helm and client-node read it. */
  kubeconfigPath: string;
  kubeConfig: KubeConfig;
  /** https://10.245.0.2:6443, reachable from the host and from pods. */
  server: string;
  /** The binaries of hack/kube/build.sh --cluster: kubectl, helm, ... */
  binDir: string;
  kubectl: string;
  helm: string;
  /** The busybox image on the node (busybox applets: sh, httpd, wget, nslookup, ...). */
  busyboxImage: string;
  /** Copies a podman image (e.g. localhost/atrium/gateway:dev) onto the node; use `imagePullPolicy: Never`. */
  loadImage(ref: string): Promise<void>;
  /** Runs kubectl with the admin kubeconfig; resolves with stdout, rejects with stderr. */
  kubectlRun(args: string[], input?: string): Promise<string>;
  /** Stops everything and removes every trace (processes, containers, mounts, namespace, folder). Idempotent. */
  stop(): Promise<void>;
}

export interface TestClusterOptions {
  /** Progress lines and every line the components print. */
  log?: (line: string) => void;
  /** How long to wait for another run's cluster to stop (one cluster per machine). Default 20 min. */
  waitForOtherClusterMs?: number;
}

const COMPONENT_READY_TIMEOUT_MS = 120_000;
// On a loaded 2-core machine the first pods take a while: images unpack, CoreDNS starts its watches.
const WORKLOAD_READY_TIMEOUT_MS = 240_000;

/** Starts the cluster and waits until the node is Ready and CoreDNS answers. Call stop() when done. */
export async function startCluster(options: TestClusterOptions = {}): Promise<TestCluster> {
  const log = options.log ?? (() => {});
  const startedAt = Date.now();
  const step = (what: string) => log(`cluster: ${what} (${seconds(Date.now() - startedAt)})`);
  if (process.getuid?.() !== 0) {
    throw new Error("the test cluster needs root (network namespace, containerd, mounts): run the tests as root");
  }
  await run("bash", [resolve(import.meta.dirname, "../deps.sh")]);
  step("building or finding the binaries (hack/kube/build.sh --cluster)");
  const binDir = buildKubeBinaries(["--cluster"]);
  const bin = (name: string) => join(binDir, name);
  for (const name of ["kubelet", "kube-controller-manager", "kube-scheduler", "kube-proxy", "kubectl", "coredns"]) {
    if (!existsSync(bin(name))) throw new Error(`hack/kube/build.sh --cluster did not produce ${bin(name)}`);
  }
  const versions = await readFile(resolve(import.meta.dirname, "../../kube/versions.env"), "utf8");
  const corednsVersion = /^COREDNS_VERSION=(.+)$/m.exec(versions)?.[1] ?? "unknown";
  step("building or finding the cluster's images (busybox, coredns)");
  const [busybox, coredns] = await Promise.all([busyboxImage(), corednsImage(bin("coredns"), corednsVersion)]);

  const dir = await mkdtemp(join(tmpdir(), "atrium-cluster-"));
  const layout = runLayout(dir);
  // teardown.sh reads these; it needs nothing else to clean up after any run.
  await writeFile(
    layout.teardownEnv,
    [
      `NETNS=${NETNS}`,
      `CONTAINERD_ROOT=${JSON.stringify(containerdRoot())}`,
      `OWNER_FILE=${JSON.stringify(ownerFile())}`,
      `CTR=${JSON.stringify((await run("bash", ["-c", "command -v ctr"])).stdout.trim())}`,
      "",
    ].join("\n"),
  );
  const watchdog = startWatchdog(dir, ["bash", TEARDOWN_SCRIPT, dir]);
  const children: ManagedProcess[] = [];
  const removeExitHook = onProcessExit(() => teardownSync(dir));
  let releaseLock: Release | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const stopStartedAt = Date.now();
      watchdog.dispose();
      await teardown(dir);
      await Promise.all(children.map((child) => child.exited));
      releaseLock?.();
      removeExitHook();
      log(`cluster: stopped and removed in ${seconds(Date.now() - stopStartedAt)}`);
    })();
    return stopping;
  };
  // Every component runs inside the cluster's network namespace (nsenter execs it: same pid).
  const launch = (name: string, command: string, args: string[]) => {
    const child = startProcess(name, "nsenter", [`--net=${NETNS_PATH}`, "--", command, ...args], log);
    children.push(child);
    if (child.pid !== undefined) watchdog.track(child.pid);
    return child;
  };

  try {
    releaseLock = await acquireCluster(dir, options.waitForOtherClusterMs ?? 1_200_000, log);
    await createNetwork();
    step(`network namespace ${NETNS} up (node ${NODE_IP}, pods ${POD_CIDR}, services ${SERVICE_CIDR})`);
    const pki = await makeClusterPki(layout.pki);

    const etcdUrl = "http://127.0.0.1:2379";
    launch("etcd", bin("etcd"), [
      `--data-dir=${layout.etcd}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      "--listen-peer-urls=http://127.0.0.1:2380",
      "--unsafe-no-fsync=true",
    ]);
    const apiserver = launch("kube-apiserver", bin("kube-apiserver"), [
      `--etcd-servers=${etcdUrl}`,
      `--cert-dir=${layout.pki}`,
      `--tls-cert-file=${pki.certs.servingCert}`,
      `--tls-private-key-file=${pki.certs.servingKey}`,
      `--client-ca-file=${pki.certs.caCert}`,
      `--secure-port=${APISERVER_PORT}`,
      // All addresses of the namespace: the node's (host, pods via the kubernetes Service) and loopback.
      "--bind-address=0.0.0.0",
      `--advertise-address=${NODE_IP}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      "--allow-privileged=true",
      "--authorization-mode=Node,RBAC",
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      `--service-account-key-file=${pki.certs.serviceAccountPublicKey}`,
      `--service-account-signing-key-file=${pki.certs.serviceAccountKey}`,
      `--token-auth-file=${pki.tokenFile}`,
      `--kubelet-client-certificate=${pki.apiserverKubeletClient.cert}`,
      `--kubelet-client-key=${pki.apiserverKubeletClient.key}`,
      `--kubelet-certificate-authority=${pki.certs.caCert}`,
      "--kubelet-preferred-address-types=InternalIP",
    ]);
    await writeContainerdConfig(layout, busybox);
    await writeCniConfig(layout);
    // A root whose last user did not finish its teardown may hold stale containers: start afresh.
    if (existsSync(containerdRootInUseMarker())) {
      log("cluster: the last run did not stop cleanly: clearing containerd's root (images are imported again)");
      await rm(containerdRoot(), { recursive: true, force: true });
    }
    await mkdir(containerdRoot(), { recursive: true });
    await writeFile(containerdRootInUseMarker(), `${dir}\n`);
    const containerd = launch("containerd", "containerd", ["--config", layout.containerdConfig]);

    await whileAlive(
      children,
      waitUntilReady(apiserver, COMPONENT_READY_TIMEOUT_MS, async () => {
        const response = await httpsGet(`${APISERVER_URL}/readyz`, pki.certs.caPem, pki.adminToken);
        return { ready: response.status === 200, detail: `${response.status} ${response.body}` };
      }),
    );
    step(`kube-apiserver ready at ${APISERVER_URL}`);
    await waitUntilReady(containerd, COMPONENT_READY_TIMEOUT_MS, async () => {
      const { stdout } = await run("ctr", ["--address", layout.containerdSocket, "version"]);
      return { ready: stdout.includes("Server:"), detail: stdout };
    });
    step("containerd ready");
    const loadImage = (ref: string) => importImage(ref, layout.containerdSocket, log);
    await Promise.all([loadImage(busybox), loadImage(coredns)]);

    const kubeletConfig = await writeKubeletConfig(layout, pki);
    const kubeProxyConfig = await writeKubeProxyConfig(layout, pki);
    const kubelet = launch("kubelet", bin("kubelet"), [
      `--config=${kubeletConfig}`,
      `--kubeconfig=${pki.kubeconfigs.kubelet}`,
      `--root-dir=${layout.kubelet}`,
      `--hostname-override=${NODE_NAME}`,
      `--node-ip=${NODE_IP}`,
    ]);
    launch("kube-controller-manager", bin("kube-controller-manager"), [
      `--kubeconfig=${pki.kubeconfigs["kube-controller-manager"]}`,
      "--leader-elect=false",
      "--bind-address=127.0.0.1",
      `--cert-dir=${join(dir, "kube-controller-manager")}`,
      `--service-account-private-key-file=${pki.certs.serviceAccountKey}`,
      `--root-ca-file=${pki.certs.caCert}`,
      "--use-service-account-credentials=true",
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      "--cluster-name=atrium-cluster",
      "--enable-hostpath-provisioner=true",
    ]);
    launch("kube-scheduler", bin("kube-scheduler"), [
      `--kubeconfig=${pki.kubeconfigs["kube-scheduler"]}`,
      "--leader-elect=false",
      "--bind-address=127.0.0.1",
      `--cert-dir=${join(dir, "kube-scheduler")}`,
    ]);
    launch("kube-proxy", bin("kube-proxy"), [`--config=${kubeProxyConfig}`]);

    const kubeconfigPath = layout.kubeconfig;
    await writeFile(kubeconfigPath, await readFile(pki.kubeconfigs.admin, "utf8"), { mode: 0o600 });
    const kubectlRun = (args: string[], input?: string) => runKubectl(bin("kubectl"), kubeconfigPath, args, input);
    await whileAlive(
      children,
      waitUntilReady(kubelet, COMPONENT_READY_TIMEOUT_MS, async () => {
        const status = await kubectlRun([
          ...["get", "node", NODE_NAME, "-o"],
          'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
        ]).catch((error: Error) => error.message);
        return { ready: status === "True", detail: `node Ready=${status}` };
      }),
    );
    step(`node ${NODE_NAME} Ready`);

    const addons = { apiVersion: "v1", kind: "List", items: [...corednsManifests(coredns), storageClassManifest()] };
    await kubectlRun(["apply", "-f", "-"], JSON.stringify(addons));
    await whileAlive(
      children,
      waitForRollout(kubectlRun, "kube-system", "deployment/coredns", WORKLOAD_READY_TIMEOUT_MS),
    );
    step("CoreDNS available, default StorageClass `standard`: cluster ready");

    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    return {
      kubeconfigPath,
      kubeConfig,
      server: APISERVER_URL,
      binDir,
      kubectl: bin("kubectl"),
      helm: bin("helm"),
      busyboxImage: busybox,
      loadImage,
      kubectlRun,
      stop,
    };
  } catch (error) {
    await stop().catch((stopError: Error) =>
      log(`cluster: teardown after a failed start failed: ${stopError.message}`),
    );
    throw error;
  }
}

/** Runs `binary` (kubectl) with `kubeconfig`; resolves with stdout, rejects with stderr. */
export function runKubectl(binary: string, kubeconfig: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      binary,
      [`--kubeconfig=${kubeconfig}`, ...args],
      { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`kubectl ${args.join(" ")} failed: ${stderr.trim() || error.message}`));
        else resolvePromise(stdout);
      },
    );
    child.stdin?.end(input ?? "");
  });
}

/** `work`, unless a component of the cluster exits first: then its exit and stderr tail. */
async function whileAlive<T>(children: ManagedProcess[], work: Promise<T>): Promise<T> {
  let settled = false;
  const deaths = children.map(async (child): Promise<never> => {
    const status = await child.exited;
    if (!settled) throw new Error(`${child.name} exited (${status}):\n${child.stderrTail(40).join("\n")}`);
    return new Promise<never>(() => {});
  });
  try {
    return await Promise.race([work, ...deaths]);
  } finally {
    settled = true;
  }
}

/** Waits for a Deployment's rollout; on timeout, the pods and events say why. */
export async function waitForRollout(
  kubectlRun: (args: string[]) => Promise<string>,
  namespace: string,
  resource: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await kubectlRun(["-n", namespace, "rollout", "status", resource, "--timeout=10s"]);
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        const pods = await kubectlRun(["-n", namespace, "get", "pods", "-o", "wide"]).catch((e: Error) => e.message);
        const events = await kubectlRun(["-n", namespace, "get", "events", "--sort-by=.lastTimestamp"]).catch(
          (e: Error) => e.message,
        );
        throw new Error(
          `${resource} not available after ${seconds(timeoutMs)}: ${(error as Error).message}\n${pods}\n${events}`,
        );
      }
      await sleep(1_000);
    }
  }
}

export { clientPod, echoWorkload } from "./workloads.ts";
export { buildFromScratch, busyboxImage, podman };
