/**
 * Fault: the change stream cut in the middle of a message. A TCP proxy on 127.0.0.1 sits between
 * a gateway and the control plane (heartbeat every second) and closes the stream part-way through
 * a message, alternately with a FIN and a reset:
 *
 * 1. mid-snapshot, three times in a row, on a gateway's first connection (no cache): the gateway
 *    serves nothing until a whole snapshot arrives, then everything, and waits longer before each
 *    retry (exponential backoff);
 * 2. mid-`changes`, repeatedly, while a writer updates a plan shared by two Expositions (one
 *    message upserts both: a half-applied message would leave them on different endpoints) and
 *    creates and deletes others, and clients of both MCP eras call a tool all along.
 *
 * Checked: the two Expositions never disagree, the gateway's revision never goes back, no tool
 * call fails, the gateway catches up with the control plane after every cut, and at the end
 * serves exactly the control plane's Expositions at its revision.
 */
import { type IsolatedControlPlane, selectRows, startIsolatedControlPlane } from "@atrium/control-plane/testing";
import type { Gateway } from "@atrium/gateway";
import { type FixtureBackend, startFixtureBackend, waitFor } from "@atrium/gateway/testing";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { type CuttingProxy, startCuttingProxy } from "./cutting-proxy.ts";
import { created, faultScene, fixtureServiceAndGroup } from "./scene.ts";
import { startSteadyCalls } from "./steady-calls.ts";

const SNAPSHOT_CUTS = 3;
const CHANGES_CUTS = 8;
/** Expositions present before the gateway starts: the snapshot is large enough to span several reads. */
const INITIAL_EXPOSITIONS = 20;

const scene = faultScene("stream-cut");
let controlPlane: IsolatedControlPlane;
let backend: FixtureBackend;
let proxy: CuttingProxy;
let gateway: Gateway | undefined;

beforeAll(async () => {
  controlPlane = scene.closing(await startIsolatedControlPlane("pglite", { streamHeartbeatSeconds: 1 }), (started) =>
    started.stop(),
  );
  backend = scene.closing(await startFixtureBackend(), (started) => started.close());
  proxy = scene.closing(await startCuttingProxy(Number(new URL(controlPlane.url).port)), (started) => started.close());
}, 120_000);

/** The control plane's newest revision, read from its database. */
async function controlPlaneRevision(): Promise<number> {
  const [row] = await selectRows<{ revision: number | null }>(
    controlPlane,
    sql`select max(revision)::int as revision from changes`,
  );
  return Number(row?.revision ?? 0);
}

/** The revision the gateway last applied; -1 before any. */
function gatewayRevision(): number {
  const configuration = gateway?.sync.details().configuration as { revision: number | null } | undefined;
  return configuration?.revision ?? -1;
}
const endpointOf = (id: string) => gateway?.registry.byId(id)?.exposition.plan.backendEndpoint;

