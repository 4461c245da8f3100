/**
 * What every e2e scenario relies on, checked on whichever environment runs (the local one-node
 * cluster by default, kind under hack/kind-e2e.sh): Ready nodes, a Deployment of a locally built
 * image becoming Available, a ClusterIP Service spreading requests over its pods, in-cluster DNS,
 * `kubectl logs`, `exec` and `port-forward` (API server → kubelet), a Service reached from the test
 * process by env.serviceUrl (and by port-forward, kind's way, across a pod's replacement),
 * persistent volumes of the default StorageClass, and images loaded from podman. An environment that does not start fails
 * the suite.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { clientPod, echoWorkload } from "@atrium/test-cluster";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2eEnvironment, startEnvironment } from "./environment.ts";
import { eventually } from "./fixtures/atrium.ts";
import { portForward } from "./port-forward.ts";
import { forwardedServiceHttp } from "./service-http.ts";

const run = promisify(execFile);
const PODMAN = resolve(import.meta.dirname, "../../hack/images/podman");
const NAMESPACE = "e2e-environment";

describe("the e2e environment", () => {
  let env: E2eEnvironment;

  beforeAll(async () => {
    // A cold machine builds the cluster's binaries first (minutes on 2 cores); a warm one starts in ~15 s.
    env = await startEnvironment({
      log: (line) => {
        if (line.startsWith("cluster:")) console.log(line);
      },
    });
    await env.kubectl(["create", "namespace", NAMESPACE]);
  }, 1_800_000);

  afterAll(async () => {
    await env?.kubectl(["delete", "namespace", NAMESPACE, "--wait=false"]).catch(() => {});
    await env?.stop();
  }, 180_000);

  it("has only Ready nodes", async () => {
    const nodes = JSON.parse(await env.kubectl(["get", "nodes", "-o", "json"])).items as {
      status: { conditions: { type: string; status: string }[] };
    }[];
    expect(nodes.length).toBeGreaterThan(0);
    for (const node of nodes) {
      expect(node.status.conditions.find((condition) => condition.type === "Ready")?.status).toBe("True");
    }
  });

  it("runs a Deployment behind a ClusterIP Service, resolved by in-cluster DNS, with kubectl logs, exec and port-forward", async () => {
    await env.kubectl(["apply", "-f", "-"], JSON.stringify(echoWorkload(NAMESPACE, env.busyboxImage)));
    await env.kubectl(["-n", NAMESPACE, "rollout", "status", "deployment/echo", "--timeout=180s"]);
    const available = await env.kubectl([
      ...["-n", NAMESPACE, "get", "deployment", "echo", "-o"],
      'jsonpath={.status.availableReplicas}/{.status.conditions[?(@.type=="Available")].status}',
    ]);
    expect(available).toBe("2/True");
    const pods = (await env.kubectl(["-n", NAMESPACE, "get", "pods", "-l", "app=echo", "-o", "name"]))
      .trim()
      .split("\n")
      .map((name) => name.replace("pod/", ""));
    expect(pods).toHaveLength(2);
    const clusterIp = await env.kubectl([
      "-n",
      NAMESPACE,
      "get",
      "service",
      "echo",
      "-o",
      "jsonpath={.spec.clusterIP}",
    ]);

    // The rollout is complete once both pods are Ready, which can be before the Service's
    // EndpointSlice lists the second one (and kube-proxy programs it, at most once a second):
    // calls made in that window all reach the first pod. CI saw it happen.
    await eventually("the echo Service's EndpointSlice lists both pods ready", 60_000, async () => {
      const ready = await env.kubectl([
        ...["-n", NAMESPACE, "get", "endpointslices", "-l", "kubernetes.io/service-name=echo", "-o"],
        'jsonpath={range .items[*].endpoints[?(@.conditions.ready==true)]}{.targetRef.name}{"\\n"}{end}',
      ]);
      const names = new Set(ready.trim().split("\n").filter(Boolean));
      return pods.every((pod) => names.has(pod)) ? names : undefined;
    });

    const host = `echo.${NAMESPACE}.svc.cluster.local`;
    await env.kubectl(["apply", "-f", "-"], JSON.stringify(clientPod(NAMESPACE, env.busyboxImage, host, 20)));
    await env.kubectl([
      ...["-n", NAMESPACE, "wait", "pod/client", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=120s"],
    ]);
    const logs = await env.kubectl(["-n", NAMESPACE, "logs", "client"]);
    // nslookup printed the Service's address for its cluster.local name.
    expect(logs).toContain(`Name:\t${host}\nAddress: ${clusterIp}`);
    const answers = logs
      .split("\n")
      .filter((line) => line.startsWith("answer: "))
      .map((line) => line.slice("answer: ".length));
    expect(answers).toHaveLength(20);
    // Every answer came from one of the two pods, and the Service used both (2^-19 odds otherwise).
    expect(new Set(answers)).toEqual(new Set(pods));

    // kubectl exec (API server → kubelet → containerd's streaming server).
    const served = await env.kubectl([
      "-n",
      NAMESPACE,
      "exec",
      `pod/${pods[0]}`,
      "--",
      "/bin/busybox",
      "cat",
      "/www/index.html",
    ]);
    expect(served.trim()).toBe(pods[0]);

    // kubectl port-forward to the Service, from the test process.
    const forward = await portForward(env, NAMESPACE, "service/echo", 80);
    try {
      const response = await fetch(`${forward.url}/`, { signal: AbortSignal.timeout(10_000) });
      expect(pods).toContain((await response.text()).trim());
    } finally {
      await forward.close();
    }
  }, 300_000);

  it("reaches a Service by env.serviceUrl, and by port-forward (kind's way) after the forwarded pod is replaced", async () => {
    await env.kubectl(["apply", "-f", "-"], JSON.stringify(echoWorkload(NAMESPACE, env.busyboxImage)));
    await env.kubectl(["-n", NAMESPACE, "rollout", "status", "deployment/echo", "--timeout=180s"]);
    const pods = async () =>
      (await env.kubectl(["-n", NAMESPACE, "get", "pods", "-l", "app=echo", "-o", "name"]))
        .trim()
        .split("\n")
        .map((name) => name.replace("pod/", ""));
    const url = `${env.serviceUrl(NAMESPACE, "echo", 80)}/`;
    expect(url).toBe(`http://echo.${NAMESPACE}.svc:80/`);
    // Each echo pod answers with its own name.
    const answer = async (fetchFn: typeof fetch) =>
      (await (await fetchFn(url, { signal: AbortSignal.timeout(10_000) })).text()).trim();
    expect(await pods()).toContain(await answer(env.fetch));

    const forwarded = forwardedServiceHttp(env);
    try {
      const pinned = await answer(forwarded.fetch);
      expect(await pods()).toContain(pinned);
      // kubectl pins one pod: once it is gone, a request fails and the next one opens a new forward.
      await env.kubectl(["-n", NAMESPACE, "delete", "pod", pinned, "--wait=true"]);
      await env.kubectl(["-n", NAMESPACE, "rollout", "status", "deployment/echo", "--timeout=180s"]);
      const next = await eventually("an answer through a new port-forward", 60_000, () => answer(forwarded.fetch));
      expect(next).not.toBe(pinned);
      expect(await pods()).toContain(next);
    } finally {
      await forwarded.close();
    }
  }, 300_000);

  it("binds a PersistentVolumeClaim of the default StorageClass, and a pod writes to it", async () => {
    const claim = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "data", namespace: NAMESPACE },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "16Mi" } } },
    };
    const pod = (name: string, script: string) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name, namespace: NAMESPACE },
      spec: {
        restartPolicy: "Never",
        containers: [
          {
            name,
            image: env.busyboxImage,
            imagePullPolicy: "Never",
            command: ["/bin/busybox", "sh", "-c", script],
            volumeMounts: [{ name: "data", mountPath: "/data" }],
          },
        ],
        volumes: [{ name: "data", persistentVolumeClaim: { claimName: "data" } }],
      },
    });
    const items = [claim, pod("writer", "echo kept > /data/file")];
    await env.kubectl(["apply", "-f", "-"], JSON.stringify({ apiVersion: "v1", kind: "List", items }));
    await env.kubectl([
      ...["-n", NAMESPACE, "wait", "pod/writer", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=120s"],
    ]);
    // A second pod sees what the first wrote: the data lives in the volume, not in a container.
    await env.kubectl(["apply", "-f", "-"], JSON.stringify(pod("reader", "/bin/busybox cat /data/file")));
    await env.kubectl([
      ...["-n", NAMESPACE, "wait", "pod/reader", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=120s"],
    ]);
    expect(await env.kubectl(["-n", NAMESPACE, "logs", "reader"])).toBe("kept\n");
    expect(await env.kubectl(["-n", NAMESPACE, "get", "pvc", "data", "-o", "jsonpath={.status.phase}"])).toBe("Bound");
  }, 300_000);

  it("loads an image from podman onto the nodes", async () => {
    const ref = "localhost/atrium-e2e/loaded-test:1";
    await run(PODMAN, ["tag", env.busyboxImage, ref]);
    try {
      await env.loadImage(ref);
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
      await env.kubectl(["apply", "-f", "-"], JSON.stringify(pod));
      await env.kubectl([
        ...["-n", NAMESPACE, "wait", "pod/loaded", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=120s"],
      ]);
      expect(await env.kubectl(["-n", NAMESPACE, "logs", "loaded"])).toBe("loaded ok\n");
    } finally {
      await run(PODMAN, ["rmi", ref]).catch(() => {});
    }
  }, 180_000);
});
