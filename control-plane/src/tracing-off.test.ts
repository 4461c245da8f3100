/**
 * Tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT, as in this test process): `startTracing`, as
 * main.ts calls it, and a control plane serving requests and recording changes load no
 * OpenTelemetry SDK (a module hook watches every import
 * from the start of this file), wraps none of its database's query functions, and sends change
 * events without a `traceparent`.
 */
import { registerHooks } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const loaded: string[] = [];
registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith("@opentelemetry/") && specifier !== "@opentelemetry/api") loaded.push(specifier);
    return next(specifier, context);
  },
});

const { selectRows, startTestControlPlane } = await import("./testing.ts");
const { startTracing, tracing } = await import("@atrium/contract/telemetry");
const { sql } = await import("drizzle-orm");
let controlPlane: Awaited<ReturnType<typeof startTestControlPlane>>;

beforeAll(async () => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  // What main.ts does first.
  await startTracing({ name: "atrium-control-plane", version: "test" }, () => import("@opentelemetry/sdk-node"));
  controlPlane = await startTestControlPlane("pglite");
});
afterAll(async () => {
  await controlPlane?.close();
});

describe("with tracing off", () => {
  it("loads no SDK, wraps no query function, and records changes without a trace", async () => {
    const created = await controlPlane.admin.call("POST", "/api/v1/secrets", { name: "off", value: "v-1" });
    expect(created.status).toBe(201);
    const updated = await controlPlane.admin.call("PUT", `/api/v1/secrets/${created.body.id}`, { value: "v-2" });
    expect(updated.status).toBe(200);

    expect(tracing()).toBeUndefined();
    expect(loaded).toEqual([]);
    const client = (controlPlane.database.db as unknown as { $client: object }).$client;
    for (const name of ["query", "exec", "transaction"]) expect(Object.hasOwn(client, name)).toBe(false);
    const traceparents = await selectRows<{ traceparent: string | null }>(
      controlPlane,
      sql`select traceparent from changes`,
    );
    expect(traceparents.length).toBeGreaterThan(0);
    expect(traceparents.every((row) => row.traceparent === null)).toBe(true);
  });
});
