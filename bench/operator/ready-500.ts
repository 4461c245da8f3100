/**
 * Operator benchmark: a real kube-apiserver + etcd, a control plane (PGlite) and the operator
 * as a child process (`node operator/src/main.ts`, as deployed: token from a Secret, leader
 * election on). Creates [count] custom resources at once (default 500: one Service, one
 * Secret + SecretSource, then plans, Expositions and GatewayGroups in equal thirds; half the
 * plans with an API key, half with the SecretSource's backend secret) and measures the time
 * until every one is READY, and the operator's memory (VmRSS / VmHWM from /proc).
 *
 *   node bench/operator/ready-500.ts [count]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { sampleOpenApi } from "@atrium/control-plane/testing";
import { API_GROUP, API_VERSION, kindNamed } from "@atrium/crds";
import {
  createNamespace,
  isReady,
  OPERATOR_NAMESPACE,
  startOperatorTestEnv,
  TOKEN_SECRET,
  waitFor,
} from "@atrium/operator/testing";
import { captureOutput, testLogLevel } from "@atrium/reliability/secrets";

const count = Number(process.argv[2] ?? 500);
if (!Number.isInteger(count) || count < 5) throw new Error("count must be an integer ≥ 5");
const TARGET_MS = 60_000;
const NS = "bench";
const CREATE_CONCURRENCY = 16;

const repoRoot = join(import.meta.dirname, "..", "..");
const openapi = sampleOpenApi();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** kB from /proc/<pid>/status (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: field("VmRSS"), peak: field("VmHWM") };
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** The working set: [kind, name, spec] in creation order. */
function workingSet(total: number): { kind: string; name: string; spec: Record<string, unknown> }[] {
  const rest = total - 2;
  const plans = Math.floor(rest / 3);
  const groups = rest - 2 * plans;
  const set: { kind: string; name: string; spec: Record<string, unknown> }[] = [
    { kind: "Service", name: "petstore", spec: { version: "1.0.0", openapi: { inline: openapi } } },
    { kind: "SecretSource", name: "backend", spec: { secretRefs: [{ name: "backend", keys: ["token"] }] } },
  ];
  for (let i = 0; i < groups; i++) {
    set.push({ kind: "GatewayGroup", name: `group-${i}`, spec: { labels: { shard: String(i % 8) } } });
  }
  for (let i = 0; i < plans; i++) {
    set.push({
      kind: "ConfigurationPlan",
      name: `plan-${i}`,
      spec: {
        serviceRef: { name: "petstore" },
        backendEndpoint: `https://backend-${i}.example.com`,
        ...(i % 2 === 0
          ? { apiKey: { secretName: `plan-${i}-key` } }
          : { backendSecret: { secretSourceRef: { name: "backend", key: "token" }, prefix: "Bearer " } }),
      },
    });
    set.push({
      kind: "Exposition",
      name: `expo-${i}`,
      spec: { configurationPlanRef: { name: `plan-${i}` }, gatewayGroupRef: { name: `group-${i % groups}` } },
    });
  }
  return set;
}

