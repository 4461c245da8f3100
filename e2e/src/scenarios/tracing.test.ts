/**
 * A change's one trace on a real cluster (issue 24): `kubectl apply` of an Exposition, reconciled
 * by the operator's pod in a `reconcile Exposition` span, whose REST call to the control plane's
 * pod continues in the request span, `record change Exposition` and `publish changes`, and, through
 * the change stream message, in the gateway pod's `apply changes`. The three charts are installed
 * with their extraEnv pointing OTLP at a real OpenTelemetry Collector running in the cluster
 * (fixtures/collector.ts), whose file the test reads. The control plane runs on its embedded
 * database (one replica): this scenario is about the trace, the lifecycle one about PostgreSQL.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { CollectedSpan } from "@atrium/test-collector";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type E2eEnvironment, startEnvironment } from "../environment.ts";
import {
  COMPONENTS,
  ControlPlaneApi,
  eventually,
  GATEWAY_LABELS,
  helmCommand,
  imageRef,
  keepPodLogs,
  NAMESPACE,
  RELEASES,
  REPO_ROOT,
  secretData,
  secretEntry,
  writeValues,
} from "../fixtures/atrium.ts";
import {
  COLLECTOR,
  collectedSpans,
  collectorEndpoint,
  collectorImage,
  collectorManifests,
  keepCollectedSpans,
} from "../fixtures/collector.ts";

const run = promisify(execFile);
const TAG = "e2e-1";
const SAMPLES = join(REPO_ROOT, "crds/samples/valid");
const SAMPLES_NAMESPACE = "e2e-traced";
/** What the Exposition needs, applied and READY before the traced `kubectl apply`. */
const PREREQUISITES = [
  ["backend-secret.yaml", "secret", "petstore-backend"],
  ["secret-source.yaml", "secretsource", "petstore-credentials"],
  ["service.yaml", "services.atrium.dev", "petstore"],
  ["configuration-plan.yaml", "configurationplan", "petstore-plan"],
  ["gateway-group.yaml", "gatewaygroup", "dev-gateways"],
] as const;
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

const log = (line: string) => console.log(`e2e: ${line}`);

/** Small pods, one replica each, exporting to the collector: extraEnv of every chart. */
function tracedValues(component: "control-plane" | "operator" | "webhook" | "gateway") {
  const extraEnv = [
    { name: "OTEL_EXPORTER_OTLP_ENDPOINT", value: collectorEndpoint(NAMESPACE) },
    { name: "OTEL_BSP_SCHEDULE_DELAY", value: "200" },
  ];
  return {
    image: { repository: `localhost/atrium/${component}`, tag: TAG, pullPolicy: "Never" },
    replicas: 1,
    resources: {
      requests: { cpu: "50m", memory: "128Mi" },
      // The embedded database's first start (initdb) peaks at ~1.3 GB RSS, above the chart's 1Gi limit.
      ...(component === "control-plane" ? { limits: { memory: "2Gi" } } : {}),
    },
    ...(component === "webhook" ? {} : { extraEnv }),
  };
}

