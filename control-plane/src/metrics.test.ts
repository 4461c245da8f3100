/**
 * The control plane's metrics on a real control plane (PGlite): scraped from the management
 * listener, moved by real requests, logins, imports and change streams; label values never carry
 * a raw path or id; the API port does not serve /q/metrics.
 */
import { randomUUID } from "node:crypto";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { startControlPlane } from "./app.ts";
import { configFromEnv } from "./config.ts";
import {
  openChangeStream,
  sampleOpenApi,
  startIsolatedControlPlane,
  TEST_ADMIN,
  testConfig,
  tokenClient,
  useDuringTests,
} from "./testing.ts";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (comments skipped). */
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });
}

/** The sum of the samples named `name` whose labels include `labels`. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, v]) => s.labels[key] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

const controlPlane = useDuringTests(
  () =>
    startIsolatedControlPlane("pglite", {
      managementPort: 0,
      streamHeartbeatSeconds: 1,
      loginMaxFailures: { perUser: 2, perAddress: 1_000 },
    }),
  (started) => started.stop(),
);

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const response = await request(`${controlPlane().managementUrl}/q/metrics`);
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.body.text();
  return { text, samples: parse(text) };
}

describe("control-plane metrics", () => {
  it("are served on the management listener, with health, and never on the API port", async () => {
    const { managementUrl, url } = controlPlane();
    expect(managementUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(managementUrl).not.toBe(url);
    const { text } = await scrape();
    for (const family of [
      "atrium_control_plane_http_requests_total",
      "atrium_control_plane_http_request_duration_seconds",
      "atrium_control_plane_change_streams_open",
      "atrium_control_plane_change_stream_events_total",
      "atrium_control_plane_gateways_live",
      "atrium_control_plane_login_failures_total",
      "atrium_control_plane_openapi_import_duration_seconds",
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    const ready = await request(`${managementUrl}/q/health/ready`);
    expect(ready.statusCode).toBe(200);
    await ready.body.dump();
    const onApi = await request(`${url}/q/metrics`);
    expect(onApi.statusCode).toBe(404);
    await onApi.body.dump();
  });

  it("count requests by method, route pattern and status class, never by raw path", async () => {
    const { admin, api } = controlPlane();
    const secretId = randomUUID();
    const before = (await scrape()).samples;
    for (let i = 0; i < 3; i++) expect((await admin.call("GET", "/api/v1/services")).status).toBe(200);
    expect((await admin.call("GET", `/api/v1/services/${secretId}`)).status).toBe(404);
    expect((await admin.call("GET", `/api/v1/no-such-collection/${secretId}`)).status).toBe(404);
    expect((await api.call("GET", "/api/v1/services")).status).toBe(401);
    expect((await admin.call("PROPFIND", `/api/v1/${secretId}`)).status).toBe(404);
    const { text, samples: after } = await scrape();
    const moved = (labels: Record<string, string>) =>
      value(after, "atrium_control_plane_http_requests_total", labels) -
      value(before, "atrium_control_plane_http_requests_total", labels);

    expect(moved({ method: "GET", route: "/api/v1/services", status: "2xx" })).toBe(3);
    expect(moved({ method: "GET", route: "/api/v1/services", status: "4xx" })).toBe(1); // the 401
    expect(moved({ method: "GET", route: "/api/v1/services/:id", status: "4xx" })).toBe(1);
    expect(moved({ route: "unmatched", status: "4xx" })).toBe(2);
    expect(moved({ method: "other", route: "unmatched" })).toBe(1); // PROPFIND
    const durations = (samples: Sample[]) =>
      value(samples, "atrium_control_plane_http_request_duration_seconds_count", { route: "/api/v1/services" });
    expect(durations(after) - durations(before)).toBe(4);

    // Closed label sets: the id never shows, routes are patterns, methods and statuses known words.
    expect(text).not.toContain(secretId);
    expect(text).not.toContain("PROPFIND");
    for (const sample of after.filter((s) => s.name.startsWith("atrium_control_plane_http_"))) {
      expect(sample.labels.route).toMatch(/^(unmatched|(\/[\w.-]+|\/:\w+)+)$/);
      expect(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"]).toContain(sample.labels.method);
      if (sample.labels.status !== undefined) expect(sample.labels.status).toMatch(/^([1-5]xx|aborted|other)$/);
    }
  });

  it("count failed logins by reason", async () => {
    const { api } = controlPlane();
    const before = (await scrape()).samples;
    const attempt = () => api.call("POST", "/api/v1/login", { ...TEST_ADMIN, username: "nobody", password: "wrong" });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(429); // two failures per user allowed here
    expect((await api.call("POST", "/api/v1/login", TEST_ADMIN)).status).toBe(200);
    const after = (await scrape()).samples;
    const moved = (reason: string) =>
      value(after, "atrium_control_plane_login_failures_total", { reason }) -
      value(before, "atrium_control_plane_login_failures_total", { reason });
    expect(moved("bad_credentials")).toBe(2);
    expect(moved("rate_limited")).toBe(1);
  });

  it("time OpenAPI imports by outcome: ok or the importer's error code", async () => {
    const { admin } = controlPlane();
    const before = (await scrape()).samples;
    const imported = await admin.call("POST", "/api/v1/services", {
      name: "metrics-petstore",
      version: "1",
      openapi: { inline: sampleOpenApi() },
    });
    expect(imported.status).toBe(201);
    const refused = await admin.call("POST", "/api/v1/services", {
      name: "metrics-broken",
      version: "1",
      openapi: { inline: "openapi: [unclosed" },
    });
    expect(refused.status).toBe(422);
    const code = String(refused.body.code);
    expect(code).toMatch(/^OPENAPI_/);
    const after = (await scrape()).samples;
    const moved = (outcome: string) =>
      value(after, "atrium_control_plane_openapi_import_duration_seconds_count", { outcome }) -
      value(before, "atrium_control_plane_openapi_import_duration_seconds_count", { outcome });
    expect(moved("ok")).toBe(1);
    expect(moved(code)).toBe(1);
    expect(moved("error")).toBe(0);
  });

  it("follow change streams: open, events sent by kind, live gateways", async () => {
    const started = controlPlane();
    const gateways = await tokenClient(started, "metrics-gateways");
    const gateway = { id: "gw-metrics", instanceId: `metrics-${randomUUID()}` };
    const registered = await gateways.call("POST", "/api/v1/gateways/register", {
      ...gateway,
      fqdns: ["gw-metrics.example.com"],
      labels: { region: "eu" },
    });
    expect(registered.status).toBe(200);
    const before = (await scrape()).samples;
    expect(value(before, "atrium_control_plane_gateways_live")).toBe(1);
    expect(value(before, "atrium_control_plane_change_streams_open")).toBe(0);

    const stream = await openChangeStream(started.url, String(gateways.token), gateway);
    try {
      await stream.next("snapshot");
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // a heartbeat (every second here)
      const during = (await scrape()).samples;
      expect(value(during, "atrium_control_plane_change_streams_open")).toBe(1);
      const sent = (event: string) =>
        value(during, "atrium_control_plane_change_stream_events_total", { event }) -
        value(before, "atrium_control_plane_change_stream_events_total", { event });
      expect(sent("snapshot")).toBe(1);
      expect(sent("heartbeat")).toBeGreaterThanOrEqual(1);
    } finally {
      stream.close();
    }
    const deadline = Date.now() + 5_000;
    while (value((await scrape()).samples, "atrium_control_plane_change_streams_open") !== 0) {
      if (Date.now() > deadline) throw new Error("the closed stream is still counted as open");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The stream counts as one request when it ends, under its route's pattern.
    const requests = value((await scrape()).samples, "atrium_control_plane_http_requests_total", {
      route: "/api/v1/gateways/:id/stream",
      status: "2xx",
    });
    expect(requests).toBe(1);
  });
});

describe("the management listener", () => {
  it("adds the process metrics when asked, and closes with the control plane", async () => {
    const started = await startControlPlane(testConfig({ managementPort: 0 }), { processMetrics: true });
    const managementUrl = String(started.managementUrl);
    try {
      const text = await (await request(`${managementUrl}/q/metrics`)).body.text();
      expect(text).toContain("# TYPE process_cpu_user_seconds_total counter");
      expect(text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
      expect(text).toContain("# TYPE atrium_control_plane_http_requests_total counter");
    } finally {
      await started.close();
    }
    await expect(request(`${managementUrl}/q/metrics`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("is off unless ATRIUM_MANAGEMENT_PORT is set, on loopback by default, never on the API port", () => {
    expect(configFromEnv({})).toMatchObject({ managementHost: "127.0.0.1", managementPort: undefined });
    expect(configFromEnv({ ATRIUM_MANAGEMENT_PORT: "9090", ATRIUM_MANAGEMENT_HOST: "0.0.0.0" })).toMatchObject({
      managementHost: "0.0.0.0",
      managementPort: 9090,
    });
    expect(() => configFromEnv({ ATRIUM_PORT: "9090", ATRIUM_MANAGEMENT_PORT: "9090" })).toThrow(
      /ATRIUM_MANAGEMENT_PORT must differ from ATRIUM_PORT/,
    );
    expect(() => configFromEnv({ ATRIUM_MANAGEMENT_PORT: "metrics" })).toThrow(/ATRIUM_MANAGEMENT_PORT/);
  });
});
