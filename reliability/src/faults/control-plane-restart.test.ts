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
import { type ApiClient, createTestDatabase } from "@atrium/control-plane/testing";
import { type FixtureBackend, modernRequest, startFixtureBackend, waitFor } from "@atrium/gateway/testing";
import { request } from "undici";
import { beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { ADMIN, type ControlPlaneProcess, controlPlaneProcess } from "./control-plane-process.ts";
import { created, faultScene, fixtureServiceAndGroup } from "./scene.ts";
import { startSteadyCalls } from "./steady-calls.ts";

const ROUNDS = 3;
const OUTAGE_MS = 1_000;

const scene = faultScene("cp-restart");
let controlPlane: ControlPlaneProcess;
let backend: FixtureBackend;

beforeAll(async () => {
  const database = scene.closing(await createTestDatabase(), (started) => started.drop());
  controlPlane = scene.closing(
    await controlPlaneProcess({
      databaseUrl: database.url,
      scratch: scene.scratch,
      env: { ATRIUM_STREAM_HEARTBEAT_SECONDS: "1" },
    }),
    (started) => started.kill(),
  );
  await controlPlane.start();
  backend = scene.closing(await startFixtureBackend(), (started) => started.close());
}, 120_000);

/** A plan of its own on the fixture Service, exposed on the group; the Exposition's id and the plan's key. */
async function exposeFixture(admin: ApiClient, name: string, serviceId: string, groupId: number) {
  const plan = await created(admin, "/api/v1/configuration-plans", {
    name,
    serviceId,
    backendEndpoint: `${backend.url}/api`,
    apiKey: true,
    backendTimeoutMs: 5_000,
  });
  const exposition = await created(admin, "/api/v1/expositions", {
    name,
    configurationPlanId: plan.id,
    gatewayGroupId: groupId,
  });
  return { expositionId: exposition.id as string, apiKey: plan.apiKey as string };
}

/** The gateway's readiness answer. */
async function readiness(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await request(`${url}/q/health/ready`);
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> };
}

describe("the control plane killed and restarted under steady gateway traffic", () => {
  it("fails no tool call, and the gateway resyncs after each restart", async () => {
    const live = controlPlane;
    const admin = await live.api.login(ADMIN);
    const { serviceId, groupId } = await fixtureServiceAndGroup(admin, "restart");
    const main = await exposeFixture(admin, "main", serviceId, groupId);

    const served = await scene.followingGateway(admin, "restart");
    await waitFor(() => served.sync.ready && served.registry.byId(main.expositionId) !== undefined, "first snapshot");
    const steady = scene.closing(
      await startSteadyCalls(
        `${served.url}/mcp/${main.expositionId}`,
        { "x-atrium-key": main.apiKey },
        { name: "getPet", arguments: { petId: 1 } },
      ),
      (started) => started.stop(),
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
      const added = await exposeFixture(admin, `after-restart-${round}`, serviceId, groupId);
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
