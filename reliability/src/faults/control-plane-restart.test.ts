/**
 * Fault: the control plane killed (SIGKILL) and restarted on the same port, three times, under
 * steady gateway traffic. The control plane is a real process on a database of its own (the
 * machine's PostgreSQL), heartbeat every second; the gateway runs in the test process, serving a
 * backend on 127.0.0.1; one official client per MCP era calls a tool in a loop the whole time.
 *
 * Checked: no tool call fails during the whole run; while the control plane is down the gateway
 * stays ready, and its readiness says the configuration is stale and why (`unreachable`); after
 * each restart it resyncs by itself, and an Exposition created after the restart reaches it and
 * serves a tool call.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiClient, createTestDatabase, type TestDatabase } from "@atrium/control-plane/testing";
import { type Gateway, startGateway } from "@atrium/gateway";
import {
  FIXTURE_OPENAPI,
  type FixtureBackend,
  modernRequest,
  startFixtureBackend,
  testGatewayConfig,
  waitFor,
} from "@atrium/gateway/testing";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { ADMIN, type ControlPlaneProcess, controlPlaneProcess } from "./control-plane-process.ts";
import { type SteadyCalls, startSteadyCalls } from "./steady-calls.ts";

const ROUNDS = 3;
const OUTAGE_MS = 1_000;

const scratch = mkdtempSync(join(tmpdir(), "atrium-cp-restart-"));
let database: TestDatabase | undefined;
let controlPlane: ControlPlaneProcess | undefined;
let backend: FixtureBackend | undefined;
let gateway: Gateway | undefined;
let steady: SteadyCalls | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  controlPlane = await controlPlaneProcess({
    databaseUrl: database.url,
    scratch,
    env: { ATRIUM_STREAM_HEARTBEAT_SECONDS: "1" },
  });
  await controlPlane.start();
  backend = await startFixtureBackend();
}, 120_000);

afterAll(async () => {
  await steady?.stop().catch(() => undefined);
  await gateway?.close().catch(() => undefined);
  await controlPlane?.kill();
  await backend?.close();
  await database?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

/** A plan of its own on the fixture Service, exposed on the group; the Exposition's id and the plan's key. */
async function exposeFixture(admin: ApiClient, name: string, serviceId: string, groupId: number) {
  const plan = await admin.call("POST", "/api/v1/configuration-plans", {
    name,
    serviceId,
    backendEndpoint: `${backend?.url}/api`,
    apiKey: true,
    backendTimeoutMs: 5_000,
  });
  expect(plan.status).toBe(201);
  const exposition = await admin.call("POST", "/api/v1/expositions", {
    name,
    configurationPlanId: plan.body.id,
    gatewayGroupId: groupId,
  });
  expect(exposition.status).toBe(201);
  return { expositionId: exposition.body.id as string, apiKey: plan.body.apiKey as string };
}

/** The gateway's readiness answer. */
async function readiness(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await request(`${url}/q/health/ready`);
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
}

describe("the control plane killed and restarted under steady gateway traffic", () => {
  it("fails no tool call, and the gateway resyncs after each restart", async () => {
    const live = controlPlane as ControlPlaneProcess;
    const admin = await live.api.login(ADMIN);
    const service = await admin.call("POST", "/api/v1/services", {
      name: "fixture",
      version: "1",
      openapi: { inline: FIXTURE_OPENAPI },
    });
    expect(service.status).toBe(201);
    const group = await admin.call("POST", "/api/v1/gateway-groups", { name: "restart", labels: { env: "restart" } });
    const main = await exposeFixture(admin, "main", service.body.id, group.body.id);
    const token = (await admin.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 })).body.token;

    gateway = await startGateway(
      testGatewayConfig({
        controlPlaneUrl: live.url,
        controlPlaneToken: token,
        id: "gw-restart",
        labels: { env: "restart" },
        cacheDir: join(scratch, "gateway-cache"),
      }),
    );
    const served = gateway;
    await waitFor(() => served.sync.ready && served.registry.byId(main.expositionId) !== undefined, "first snapshot");
    steady = await startSteadyCalls(
      `${served.url}/mcp/${main.expositionId}`,
      { "x-atrium-key": main.apiKey },
      { name: "getPet", arguments: { petId: 1 } },
    );

    const rounds: { staleDuringOutage: number; resyncMs: number; changeMs: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const callsBefore = steady.ok.session + steady.ok.modern;
      await live.kill();
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      // Down: the gateway still serves (ready), says the configuration is stale and why.
      const during = await readiness(served.url);
      expect(during.status).toBe(200);
      const configuration = during.body.configuration as { stalenessSeconds: number; lastProblem?: string };
      expect(configuration.lastProblem).toBe("unreachable");
      expect(configuration.stalenessSeconds).toBeGreaterThanOrEqual(1);
      // Nothing has confirmed the configuration since before the kill.
      expect(served.sync.stalenessSeconds()).toBeGreaterThanOrEqual(OUTAGE_MS / 1000);

      await live.start();
      const restartedAt = Date.now();
      await waitFor(() => served.sync.lastFailure === undefined, "the gateway to resync", 30_000);
      const resyncMs = Date.now() - restartedAt;
      expect(served.sync.stalenessSeconds()).toBeLessThan(3);
      const after = await readiness(served.url);
      expect(after.body.configuration).not.toHaveProperty("lastProblem");

      // A change made after the restart reaches the gateway and serves.
      const changedAt = Date.now();
      const added = await exposeFixture(admin, `after-restart-${round}`, service.body.id, group.body.id);
      await waitFor(() => served.registry.byId(added.expositionId) !== undefined, "the new Exposition", 20_000);
      const changeMs = Date.now() - changedAt;
      const call = await request(
        `${served.url}/mcp/${added.expositionId}`,
        modernRequest(
          "tools/call",
          { name: "getPet", arguments: { petId: 2 } },
          { headers: { "x-atrium-key": added.apiKey } },
        ),
      );
      expect(call.statusCode).toBe(200);
      expect(JSON.stringify(await call.body.json())).toContain("Tom");
      expect(steady.ok.session + steady.ok.modern).toBeGreaterThan(callsBefore);
      rounds.push({ staleDuringOutage: configuration.stalenessSeconds, resyncMs, changeMs });
    }
    await steady.stop();
    const { ok, failures } = steady;
    steady = undefined;
    expect(failures, failures.join("\n")).toEqual([]);
    expect(ok.session).toBeGreaterThan(0);
    expect(ok.modern).toBeGreaterThan(0);

    const recorded = recordFigures("fault-control-plane-restart", {
      tried: ok.session + ok.modern + failures.length,
      unit: "tool calls",
      lost: failures.length,
      details: {
        "control-plane kills (SIGKILL) and restarts": ROUNDS,
        "calls, 2025 session / 2026-07-28": `${ok.session} / ${ok.modern}`,
        "resynced after restart (ms, each round)": rounds.map((r) => r.resyncMs).join(" / "),
        "new Exposition served after (ms, each round)": rounds.map((r) => r.changeMs).join(" / "),
        "staleness shown during the outage (s)": rounds.map((r) => r.staleDuringOutage).join(" / "),
      },
    });
    console.log(JSON.stringify(recorded));
  }, 90_000);
});