describe("a kubectl apply's trace on a real cluster", () => {
  let env: E2eEnvironment;
  let dir: string;

  beforeAll(async () => {
    // The images before the cluster, so the one cluster per machine is held briefly.
    log(`building the images (hack/images/build.sh --tag ${TAG}) and the collector's`);
    await run("bash", [join(REPO_ROOT, "hack/images/build.sh"), "--tag", TAG, "--no-measure"], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const otelcol = await collectorImage();
    env = await startEnvironment({
      log: (line) => line.startsWith("cluster:") && log(line),
      waitForOtherClusterMs: 1_800_000,
    });
    dir = await mkdtemp(join(tmpdir(), "atrium-e2e-tracing-"));
    for (const component of COMPONENTS) await env.loadImage(imageRef(component, TAG));
    await env.loadImage(otelcol);
    await env.kubectl(["create", "namespace", NAMESPACE]);
    await env.kubectl(["apply", "-f", "-"], JSON.stringify(collectorManifests(NAMESPACE, otelcol, env.busyboxImage)));
    await env.kubectl(["-n", NAMESPACE, "rollout", "status", `deployment/${COLLECTOR}`, "--timeout=180s"]);
  }, 3_600_000);

  afterAll(async () => {
    if (env) {
      await keepCollectedSpans(env, NAMESPACE).catch(() => {});
      await keepPodLogs(env.kubectl, [NAMESPACE, SAMPLES_NAMESPACE]).catch(() => {});
      for (const namespace of [SAMPLES_NAMESPACE, NAMESPACE])
        await env.kubectl(["delete", "namespace", namespace, "--wait=false"]).catch(() => {});
    }
    await env?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 300_000);

  test("the operator's reconcile, the control plane's request, change and publish, and the gateway's apply: one trace", async () => {
    const kubectl = env.kubectl;
    const helm = helmCommand(env.helm, env.kubeconfigPath);
    /** helm install of `chart` as `release`, its values in a file, waiting for the rollout. */
    const install = async (release: string, chart: string, values: unknown) =>
      helm([
        ...["install", release, join(REPO_ROOT, "charts", chart), "-n", NAMESPACE],
        ...["-f", await writeValues(dir, release, values), "--wait", "--timeout", "8m"],
      ]);

    await kubectl(["apply", "--server-side", "-f", join(REPO_ROOT, "charts/controllers/crds")]);
    await kubectl(["wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"]);
    await install(RELEASES.controlPlane, "control-plane", { ctrl: tracedValues("control-plane") });
    const api = new ControlPlaneApi(`${env.serviceUrl(NAMESPACE, RELEASES.controlPlane, 5555)}/api/v1`, env.fetch);
    await api.login(
      "default",
      "admin",
      await secretEntry(kubectl, NAMESPACE, `${RELEASES.controlPlane}-admin`, "password"),
    );
    for (const role of ["gateway", "operator"] as const) {
      const token = await api.createApiToken(`e2e-${role}`, role);
      await kubectl([
        "-n",
        NAMESPACE,
        "create",
        "secret",
        "generic",
        `atrium-${role}-token`,
        `--from-literal=token=${token}`,
      ]);
    }
    await install(RELEASES.controllers, "controllers", {
      operator: tracedValues("operator"),
      admissionController: tracedValues("webhook"),
    });
    await install(RELEASES.gateway, "gateway", { ...tracedValues("gateway"), gateway: { labels: GATEWAY_LABELS } });

    await kubectl(["create", "namespace", SAMPLES_NAMESPACE]);
    for (const [file] of PREREQUISITES) await kubectl(["-n", SAMPLES_NAMESPACE, "apply", "-f", join(SAMPLES, file)]);
    for (const [, resource, name] of PREREQUISITES.filter(([, resource]) => resource !== "secret")) {
      await kubectl([
        ...["-n", SAMPLES_NAMESPACE, "wait", `${resource}/${name}`, "--timeout=180s"],
        "--for=jsonpath={.status.status}=READY",
      ]);
    }

    // The traced step: the Exposition applied with kubectl, served by the gateway.
    await kubectl(["-n", SAMPLES_NAMESPACE, "apply", "-f", join(SAMPLES, "exposition.yaml")]);
    const keySecret = await eventually("the plan's API key Secret", 60_000, () =>
      secretData(kubectl, SAMPLES_NAMESPACE, "petstore-plan-api-key"),
    );
    const apiKey = Buffer.from(Object.values(keySecret)[0] ?? "", "base64").toString("utf8");
    const gatewayUrl = `${env.serviceUrl(NAMESPACE, RELEASES.gateway, 7777)}/mcp/default/petstore`;
    const tools = await eventually("the gateway serving the Exposition", 120_000, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(gatewayUrl), {
        requestInit: { headers: { "x-atrium-key": apiKey } },
        fetch: env.fetch,
      });
      const client = new Client({ name: "atrium-e2e-tracing", version: "1" });
      await client.connect(transport);
      try {
        return (await client.listTools()).tools.map((tool) => tool.name);
      } finally {
        await client.close();
      }
    });
    expect(tools).toContain("listPets");

    // The gateway's span, in the trace of a reconcile of the Exposition (other reconciles, of its status, have their own).
    const applied = (spans: CollectedSpan[]) => {
      const reconciles = new Set(spans.filter((span) => span.name === "reconcile Exposition").map((s) => s.traceId));
      return spans.find((span) => span.name === "apply changes" && reconciles.has(span.traceId));
    };
    const all = await eventually("the trace in the collector's file", 60_000, async () => {
      const spans = await collectedSpans(env, NAMESPACE);
      if (applied(spans)) return spans;
      throw new Error(`spans so far: ${spans.map((span) => span.name).join(", ") || "none"}`);
    });
    const apply = applied(all) as CollectedSpan;
    const trace = all.filter((span) => span.traceId === apply.traceId);
    const named = (name: string) => {
      const span = trace.find((each) => each.name === name);
      if (!span) throw new Error(`no span ${name} in the trace: ${trace.map((each) => each.name).join(", ")}`);
      return span;
    };
    const reconcile = named("reconcile Exposition");
    const change = named("record change Exposition");
    const request = trace.find((span) => span.spanId === change.parentSpanId);
    const publish = named("publish changes");

    expect(reconcile.parentSpanId).toBeUndefined();
    expect(reconcile.attributes).toMatchObject({
      "atrium.resource.kind": "Exposition",
      "k8s.namespace.name": SAMPLES_NAMESPACE,
      "atrium.resource.name": "petstore",
    });
    expect(request?.kind).toBe(SERVER);
    expect(request?.name).toMatch(/^(POST|PUT) \/api\/v1\/expositions/);
    expect(request?.parentSpanId).toBe(reconcile.spanId);
    expect(publish.kind).toBe(PRODUCER);
    expect(publish.parentSpanId).toBe(change.spanId);
    expect(apply.kind).toBe(CONSUMER);
    expect(apply.parentSpanId).toBe(publish.spanId);
    // Each span came from its component's pod, over that pod's own exporter.
    const service = (span: CollectedSpan | undefined) => span?.resource["service.name"];
    expect(service(reconcile)).toBe("atrium-operator");
    expect([request, change, publish].map(service)).toEqual(Array(3).fill("atrium-control-plane"));
    expect(service(apply)).toBe("atrium-gateway");
  }, 1_800_000);
});
