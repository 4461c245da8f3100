/**
 * @atrium/kube-testenv: starts and stops a real etcd + kube-apiserver for tests, the way
 * controller-runtime's envtest does (no Docker, no controller-manager, no nodes). The binaries come
 * from hack/kube/build.sh; each environment lives in its own temp dir with free ports, a test CA,
 * and an admin bearer token in group system:masters.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { KubeConfig } from "@kubernetes/client-node";
import { makeCerts } from "./certs.ts";
import { freePorts } from "./ports.ts";
import { type ManagedProcess, onProcessExit, startProcess, startWatchdog } from "./processes.ts";

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
const STDERR_TAIL_LINES = 40;

let binaries: KubeBinaries | undefined;

/** Runs hack/kube/build.sh (instant when its cache is warm) once per process. */
export function kubeBinaries(): KubeBinaries {
  if (binaries) return binaries;
  const repoRoot = resolve(import.meta.dirname, "../../..");
  // build.sh prints progress on stderr (shown as is) and the bin folder as its last stdout line.
  const stdout = execFileSync("bash", [join(repoRoot, "hack/kube/build.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const dir = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  const found: KubeBinaries = {
    dir,
    etcd: join(dir, "etcd"),
    kubeApiserver: join(dir, "kube-apiserver"),
    helm: join(dir, "helm"),
  };
  for (const path of [found.etcd, found.kubeApiserver, found.helm]) {
    if (!existsSync(path)) {
      throw new Error(`hack/kube/build.sh did not produce ${path} (stdout: ${stdout.trim()})`);
    }
  }
  binaries = found;
  return found;
}

/** Starts etcd and kube-apiserver and waits until /readyz is ok. Call `stop()` when done. */
export async function startKubeTestEnv(options: KubeTestEnvOptions = {}): Promise<KubeTestEnv> {
  const log = options.log ?? (() => {});
  const startedAt = Date.now();
  const bins = kubeBinaries();
  const dir = await mkdtemp(join(tmpdir(), "atrium-kube-testenv-"));
  const watchdog = startWatchdog(dir);
  const children: ManagedProcess[] = [];
  const removeExitHook = onProcessExit(() => {
    for (const child of children) child.killNow();
    watchdog.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const stopStartedAt = Date.now();
      // Reverse start order: kube-apiserver must not outlive the etcd it writes to.
      for (const child of children.toReversed()) await child.stop(STOP_GRACE_MS);
      watchdog.dispose();
      await rm(dir, { recursive: true, force: true });
      removeExitHook();
      log(`kube-testenv: stopped in ${seconds(Date.now() - stopStartedAt)}`);
    })();
    return stopping;
  };
  const launch = (name: string, command: string, args: string[]) => {
    const child = startProcess(name, command, args, log, childEnv());
    children.push(child);
    if (child.pid !== undefined) watchdog.track(child.pid);
    return child;
  };

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

/** Polls `check` until it reports ready; fails fast, with the stderr tail, if the process exits. */
async function waitUntilReady(
  child: ManagedProcess,
  timeoutMs: number,
  check: () => Promise<{ ready: boolean; detail: string }>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  for (;;) {
    const status = child.exitStatus();
    if (status !== undefined) {
      throw new Error(`${child.name} exited (${status}) before it was ready${stderrTail(child)}`);
    }
    try {
      const result = await check();
      if (result.ready) return;
      last = result.detail;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} not ready after ${seconds(timeoutMs)} (last check: ${last.trim()})${stderrTail(child)}`,
      );
    }
    // Whichever comes first: the next poll, or the process dying.
    await Promise.race([sleep(250), child.exited]);
  }
}

function stderrTail(child: ManagedProcess): string {
  const lines = child.stderrTail(STDERR_TAIL_LINES);
  return lines.length === 0 ? "" : `\n--- last ${lines.length} stderr lines of ${child.name} ---\n${lines.join("\n")}`;
}

/** GET verifying TLS against `ca`; a fresh connection each time (agent: false), none left open. */
function httpsGet(url: string, ca: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      url,
      { ca, agent: false, timeout: 5_000, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolvePromise({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
    req.end();
  });
}

// JSON is valid YAML: kubectl, helm and client-node all read this kubeconfig.
function kubeconfigJson(server: string, caPem: string, token: string): string {
  const name = "kube-testenv";
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name,
        cluster: { server, "certificate-authority-data": Buffer.from(caPem).toString("base64") },
      },
    ],
    users: [{ name: "admin", user: { token } }],
    contexts: [{ name, context: { cluster: name, user: "admin" } }],
    "current-context": name,
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export { createTestCa, type PemFiles, type TestCa } from "./certs.ts";