describe("the change stream cut mid-message", () => {
  it("never applies half a message; the gateway reconnects with backoff and converges", async () => {
    const live = controlPlane;
    const cutter = proxy;
    const admin = live.admin;
    const { serviceId, groupId } = await fixtureServiceAndGroup(admin, "cut");
    const plan = (name: string, extra: Record<string, unknown> = {}) =>
      created(admin, "/api/v1/configuration-plans", {
        name,
        serviceId,
        backendEndpoint: `${backend.url}/api`,
        ...extra,
      });
    const expose = async (name: string, planId: string) =>
      (await created(admin, "/api/v1/expositions", { name, configurationPlanId: planId, gatewayGroupId: groupId }))
        .id as string;
    const stablePlan = await plan("stable", { apiKey: true, backendTimeoutMs: 5_000 });
    const stable = await expose("stable", stablePlan.id);
    const twinPlan = await plan("twin", { backendEndpoint: "http://127.0.0.1:9/v0" });
    const twins = [await expose("twin-a", twinPlan.id), await expose("twin-b", twinPlan.id)];
    const fillerPlan = await plan("filler", { backendEndpoint: "http://127.0.0.1:9/filler" });
    for (let index = 0; index < INITIAL_EXPOSITIONS; index++) await expose(`filler-${index}`, fillerPlan.id);
    const initialCount = INITIAL_EXPOSITIONS + 3;

    // What the gateway is seen serving, sampled all along: never half a message.
    const violations: string[] = [];
    let lastRevision = -1;
    let phase: "snapshot" | "changes" = "snapshot";
    const sampler = setInterval(() => {
      if (!gateway) return;
      const revision = gatewayRevision();
      if (revision < lastRevision) violations.push(`revision went back from ${lastRevision} to ${revision}`);
      lastRevision = revision;
      const size = gateway.registry.size;
      if (phase === "snapshot" && size !== 0 && size !== initialCount) {
        violations.push(`${size} Expositions served from a snapshot of ${initialCount}`);
      }
      const [a, b] = twins.map(endpointOf);
      if (a !== b) violations.push(`the twins disagree: ${a} and ${b} (revision ${revision})`);
    }, 10);

    try {
      // 1. Mid-snapshot: the first connections' snapshots are cut; nothing is served until one arrives whole.
      for (let cut = 0; cut < SNAPSHOT_CUTS; cut++) cutter.cutNext({ event: "snapshot", notOpening: false });
      const startedAt = Date.now();
      gateway = await scene.followingGateway(admin, "cut", cutter.url);
      const served = gateway;
      await waitFor(() => served.sync.ready, "a whole snapshot", 30_000);
      const snapshotMs = Date.now() - startedAt;
      expect(cutter.cuts.map((cut) => cut.event)).toEqual(Array(SNAPSHOT_CUTS).fill("snapshot"));
      expect(served.registry.size).toBe(initialCount);
      expect(gatewayRevision()).toBe(await controlPlaneRevision());
      // Backoff: each retry after a cut waits longer than the one before (0.5–1 s, 1–2 s, 2–4 s).
      const gaps = cutter.streamConnections
        .slice(1)
        .map((at, index) => at - (cutter.streamConnections[index] as number));
      expect(gaps).toHaveLength(SNAPSHOT_CUTS);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(450);
      expect(gaps[SNAPSHOT_CUTS - 1]).toBeGreaterThan(gaps[0] as number);

      // 2. Mid-changes, under writes and tool calls.
      phase = "changes";
      const steady = scene.closing(
        await startSteadyCalls(
          `${served.url}/mcp/${stable}`,
          { "x-atrium-key": stablePlan.apiKey },
          { name: "getPet", arguments: { petId: 1 } },
        ),
        (started) => started.stop(),
      );
      let writing = true;
      let version = 0;
      const writer = (async () => {
        let temporary: string | undefined;
        for (let round = 0; writing; round++) {
          version++;
          const updated = await admin.call("PUT", `/api/v1/configuration-plans/${twinPlan.id}`, {
            name: "twin",
            serviceId,
            backendEndpoint: `http://127.0.0.1:9/v${version}`,
          });
          if (updated.status !== 200) throw new Error(`plan update: ${JSON.stringify(updated.body)}`);
          if (temporary) await admin.call("DELETE", `/api/v1/expositions/${temporary}`);
          temporary = await expose(`temporary-${round}`, fillerPlan.id);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const catchUpMs: number[] = [];
      let converged = 0;
      try {
        for (let index = 0; index < CHANGES_CUTS; index++) {
          const before = cutter.cuts.length;
          cutter.cutNext({ event: "changes", notOpening: true });
          await waitFor(() => cutter.cuts.length > before, "a changes message to cut", 20_000);
          const cutAt = Date.now();
          const target = await controlPlaneRevision();
          await waitFor(() => gatewayRevision() >= target, `the gateway to catch up after cut ${index + 1}`, 20_000);
          converged++;
          catchUpMs.push(Date.now() - cutAt);
        }
      } finally {
        writing = false;
        await writer;
      }
      await steady.stop();
      const { ok, failures } = steady;

      // At rest: exactly the control plane's Expositions, at its revision.
      const finalRevision = await controlPlaneRevision();
      await waitFor(() => gatewayRevision() === finalRevision, "the gateway at the final revision", 20_000);
      const expected = await selectRows<{ id: string }>(
        live,
        sql`select id::text from expositions where gateway_group_id = ${groupId} order by id`,
      );
      const servedIds = served.registry
        .all()
        .map((exposition) => exposition.id)
        .sort();
      expect(servedIds).toEqual(expected.map((row) => row.id).sort());
      expect(twins.map(endpointOf)).toEqual(twins.map(() => `http://127.0.0.1:9/v${version}`));
      expect(violations, violations.join("\n")).toEqual([]);
      expect(failures, failures.join("\n")).toEqual([]);
      expect(cutter.cuts.filter((cut) => cut.event === "changes")).toHaveLength(CHANGES_CUTS);
      expect(cutter.cuts.every((cut) => cut.forwardedBytes > 0 && cut.forwardedBytes < cut.seenBytes)).toBe(true);

      const recorded = recordFigures("fault-change-stream-cut", {
        tried: cutter.cuts.length,
        unit: "cuts mid-message",
        lost: violations.length + failures.length,
        details: {
          "cuts mid-snapshot / mid-changes": `${SNAPSHOT_CUTS} / ${CHANGES_CUTS}`,
          "converged syncs": converged + 1,
          "first whole snapshot after (ms)": snapshotMs,
          "retry gaps after snapshot cuts (ms)": gaps.join(" / "),
          "caught up after a changes cut (ms, max)": Math.max(...catchUpMs),
          "tool calls during the cuts (failed: 0)": ok.session + ok.modern,
          "plan updates streamed": version,
        },
      });
      console.log(JSON.stringify(recorded));
    } finally {
      clearInterval(sampler);
    }
  }, 90_000);
});
