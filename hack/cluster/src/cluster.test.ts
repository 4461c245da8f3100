/**
 * Starts the real one-node cluster and checks what the e2e scenarios rely on: a Ready node, a
 * Deployment of a locally built image becoming Available, a ClusterIP Service spreading requests
 * over its pods, in-cluster DNS, `kubectl logs` (API server → kubelet), the host reaching Service
 * and pod addresses, images loaded from podman, and a stop that leaves no process, mount, network
 * namespace or folder behind, even when the process that started it is killed. A cluster that
 * does not start fails the suite.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type TestCluster } from "./index.ts";
import { NETNS } from "./layout.ts";

const run = promisify(execFile);
const NAMESPACE = "cluster-test";

function deployment(image: string) {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "echo", namespace: NAMESPACE },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "echo" } },
      template: {
        metadata: { labels: { app: "echo" } },
        spec: {
          containers: [
            {
              name: "echo",
              image,
              imagePullPolicy: "Never",
              // Each pod answers with its own name, so the test sees which pod served a request.
              command: [
                "/bin/busybox",
                "sh",
                "-c",
                "/bin/busybox mkdir -p /www && /bin/busybox hostname > /www/index.html && exec /bin/busybox httpd -f -v -p 8080 -h /www",
              ],
              ports: [{ containerPort: 8080 }],
              readinessProbe: { httpGet: { path: "/", port: 8080 }, periodSeconds: 1 },
            },
          ],
        },
      },
    },
  };
}

const service = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "echo", namespace: NAMESPACE },
  spec: { selector: { app: "echo" }, ports: [{ port: 80, targetPort: 8080 }] },
};

/** A pod that resolves the Service's name and calls it 20 times, printing what it got. */
function clientPod(image: string) {
  const host = `echo.${NAMESPACE}.svc.cluster.local`;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "client", namespace: NAMESPACE },
    spec: {
      restartPolicy: "Never",
      containers: [
        {
          name: "client",
          image,
          imagePullPolicy: "Never",
          command: [
            "/bin/busybox",
            "sh",
            "-c",
            // nc, not wget: Debian's static busybox wget crashes resolving names (glibc NSS in a static binary).
            `/bin/busybox nslookup ${host} && for i in $(/bin/busybox seq 20); do echo "answer: $(printf 'GET / HTTP/1.0\\r\\n\\r\\n' | /bin/busybox nc -w 5 ${host} 80 | /bin/busybox tail -n 1)"; done`,
          ],
        },
      ],
    },
  };
}

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

  it("runs a Deployment behind a ClusterIP Service, resolved by in-cluster DNS, with kubectl logs", async () => {
    await cluster.kubectlRun(["create", "namespace", NAMESPACE]);
    const manifests = { apiVersion: "v1", kind: "List", items: [deployment(cluster.busyboxImage), service] };
    await cluster.kubectlRun(["apply", "-f", "-"], JSON.stringify(manifests));
    await cluster.kubectlRun(["-n", NAMESPACE, "rollout", "status", "deployment/echo", "--timeout=180s"]);
    const available = await cluster.kubectlRun([
      ...["-n", NAMESPACE, "get", "deployment", "echo", "-o"],
      'jsonpath={.status.availableReplicas}/{.status.conditions[?(@.type=="Available")].status}',
    ]);
    expect(available).toBe("2/True");
    const pods = (await cluster.kubectlRun(["-n", NAMESPACE, "get", "pods", "-l", "app=echo", "-o", "name"]))
      .trim()
      .split("\n")
      .map((name) => name.replace("pod/", ""));
    expect(pods).toHaveLength(2);
    const clusterIp = await cluster.kubectlRun([
      "-n",
      NAMESPACE,
      "get",
      "service",
      "echo",
      "-o",
      "jsonpath={.spec.clusterIP}",
    ]);

    await cluster.kubectlRun(["apply", "-f", "-"], JSON.stringify(clientPod(cluster.busyboxImage)));
    await cluster.kubectlRun([
      ...["-n", NAMESPACE, "wait", "pod/client", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=120s"],
    ]);
    const logs = await cluster.kubectlRun(["-n", NAMESPACE, "logs", "client"]);
    // nslookup printed the Service's address for its cluster.local name.
    expect(logs).toContain(`Name:\techo.${NAMESPACE}.svc.cluster.local\nAddress: ${clusterIp}`);
    const answers = logs
      .split("\n")
      .filter((line) => line.startsWith("answer: "))
      .map((line) => line.slice("answer: ".length));
    expect(answers).toHaveLength(20);
    // Every answer came from one of the two pods, and the Service used both (2^-19 odds otherwise).
    expect(new Set(answers)).toEqual(new Set(pods));
  }, 300_000);

  it("is reachable from the host: Service and pod addresses route into the cluster's namespace", async () => {
    const clusterIp = await cluster.kubectlRun([
      "-n",
      NAMESPACE,
      "get",
      "service",
      "echo",
      "-o",
      "jsonpath={.spec.clusterIP}",
    ]);
    const response = await fetch(`http://${clusterIp}/`, { signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBe(200);
    expect((await response.text()).trim()).toMatch(/^echo-/);
    const pods = await cluster.kubectlRun([
      ...["-n", NAMESPACE, "get", "pods", "-l", "app=echo", "-o"],
      'jsonpath={range .items[*]}{.metadata.name} {.status.podIP}{"\\n"}{end}',
    ]);
    for (const line of pods.trim().split("\n")) {
      const [name, podIp] = line.split(" ");
      const direct = await fetch(`http://${podIp}:8080/`, { signal: AbortSignal.timeout(5_000) });
      expect((await direct.text()).trim()).toBe(name);
    }
  });

  it("loads an image from podman onto the node", async () => {
    const ref = "localhost/atrium-cluster/loaded-test:1";
    await run(`${import.meta.dirname}/../../images/podman`, ["tag", cluster.busyboxImage, ref]);
    try {
      await cluster.loadImage(ref);
      const pod = {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "loaded", namespace: NAMESPACE },
        spec: {
          restartPolicy: "Never",
          containers: [
            { name: "loaded", image: ref, imagePullPolicy: "Never", command: ["/bin/busybox", "echo", "loaded ok"] },
          ],
        },
      };
      await cluster.kubectlRun(["apply", "-f", "-"], JSON.stringify(pod));
      await cluster.kubectlRun([
        ...["-n", NAMESPACE, "wait", "pod/loaded", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=120s"],
      ]);
      expect(await cluster.kubectlRun(["-n", NAMESPACE, "logs", "loaded"])).toBe("loaded ok\n");
    } finally {
      await run(`${import.meta.dirname}/../../images/podman`, ["rmi", ref]).catch(() => {});
    }
  }, 180_000);

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
