/**
 * A change's one trace (issue 24), against a real OpenTelemetry Collector this test process
 * exports to: a REST write (carrying a caller's traceparent, as the operator's and the CLI's
 * calls do) is the control plane's server span; the change it records, the control plane
 * publishing it to the gateway's stream, and the gateway applying the message (its `traceparent`)
 * follow in the same trace, each a child of the one before. The control plane and the gateway run
 * in this one process, exporting through the same SDK, as separate processes would.
 */
import { randomBytes } from "node:crypto";
import { spanNamed, type TestCollector } from "@atrium/test-collector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { type Stack, startStack, startTracedProcess, waitFor } from "./testing.ts";

let collector: TestCollector;
let traced: Awaited<ReturnType<typeof startTracedProcess>>;
let stack: Stack;
let gateway: Gateway;

beforeAll(async () => {
  traced = await startTracedProcess("atrium-test");
  collector = traced.collector;
  stack = await startStack();
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(stack.expositionId) !== undefined, "the Exposition served");
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await traced?.stop();
});

const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;

describe("a change's trace", () => {
  it("goes from the REST write through the commit and the stream to the gateway applying it", async () => {
    const traceId = randomBytes(16).toString("hex");
    const parent = randomBytes(8).toString("hex");
    const renamed = await stack.controlPlane.admin.call(
      "PUT",
      `/api/v1/expositions/${stack.expositionId}`,
      { name: "fixture-traced", configurationPlanId: stack.planId, gatewayGroupId: stack.groupId },
      { traceparent: `00-${traceId}-${parent}-01` },
    );
    expect(renamed.status).toBe(200);
    await waitFor(() => gateway.registry.byPath("default", "fixture-traced") !== undefined, "the rename applied");

    const all = await collector.waitForSpans(
      (found) => found.some((span) => span.traceId === traceId && span.name === "apply changes"),
      20_000,
    );
    const spans = all.filter((span) => span.traceId === traceId);
    const named = (name: string) => spanNamed(spans, name);
    const server = named("PUT /api/v1/expositions/:id");
    const change = named("record change Exposition");
    const publish = named("publish changes");
    const apply = named("apply changes");
    expect(server.kind).toBe(SERVER);
    expect(server.parentSpanId).toBe(parent);
    expect(change.parentSpanId).toBe(server.spanId);
    expect(publish.kind).toBe(PRODUCER);
    expect(publish.parentSpanId).toBe(change.spanId);
    expect(publish.attributes["atrium.stream.gateways"]).toBe(1);
    expect(apply.kind).toBe(CONSUMER);
    expect(apply.parentSpanId).toBe(publish.spanId);
    const revision = change.attributes["atrium.change.revision"];
    expect(revision).toEqual(expect.any(Number));
    expect(publish.attributes["atrium.change.revision"]).toBe(revision);
    expect(apply.attributes).toMatchObject({ "atrium.change.revision": revision, "atrium.change.upserts": 1 });
  });

  it("leaves a change made outside any trace untraced on the gateway", async () => {
    const before = await collector.spans();
    const applied = before.filter((span) => span.name === "apply changes").length;
    // A write with no traceparent starts its own trace at the server span: still one trace.
    const moved = await stack.controlPlane.admin.call("PUT", `/api/v1/expositions/${stack.expositionId}`, {
      name: "fixture-again",
      configurationPlanId: stack.planId,
      gatewayGroupId: stack.groupId,
    });
    expect(moved.status).toBe(200);
    await waitFor(() => gateway.registry.byPath("default", "fixture-again") !== undefined, "the rename applied");
    const spans = await collector.waitForSpans(
      (found) => found.filter((span) => span.name === "apply changes").length > applied,
      20_000,
    );
    const apply = spans.filter((span) => span.name === "apply changes").at(-1);
    const server = spans.find((span) => span.traceId === apply?.traceId && span.kind === SERVER);
    expect(server?.name).toBe("PUT /api/v1/expositions/:id");
    expect(server?.parentSpanId).toBeUndefined();
  });
});
