/**
 * Operator replicas on one Lease (in-process, distinct identities) against a real API server:
 * exactly one leads and only it reconciles; a leader that stops hands over at once; one that
 * crashes (keeps the Lease) is replaced after the lease expires. A sampler checks throughout
 * that two replicas never lead at the same time.
 */
import { CoordinationV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Operator, startOperator } from "./operator.ts";
import {
  createNamespace,
  getResource,
  isReady,
  OPERATOR_NAMESPACE,
  type OperatorTestEnv,
  startOperatorTestEnv,
  waitFor,
} from "./testing.ts";

const NS = "replicas";
let env: OperatorTestEnv;
const running = new Set<Operator>();
let mostLeadersAtOnce = 0;
let sampler: NodeJS.Timeout | undefined;

async function replica(identity: string): Promise<Operator> {
  const operator = await startOperator(env.operatorConfig({ identity }), { kubeConfig: env.kube.kubeConfig });
  running.add(operator);
  return operator;
}

async function stop(operator: Operator, release: boolean): Promise<void> {
  await operator.stop({ release });
  running.delete(operator);
}

function leaders(): Operator[] {
  return [...running].filter((operator) => operator.isLeader());
}

async function soleLeader(): Promise<Operator> {
  return waitFor("exactly one leader", async () => {
    const current = leaders();
    return current.length === 1 ? current[0] : undefined;
  });
}

async function createReadyGroup(name: string): Promise<void> {
  await env.objects.create({
    apiVersion: "atrium.dev/v1alpha1",
    kind: "GatewayGroup",
    metadata: { name, namespace: NS },
    spec: { labels: { replica: name } },
  });
  await waitFor(`GatewayGroup ${name} READY`, async () =>
    isReady(await getResource(env.custom, "GatewayGroup", NS, name)) ? true : undefined,
  );
}

async function metricsOf(operator: Operator): Promise<string> {
  const response = await fetch(`${operator.url}/q/metrics`);
  return response.text();
}

beforeAll(async () => {
  env = await startOperatorTestEnv();
  await createNamespace(env.core, NS);
  sampler = setInterval(() => {
    mostLeadersAtOnce = Math.max(mostLeadersAtOnce, leaders().length);
  }, 10);
});

afterAll(async () => {
  clearInterval(sampler);
  for (const operator of running) await operator.stop();
  await env?.stop();
});

describe("operator replicas on one Lease", () => {
  it("elect exactly one leader, and only the leader reconciles", async () => {
    const a = await replica("replica-a");
    const b = await replica("replica-b");
    const leader = await soleLeader();
    const follower = leader === a ? b : a;

    for (const name of ["g1", "g2", "g3"]) await createReadyGroup(name);
    expect(leader.reconcileCount()).toBeGreaterThan(0);
    expect(follower.reconcileCount()).toBe(0);

    const lease = await env.kube.kubeConfig
      .makeApiClient(CoordinationV1Api)
      .readNamespacedLease({ namespace: OPERATOR_NAMESPACE, name: "atrium-operator" });
    expect(lease.spec?.holderIdentity).toBe(leader.identity);

    expect(await metricsOf(leader)).toMatch(/^atrium_operator_leader 1$/m);
    expect(await metricsOf(leader)).toMatch(
      /^atrium_operator_reconciles_total\{kind="GatewayGroup",result="ready"\} \d+$/m,
    );
    expect(await metricsOf(follower)).toMatch(/^atrium_operator_leader 0$/m);
    expect(await metricsOf(follower)).toMatch(/^atrium_operator_queue_depth 0$/m);
    for (const operator of [leader, follower]) {
      const ready = await waitFor(`${operator.identity} ready`, async () => {
        const response = await fetch(`${operator.url}/q/health/ready`);
        return response.status === 200 ? response.json() : undefined;
      });
      expect(ready).toMatchObject({ status: "UP", checks: { cachesSynced: true, leader: operator === leader } });
      expect((await fetch(`${operator.url}/q/health/live`)).status).toBe(200);
    }
  });

  it("hands over at once when the leader stops", async () => {
    const leader = await soleLeader();
    const [other] = [...running].filter((operator) => operator !== leader);
    const before = other?.reconcileCount() ?? 0;
    const stoppedAt = Date.now();
    await stop(leader, true);
    const next = await soleLeader();
    expect(next).toBe(other);
    expect(Date.now() - stoppedAt).toBeLessThan(2_500);
    await createReadyGroup("g4");
    // On taking over, it queued everything it knew (g1..g3) besides the new group.
    expect(next.reconcileCount()).toBeGreaterThanOrEqual(before + 4);
  });

  it("takes over from a crashed leader once its lease expires", async () => {
    const crashing = await soleLeader();
    const standby = await replica("replica-c");
    // Let the standby observe the holder renewing before the crash.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(standby.isLeader()).toBe(false);
    const crashedAt = Date.now();
    await stop(crashing, false);
    const next = await soleLeader();
    expect(next).toBe(standby);
    // Lease of 3 s, measured from the last renewal the standby saw.
    expect(Date.now() - crashedAt).toBeGreaterThanOrEqual(2_000);
    await createReadyGroup("g5");
    expect(standby.reconcileCount()).toBeGreaterThan(0);
  });

  it("never had two leaders at once", () => {
    expect(mostLeadersAtOnce).toBe(1);
  });
});