const env = await startOperatorTestEnv();
let child: ChildProcess | undefined;
const childLog: string[] = [];
try {
  await createNamespace(env.core, NS);
  await env.core.createNamespacedSecret({
    namespace: NS,
    body: { metadata: { name: "backend" }, stringData: { token: "bench-token" } },
  });
  const port = await freePort();
  child = spawn(process.execPath, [join(repoRoot, "operator", "src", "main.ts")], {
    env: {
      ...process.env,
      KUBECONFIG: env.kube.kubeconfigPath,
      ATRIUM_CONTROL_PLANE_URL: env.controlPlane.url,
      ATRIUM_CONTROL_PLANE_TOKEN_SECRET: `${OPERATOR_NAMESPACE}/${TOKEN_SECRET}`,
      ATRIUM_LEADER_ELECTION_NAMESPACE: OPERATOR_NAMESPACE,
      ATRIUM_OPERATOR_HOST: "127.0.0.1",
      ATRIUM_OPERATOR_PORT: String(port),
      ATRIUM_LOG_LEVEL: testLogLevel("warn"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (chunk: Buffer) => childLog.push(chunk.toString()));
  // Under a test run (the smoke test), to its logs too, for the secrets scan.
  captureOutput("bench operator", child.stdout, child.stderr);
  const pid = child.pid ?? 0;
  const operatorUrl = `http://127.0.0.1:${port}`;
  const metrics = async () => (await fetch(`${operatorUrl}/q/metrics`)).text();
  await waitFor(
    "the operator leading",
    async () => ((await metrics()).includes("\natrium_operator_leader 1") ? true : undefined),
    {
      timeoutMs: 30_000,
    },
  );
  const idle = memoryOf(pid);

  const set = workingSet(count);
  let peakRss = idle.rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, memoryOf(pid).rss);
  }, 100);
  const started = performance.now();
  const queue = [...set];
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        await env.objects.create({
          apiVersion: `${API_GROUP}/${API_VERSION}`,
          kind: item.kind,
          metadata: { name: item.name, namespace: NS },
          spec: item.spec,
        });
      }
    }),
  );
  const createdMs = performance.now() - started;
  process.stderr.write(`created ${set.length} resources in ${(createdMs / 1000).toFixed(1)} s; waiting for READY...\n`);

  const kindsInSet = [...new Set(set.map((item) => item.kind))];
  let readyCount = 0;
  await waitFor(
    `all ${set.length} resources READY`,
    async () => {
      let ready = 0;
      for (const kind of kindsInSet) {
        const list = (await env.custom.listNamespacedCustomObject({
          group: API_GROUP,
          version: API_VERSION,
          namespace: NS,
          plural: kindNamed(kind)?.plural ?? "",
        })) as { items: Parameters<typeof isReady>[0][] };
        ready += list.items.filter(isReady).length;
      }
      readyCount = ready;
      return ready === set.length ? true : undefined;
    },
    { timeoutMs: 10 * 60_000, intervalMs: 250, last: () => readyCount },
  );
  const readyMs = performance.now() - started;
  clearInterval(sampler);
  const after = memoryOf(pid);
  const text = await metrics();
  const sum = (name: string) =>
    [...text.matchAll(new RegExp(`^${name}\\{[^}]*\\} (\\d+(?:\\.\\d+)?)$`, "gm"))].reduce(
      (total, m) => total + Number(m[1]),
      0,
    );

  const tally = Object.fromEntries(kindsInSet.map((kind) => [kind, set.filter((item) => item.kind === kind).length]));
  console.log(`operator: ${set.length} resources READY (${JSON.stringify(tally)})`);
  console.log(
    `  time to all READY: ${(readyMs / 1000).toFixed(1)} s from the first create (creating took ${(createdMs / 1000).toFixed(1)} s), ` +
      `${(set.length / (readyMs / 1000)).toFixed(0)} resources/s`,
  );
  console.log(
    `  reconciles: ${sum("atrium_operator_reconciles_total")}, control-plane requests: ${sum("atrium_operator_control_plane_requests_total")}`,
  );
  console.log(
    `  operator memory: RSS idle ${mb(idle.rss)}, peak ${mb(Math.max(peakRss, after.peak))}, after ${mb(after.rss)} ` +
      `(+${mb(after.rss - idle.rss)} for ${set.length} resources)`,
  );
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+(?:\\.\\d+)?)$`, "m").exec(text)?.[1] ?? Number.NaN);
  console.log(
    `  operator heap: ${mb(gauge("nodejs_heap_size_used_bytes") / 1024)} used of ${mb(gauge("nodejs_heap_size_total_bytes") / 1024)}, ` +
      `external ${mb(gauge("nodejs_external_memory_bytes") / 1024)}`,
  );
  console.log(`time / target (${TARGET_MS / 1000} s) = ${(readyMs / TARGET_MS).toFixed(2)}`);
} catch (error) {
  process.stderr.write(`operator log:\n${childLog.join("")}\n`);
  throw error;
} finally {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await env.stop();
}
