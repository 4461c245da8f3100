/**
 * The control plane's spans (issue 24), against a real OpenTelemetry Collector that this test
 * process exports to over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT, as in production), on PGlite
 * and on a real PostgreSQL: a REST request is one server span continuing the caller's
 * traceparent, named after its route template; the database calls it makes are client spans
 * under it, and the change it records is a `record change` span; no span carries a body value,
 * a query string's value, a password or a token; a request its client leaves before the answer
 * ends as aborted.
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { startTracing, type Tracing } from "@atrium/contract/telemetry";
import { type CollectedSpan, startCollector, type TestCollector } from "@atrium/test-collector";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  DATABASE_KINDS,
  startTestControlPlane,
  TEST_ADMIN,
  type TestControlPlane,
  type TestDatabase,
} from "./testing.ts";

let collector: TestCollector;
let traces: Tracing | undefined;
const saved = { ...process.env };

beforeAll(async () => {
  collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.otlpHttpEndpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
  traces = await startTracing(
    { name: "atrium-control-plane", version: "test" },
    () => import("@opentelemetry/sdk-node"),
  );
}, 300_000);

afterAll(async () => {
  await traces?.shutdown();
  await collector?.stop();
  process.env = saved;
});

const SERVER = 2;
const CLIENT = 3;

/** Every span of `traceId` once `until` holds for them. */
async function traceOf(traceId: string, until: (spans: CollectedSpan[]) => boolean): Promise<CollectedSpan[]> {
  const all = await collector.waitForSpans((found) => until(found.filter((span) => span.traceId === traceId)), 20_000);
  return all.filter((span) => span.traceId === traceId);
}

/** Whether `span` descends from `ancestor` within `spans`. */
function descendsFrom(span: CollectedSpan, ancestor: CollectedSpan, spans: CollectedSpan[]): boolean {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  for (let parent = span.parentSpanId; parent; parent = byId.get(parent)?.parentSpanId) {
    if (parent === ancestor.spanId) return true;
  }
  return false;
}

describe.each(DATABASE_KINDS)("the control plane's spans on %s", (kind) => {
  let database: TestDatabase | undefined;
  let controlPlane: TestControlPlane;

  beforeAll(async () => {
    if (kind === "postgres") database = await createTestDatabase();
    controlPlane = await startTestControlPlane(kind, { databaseUrl: database?.url });
  }, 120_000);
  afterAll(async () => {
    await controlPlane?.close();
    await database?.drop();
  });

  it("makes a server span per request, its database calls and its change under it, and no value", async () => {
    const traceId = randomBytes(16).toString("hex");
    const parent = randomBytes(8).toString("hex");
    const secretValue = `s3cr3t-${randomBytes(8).toString("hex")}`;
    const token = (await controlPlane.api.call("POST", "/api/v1/login", TEST_ADMIN)).body.token as string;
    const created = await request(`${controlPlane.url}/api/v1/secrets?note=query-value-${secretValue}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${parent}-01`,
      },
      body: JSON.stringify({ name: "backend-token", value: secretValue }),
    });
    expect([200, 201]).toContain(created.statusCode);
    const { id } = (await created.body.json()) as { id: string };
    // An update records a change (a plan may read the secret).
    const updated = await request(`${controlPlane.url}/api/v1/secrets/${id}`, {
      method: "PUT",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        traceparent: `00-${traceId}-${parent}-01`,
      },
      body: JSON.stringify({ value: `${secretValue}-2` }),
    });
    expect(updated.statusCode).toBe(200);
    await updated.body.dump();

    const spans = await traceOf(
      traceId,
      (found) =>
        found.filter((span) => span.kind === SERVER).length >= 2 &&
        found.some((span) => span.name.startsWith("record change")),
    );
    const post = spans.find((span) => span.kind === SERVER && span.name === "POST /api/v1/secrets");
    const put = spans.find((span) => span.kind === SERVER && span.name === "PUT /api/v1/secrets/:id");
    expect(post?.parentSpanId).toBe(parent);
    expect(put?.parentSpanId).toBe(parent);
    expect(post?.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/v1/secrets",
      "http.response.status_code": created.statusCode,
    });
    expect(post?.attributes["atrium.organization.id"]).toEqual(expect.any(String));
    expect(put?.attributes["http.response.status_code"]).toBe(200);

    const queries = spans.filter((span) => span.kind === CLIENT && span.attributes["db.system.name"] === "postgresql");
    if (!post || !put) throw new Error("no server spans");
    // Authentication reads the token, the route writes the row: both within the request's span.
    const ofPost = queries.filter((span) => descendsFrom(span, post, spans));
    expect(ofPost.map((span) => span.attributes["db.operation.name"])).toEqual(
      expect.arrayContaining(["SELECT", "INSERT"]),
    );
    expect(ofPost.some((span) => span.name === "INSERT secrets")).toBe(true);
    const change = spans.find((span) => span.name === "record change Secret");
    expect(change && descendsFrom(change, put, spans)).toBe(true);
    expect(change?.attributes["atrium.change.revision"]).toEqual(expect.any(Number));
    expect(queries.some((span) => change && span.name === "INSERT changes" && descendsFrom(span, change, spans))).toBe(
      true,
    );
    if (kind === "postgres") expect(queries.some((span) => span.name === "COMMIT")).toBe(true);

    // Never a value: not the secret, not the query string, not the token, not the admin's password.
    const text = JSON.stringify(spans, (_key, value) => (typeof value === "bigint" ? String(value) : value));
    for (const secret of [secretValue, "query-value", token, TEST_ADMIN.password]) expect(text).not.toContain(secret);
  });

  it("ends the span of a request whose client went away before the answer as aborted", async () => {
    const traceId = randomBytes(16).toString("hex");
    const { port } = new URL(controlPlane.url);
    // Headers promise a body that never comes; the client then goes away.
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /api/v1/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
        `content-length: 100\r\ntraceparent: 00-${traceId}-${randomBytes(8).toString("hex")}-01\r\n\r\n{"user`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const [span] = await traceOf(traceId, (found) => found.length > 0);
    expect(span?.name).toBe("POST /api/v1/login");
    expect(span?.attributes["error.type"]).toBe("aborted");
    expect(span?.status.code).toBe(2);
  });

  it("makes no span for database calls outside a traced operation", async () => {
    const before = (await collector.spans()).length;
    // The change hub polls every 2 s: a few polls, and no root database span.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    const after = await collector.spans();
    const roots = after.slice(before).filter((span) => !span.parentSpanId && span.kind === CLIENT);
    expect(roots).toEqual([]);
  });
});
