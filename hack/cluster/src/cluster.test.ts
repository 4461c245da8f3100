/**
 * The local cluster's own checks (what every environment offers is checked in
 * e2e/src/environment.test.ts): the pinned kubelet version, the host reaching Service and pod
 * addresses through the cluster's network namespace, and a stop that leaves no process, mount,
 * network namespace or folder behind, even when the process that started it is killed. A cluster
 * that does not start fails the suite.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoWorkload, startCluster, type TestCluster } from "./index.ts";
import { NETNS } from "./layout.ts";

const run = promisify(execFile);
const NAMESPACE = "cluster-test";

/** Processes whose command line names `dir`, and mounts below it. */
function leftovers(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(`${dir}/`)) found.push(`process ${pid} (${readlinkSync(`/proc/${pid}/exe`)}): ${cmdline}`);
    } catch {
      // gone meanwhile
    }
  }
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const mountPoint = line.split(" ")[4];
    if (mountPoint?.startsWith(`${dir}/`)) found.push(`mount ${mountPoint}`);
  }
  return found;
}

/** Retries `attempt` (undefined or an error: not yet) until it returns a value or `timeoutMs` passes. */
async function until<T>(attempt: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`not reached after ${timeoutMs} ms: ${String(last)}`);
    await sleep(250);
  }
}

describe("the one-node test cluster", () => {
  let cluster: TestCluster;
  let runDir: string;

  beforeAll(async () => {
    // A cold machine builds the binaries first (minutes on 2 cores); a warm one starts in ~20 s.
    cluster = await startCluster({
      log: (line) => {
        if (line.startsWith("cluster:")) console.log(line);
      },
    });
    runDir = dirname(cluster.kubeconfigPath);
  }, 1_800_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 180_000);

  it("has a Ready node running the pinned version", async () => {
    const node = JSON.parse(await cluster.kubectlRun(["get", "node", "atrium-node", "-o", "json"]));
    const ready = node.status.conditions.find((condition: { type: string }) => condition.type === "Ready");
    expect(ready.status).toBe("True");
    expect(node.status.nodeInfo.kubeletVersion).toBe("v1.36.3");
  });

  it("is reachable from the host: Service and pod addresses route into the cluster's namespace", async () => {
    await cluster.kubectlRun(["create", "namespace", NAMESPACE]);
    await cluster.kubectlRun(["apply", "-f", "-"], JSON.stringify(echoWorkload(NAMESPACE, cluster.busyboxImage)));
    await cluster.kubectlRun(["-n", NAMESPACE, "rollout", "status", "deployment/echo", "--timeout=180s"]);
    const clusterIp = await cluster.kubectlRun([
      "-n",
      NAMESPACE,
      "get",
      "service",
      "echo",
      "-o",
      "jsonpath={.spec.clusterIP}",
    ]);
    // kube-proxy writes a new Service's rules within a second or two; until then the namespace has
    // no route for its address and answers "network unreachable".
    const body = await until(async () => {
      const response = await fetch(`http://${clusterIp}/`, { signal: AbortSignal.timeout(5_000) });
      return response.ok ? response.text() : undefined;
    }, 30_000);
    expect(body.trim()).toMatch(/^echo-/);
    const pods = await cluster.kubectlRun([
      ...["-n", NAMESPACE, "get", "pods", "-l", "app=echo", "-o"],
      'jsonpath={range .items[*]}{.metadata.name} {.status.podIP}{"\\n"}{end}',
    ]);
    expect(pods.trim().split("\n")).toHaveLength(2);
    for (const line of pods.trim().split("\n")) {
      const [name, podIp] = line.split(" ");
      const direct = await fetch(`http://${podIp}:8080/`, { signal: AbortSignal.timeout(5_000) });
      expect((await direct.text()).trim()).toBe(name);
    }
  }, 300_000);

  it("stops without leaving processes, mounts, the network namespace or its folder behind", async () => {
    expect(leftovers(runDir).length).toBeGreaterThan(0); // the check sees a running cluster
    await cluster.stop();
    expect(leftovers(runDir)).toEqual([]);
    expect(existsSync(runDir)).toBe(false);
    const { stdout } = await run("ip", ["netns", "list"]);
    expect(stdout).not.toContain(NETNS);
    await cluster.stop(); // idempotent
  }, 180_000);

  it("is torn down by its watchdog when the process that started it is killed", async () => {
    // The cluster of the tests above is gone: this one may take the network namespace.
    const child = spawn(process.execPath, [join(import.meta.dirname, "cli.ts")], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const started = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^KUBECONFIG=(.+)$/m.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.once("exit", (code) =>
        reject(new Error(`cli.ts exited (${code}) before the cluster was ready:\n${stderr}`)),
      );
    });
    const dir = dirname(started);
    expect(leftovers(dir).length).toBeGreaterThan(0);
    child.kill("SIGKILL"); // no exit hook runs: only the watchdog can clean up
    const deadline = Date.now() + 60_000;
    while ((leftovers(dir).length > 0 || existsSync(dir)) && Date.now() < deadline) await sleep(500);
    expect(leftovers(dir)).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    const { stdout } = await run("ip", ["netns", "list"]);
    expect(stdout).not.toContain(NETNS);
  }, 600_000);
});
