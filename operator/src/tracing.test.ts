/**
 * A custom resource's one trace (issue 24), from the real kube-apiserver to a gateway process:
 * an Exposition applied to the API server is reconciled by the operator in a `reconcile
 * Exposition` span; its REST call carries that span's traceparent, so the control plane's server
 * span, the change it records and its publishing to the gateway's stream continue the trace, and
 * the gateway, a separate process (`node gateway/src/main.ts` with OTEL_EXPORTER_OTLP_ENDPOINT
 * set, as deployed), applies the message in an `apply changes` span of the same trace. All of it
 * exports to a real OpenTelemetry Collector; the operator and the control plane run in this test
 * process (one SDK, started here), the gateway in its own.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTracing, type Tracing } from "@atrium/contract/telemetry";
import { freePort } from "@atrium/control-plane/testing";
import { captureOutput, recordSecret, testLogLevel } from "@atrium/reliability/secrets";
import { type CollectedSpan, spanNamed, startCollector, type TestCollector } from "@atrium/test-collector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPetstore, type OperatorHarness, resource, startOperatorHarness, waitFor } from "./testing.ts";

const GATEWAY_MAIN = join(import.meta.dirname, "..", "..", "gateway", "src", "main.ts");

let collector: TestCollector;
let traces: Tracing | undefined;
let harness: OperatorHarness;
let gateway: ChildProcess | undefined;
let cacheDir: string;
const saved = { ...process.env };

beforeAll(async () => {
  collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.otlpHttpEndpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
  traces = await startTracing({ name: "atrium-operator", version: "test" }, () => import("@opentelemetry/sdk-node"));
  harness = await startOperatorHarness("traced");
  cacheDir = await mkdtemp(join(tmpdir(), "atrium-traced-gateway-"));
  gateway = await startGatewayProcess();
}, 300_000);

afterAll(async () => {
  if (gateway && gateway.exitCode === null) {
    const exited = new Promise((resolve) => gateway?.once("exit", resolve));
    gateway.kill("SIGTERM");
    await exited;
  }
  await harness?.stop();
  await traces?.shutdown();
  await collector?.stop();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  process.env = saved;
});

/** A gateway process (labels env=traced) of the harness's control plane, exporting its spans to the collector. */
async function startGatewayProcess(): Promise<ChildProcess> {
  const admin = harness.env.controlPlane.admin;
  const created = await admin.call("POST", "/api/v1/api-tokens", {
    name: "gateways",
    validityDays: 1,
    role: "gateway",
  });
  if (created.status !== 201) throw new Error(`API token: ${JSON.stringify(created.body)}`);
  const token = created.body.token as string;
  recordSecret("gateway API token", token);
  const port = await freePort();
  const child = spawn(process.execPath, [GATEWAY_MAIN], {
    env: {
      ...process.env,
      ATRIUM_CONTROL_PLANE_URL: harness.env.controlPlane.url,
      ATRIUM_CONTROL_PLANE_TOKEN: token,
      ATRIUM_GATEWAY_ID: "gw-traced",
      ATRIUM_GATEWAY_FQDNS: "gw-traced.test",
      ATRIUM_GATEWAY_LABELS: "env=traced",
      ATRIUM_GATEWAY_HOST: "127.0.0.1",
      ATRIUM_GATEWAY_PORT: String(port),
      ATRIUM_GATEWAY_CACHE_DIR: cacheDir,
      ATRIUM_GATEWAY_SESSION_KEY: randomBytes(32).toString("base64"),
      ATRIUM_LOG_LEVEL: testLogLevel("info"),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlpHttpEndpoint,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));
  captureOutput("gateway-traced", child.stdout, child.stderr);
  // Ready means its stream is open: an Exposition created before that would reach it in its
  // first snapshot, not as a streamed change, and the trace under test would never form.
  // An exit ends the wait at once (waitFor retries a probe that throws until its deadline).
  const state = await waitFor(
    "the traced gateway to be ready",
    async () => {
      if (child.exitCode !== null) return "exited";
      const ready = await fetch(`http://127.0.0.1:${port}/q/health/ready`);
      return ready.ok ? "ready" : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 200 },
  );
  if (state === "exited") throw new Error(`the traced gateway exited with ${child.exitCode} before it was ready`);
  return child;
}

const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

describe("a custom resource's trace", () => {
  it("goes from the operator's reconcile through the control plane to the gateway process applying it", async () => {
    await applyPetstore(harness);
    await harness.create(resource("GatewayGroup", "traced-group", { labels: { env: "traced" } }));
    await harness.create(
      resource("ConfigurationPlan", "traced-plan", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://petstore.example.com",
      }),
    );
    await harness.waitReady("ConfigurationPlan", "traced-plan");
    await harness.waitReady("GatewayGroup", "traced-group");
    await harness.create(
      resource("Exposition", "traced", {
        configurationPlanRef: { name: "traced-plan" },
        gatewayGroupRef: { name: "traced-group" },
      }),
    );
    await harness.waitReady("Exposition", "traced");

    // The gateway's span, in the trace of a reconcile of the Exposition.
    const inOneTrace = (spans: CollectedSpan[]) => {
      const reconciles = new Set(
        spans.filter((span) => span.name === "reconcile Exposition").map((span) => span.traceId),
      );
      return spans.find((span) => span.name === "apply changes" && reconciles.has(span.traceId));
    };
    const all = await collector.waitForSpans((spans) => inOneTrace(spans) !== undefined, 30_000);
    const apply = inOneTrace(all) as CollectedSpan;
    const spans = all.filter((span) => span.traceId === apply.traceId);
    const named = (name: string) => spanNamed(spans, name);
    const reconcile = named("reconcile Exposition");
    const server = named("POST /api/v1/expositions");
    const change = named("record change Exposition");
    const publish = named("publish changes");

    expect(reconcile.parentSpanId).toBeUndefined();
    expect(reconcile.attributes).toMatchObject({
      "atrium.resource.kind": "Exposition",
      "k8s.namespace.name": "traced",
      "atrium.resource.name": "traced",
      "atrium.reconcile.result": "ready",
    });
    expect(server.kind).toBe(SERVER);
    expect(server.parentSpanId).toBe(reconcile.spanId);
    expect(change.parentSpanId).toBe(server.spanId);
    expect(publish.kind).toBe(PRODUCER);
    expect(publish.parentSpanId).toBe(change.spanId);
    expect(apply.kind).toBe(CONSUMER);
    expect(apply.parentSpanId).toBe(publish.spanId);
    // The gateway's span came from the gateway's process, over its own exporter.
    expect(apply.resource["service.name"]).toBe("atrium-gateway");
    expect(reconcile.resource["service.name"]).toBe("atrium-operator");
    expect(apply.attributes["atrium.change.upserts"]).toBe(1);
    // Four resources to bring to READY (up to 20 s each) and the spans' wait (30 s), on a loaded CI machine.
  }, 120_000);
});
