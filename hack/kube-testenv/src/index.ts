/**
 * @atrium/kube-testenv: starts and stops a real etcd + kube-apiserver for tests, the way
 * controller-runtime's envtest does (no Docker, no controller-manager, no nodes). The binaries come
 * from hack/kube/build.sh; each environment lives in its own temp dir with free ports, a test CA,
 * and an admin bearer token in group system:masters.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { makeCerts } from "./certs.ts";
import { kubeconfigJson } from "./kubeconfig.ts";
import { freePorts } from "./ports.ts";
import { seconds, startInTempDir } from "./processes.ts";
import { httpsGet, waitUntilReady } from "./wait.ts";

export interface KubeTestEnv {
  /** https://127.0.0.1:<port> */
  server: string;
  /** The CA that signed the serving certificate. */
  caPem: string;
  /** Admin bearer token (group system:masters). */
  token: string;
  /** A kubeconfig file for this environment, in its temp dir. */
  kubeconfigPath: string;
  /** The same kubeconfig, loaded. */
  kubeConfig: KubeConfig;
  /** Stops kube-apiserver, then etcd, and removes the temp dir. Idempotent. */
  stop(): Promise<void>;
}

export interface KubeTestEnvOptions {
  /** Receives progress lines and every line etcd and kube-apiserver print. */
  log?: (line: string) => void;
}

export interface KubeBinaries {
  dir: string;
  etcd: string;
  kubeApiserver: string;
  helm: string;
}

const ETCD_READY_TIMEOUT_MS = 30_000;
// A start takes ~3 s on an idle 2-core machine; the margin is for loaded CI machines running suites in parallel.
const APISERVER_READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;

let binaries: KubeBinaries | undefined;

/**
 * Runs hack/kube/build.sh with `args` (instant when its cache is warm) and returns the bin folder.
 * Progress goes to stderr as is.
 */
export function buildKubeBinaries(args: string[] = []): string {
  const repoRoot = resolve(import.meta.dirname, "../../..");
  // build.sh prints the bin folder as its last stdout line.
  const stdout = execFileSync("bash", [join(repoRoot, "hack/kube/build.sh"), ...args], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return stdout.trim().split("\n").at(-1)?.trim() ?? "";
}

/** The binaries hack/kube/build.sh builds by default, built once per process. */
export function kubeBinaries(): KubeBinaries {
  if (binaries) return binaries;
  const dir = buildKubeBinaries();
  const found: KubeBinaries = {
    dir,
    etcd: join(dir, "etcd"),
    kubeApiserver: join(dir, "kube-apiserver"),
    helm: join(dir, "helm"),
  };
  for (const path of [found.etcd, found.kubeApiserver, found.helm]) {
    if (!existsSync(path)) throw new Error(`hack/kube/build.sh did not produce ${path} (bin folder: ${dir})`);
  }
  binaries = found;
  return found;
}

/** Starts etcd and kube-apiserver and waits until /readyz is ok. Call `stop()` when done. */
export async function startKubeTestEnv(options: KubeTestEnvOptions = {}): Promise<KubeTestEnv> {
  const log = options.log ?? (() => {});
  const startedAt = Date.now();
  const bins = kubeBinaries();
  // Stopped in reverse start order: kube-apiserver must not outlive the etcd it writes to.
  const processes = await startInTempDir({ name: "kube-testenv", graceMs: STOP_GRACE_MS, log });
  const { dir, stop } = processes;
  const launch = (name: string, command: string, args: string[]) => processes.launch(name, command, args, childEnv());

  try {
    const [etcdPort, etcdPeerPort, apiserverPort] = await freePorts(3);
    const pkiDir = join(dir, "pki");
    await mkdir(pkiDir);
    const certs = await makeCerts(pkiDir);
    const token = randomBytes(32).toString("hex");
    const tokenFile = join(dir, "tokens.csv");
    await writeFile(tokenFile, `${token},admin,admin,system:masters\n`, { mode: 0o600 });

    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    const etcd = launch("etcd", bins.etcd, [
      `--data-dir=${join(dir, "etcd")}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      "--unsafe-no-fsync=true",
    ]);
    await waitUntilReady(etcd, ETCD_READY_TIMEOUT_MS, async () => {
      const response = await fetch(`${etcdUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      return { ready: response.ok && JSON.parse(body).health === "true", detail: body };
    });
    log(`kube-testenv: etcd healthy at ${etcdUrl}`);

    const server = `https://127.0.0.1:${apiserverPort}`;
    const apiserver = launch("kube-apiserver", bins.kubeApiserver, [
      `--etcd-servers=${etcdUrl}`,
      `--cert-dir=${pkiDir}`,
      // Explicit, so a missing file fails loudly instead of silently self-signing a certificate.
      `--tls-cert-file=${certs.servingCert}`,
      `--tls-private-key-file=${certs.servingKey}`,
      `--secure-port=${apiserverPort}`,
      "--bind-address=127.0.0.1",
      "--advertise-address=127.0.0.1",
      "--service-cluster-ip-range=10.0.0.0/24",
      "--allow-privileged=true",
      "--authorization-mode=RBAC",
      // No controller-manager creates the `default` service account, so this plugin would reject pods.
      "--disable-admission-plugins=ServiceAccount",
      `--service-account-issuer=${server}/`,
      `--service-account-key-file=${certs.serviceAccountPublicKey}`,
      `--service-account-signing-key-file=${certs.serviceAccountKey}`,
      `--token-auth-file=${tokenFile}`,
    ]);
    await waitUntilReady(apiserver, APISERVER_READY_TIMEOUT_MS, async () => {
      const response = await httpsGet(`${server}/readyz`, certs.caPem, token);
      return { ready: response.status === 200, detail: `${response.status} ${response.body}` };
    });

    const kubeconfigPath = join(dir, "kubeconfig");
    await writeFile(kubeconfigPath, kubeconfigJson(server, certs.caPem, token), { mode: 0o600 });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    log(`kube-testenv: kube-apiserver ready at ${server} in ${seconds(Date.now() - startedAt)}`);
    return { server, caPem: certs.caPem, token, kubeconfigPath, kubeConfig, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// etcd reads its flags from ETCD_* variables too: a developer's own etcd settings must not leak in.
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("ETCD_")));
}

export { createTestCa, makeCerts, type PemFiles, type TestCa, type TestCerts } from "./certs.ts";
export { kubeconfigJson } from "./kubeconfig.ts";
export { freePorts, portAccepts } from "./ports.ts";
export {
  isAlive,
  type ManagedProcess,
  onProcessExit,
  seconds,
  startInTempDir,
  startProcess,
  startWatchdog,
  type TempDirProcesses,
  type Watchdog,
} from "./processes.ts";
export { httpsGet, waitUntilReady } from "./wait.ts";
