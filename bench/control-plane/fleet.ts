/**
 * A fleet of gateways on the control plane (issue 17): 1,000 simulated gateways in this process
 * (simulated-gateway.ts: the gateway's own registration and change-stream code, an API token
 * each) hold streams on control planes that run as real processes (replicas.ts) on a fresh
 * PostgreSQL database. Each configuration-plan change (a PUT through the first replica) is timed
 * from the request until every gateway has the `changes` event upserting its Exposition.
 *
 * Two phases: every gateway on one control plane, then the gateways split between two replicas
 * of the same database (the change still written through the first: the second's streams hear
 * of it through LISTEN/NOTIFY). Prints p50 / p99 / max of the deliveries against the 1 s p99
 * target, each replica's streams, CPU time and memory, and how long the fleet took to connect.
 * The control planes run on core 0, this process (the fleet) on core 1.
 *
 *   node bench/control-plane/fleet.ts [--gateways 1000] [--changes 20] [--expositions 10] [--quick]
 */
import { parseArgs } from "node:util";
import { type ApiClient, expose } from "@atrium/control-plane/testing";
import { quantile } from "../gateway/load.ts";
import { CONTESTANT_CORE, cpuMicros, HARNESS_CORE, memoryMb, pinSelf } from "../gateway/processes.ts";
import { type Replica, startDeployment } from "./replicas.ts";
import { SimulatedGateway } from "./simulated-gateway.ts";

const { values } = parseArgs({
  options: {
    gateways: { type: "string" },
    changes: { type: "string" },
    expositions: { type: "string" },
    quick: { type: "boolean", default: false },
  },
});
const gatewayCount = Number(values.gateways ?? (values.quick ? 20 : 1000));
const changeCount = Number(values.changes ?? (values.quick ? 3 : 20));
const expositionCount = Number(values.expositions ?? (values.quick ? 2 : 10));
for (const [flag, value] of Object.entries({ gatewayCount, changeCount, expositionCount })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} must be a whole number from 1`);
}
const TARGET_P99_MS = 1000;
/** Registrations and stream openings in flight at once while the fleet connects. */
const CONNECTING_AT_ONCE = 50;
/** A delivery not there after this long counts as missed. */
const DELIVERY_TIMEOUT_MS = 30_000;
const FLEET_LABELS = { fleet: "bench" };

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** Runs `work` for each item, `atOnce` at a time, calling `done` after each. */
async function eachLimited<T>(items: T[], atOnce: number, work: (item: T) => Promise<void>, done: () => void) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
      done();
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}

/** Logs a line each time another tenth of `total` is done. */
function counter(what: string, total: number): () => void {
  let count = 0;
  const started = performance.now();
  return () => {
    count += 1;
    if (count === total || count % Math.max(1, Math.ceil(total / 10)) === 0) {
      progress(`  ${what}: ${count}/${total} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  };
}

/** API tokens of the gateway role, one per gateway, as each gateway of a fleet would hold. */
async function createTokens(admin: ApiClient, count: number): Promise<string[]> {
  const tokens: string[] = new Array(count);
  const indexes = Array.from({ length: count }, (_, i) => i);
  await eachLimited(
    indexes,
    16,
    async (i) => {
      const created = await admin.call("POST", "/api/v1/api-tokens", { name: `fleet-gateway-${i}`, validityDays: 1 });
      if (created.status !== 201) throw new Error(`token ${i}: ${created.status} ${JSON.stringify(created.body)}`);
      tokens[i] = created.body.token;
    },
    counter("API tokens created", count),
  );
  return tokens;
}

interface PhaseResult {
  replicas: {
    replica: Replica;
    gateways: number;
    latencies: number[];
    /** CPU time while the fleet connected, and during the changes. */
    connectCpuSeconds: number;
    cpuSeconds: number;
    rssIdleMb: number;
    rssMb: number;
    peakMb: number;
  }[];
  latencies: number[];
  /** Per change, the time until the last gateway had it. */
  lastArrivals: number[];
  missed: number;
  connectSeconds: number;
  fleetRssMb: number;
}

/** The fleet connected to `replicas` (gateway i to replica i mod n), then the timed plan changes. */
async function runPhase(
  admin: ApiClient,
  replicas: Replica[],
  tokens: string[],
  plan: { id: string; body: Record<string, unknown>; expositionId: string },
): Promise<PhaseResult> {
  const rssIdle = replicas.map((replica) => memoryMb(replica.child.pid).rss);
  const gateways = tokens.map(
    (token, i) =>
      new SimulatedGateway((replicas[i % replicas.length] as Replica).url, token, `fleet-${i}`, FLEET_LABELS),
  );
  const cpuAtStart = replicas.map((replica) => cpuMicros(replica.child.pid));
  const connecting = performance.now();
  await eachLimited(
    gateways,
    CONNECTING_AT_ONCE,
    (gateway) => gateway.start(),
    counter("streams open", gateways.length),
  );
  const connectSeconds = (performance.now() - connecting) / 1000;

  const cpuBefore = replicas.map((replica) => cpuMicros(replica.child.pid));
  const latencies = new Map(gateways.map((gateway) => [gateway, [] as number[]]));
  const lastArrivals: number[] = [];
  let missed = 0;
  for (let change = 1; change <= changeCount; change++) {
    const arrivals = gateways.map((gateway) => gateway.nextChange(plan.expositionId, DELIVERY_TIMEOUT_MS));
    const started = performance.now();
    const body = { ...plan.body, backendEndpoint: `https://petstore.example.com/v${change}` };
    const updated = await admin.call("PUT", `/api/v1/configuration-plans/${plan.id}`, body);
    if (updated.status !== 200) throw new Error(`plan change refused: ${JSON.stringify(updated.body)}`);
    const arrived = await Promise.all(arrivals);
    let last = 0;
    arrived.forEach((at, i) => {
      if (at === undefined) missed += 1;
      else {
        latencies.get(gateways[i] as SimulatedGateway)?.push(at - started);
        last = Math.max(last, at - started);
      }
    });
    lastArrivals.push(last);
    progress(`  change ${change}/${changeCount}: all ${gateways.length} gateways in ${last.toFixed(0)} ms`);
  }
  const cpuAfter = replicas.map((replica) => cpuMicros(replica.child.pid));
  const memory = replicas.map((replica) => memoryMb(replica.child.pid));
  const fleetRssMb = process.memoryUsage().rss / 2 ** 20;
  const broken = gateways.filter((gateway) => gateway.failure);
  if (broken.length) progress(`  ${broken.length} streams ended early, first: ${broken[0]?.failure?.message}`);
  await eachLimited(
    gateways,
    CONNECTING_AT_ONCE,
    (gateway) => gateway.stop(),
    counter("deregistered", gateways.length),
  );

  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  return {
    replicas: replicas.map((replica, r) => {
      const own = gateways.filter((gateway) => gateway.controlPlaneUrl === replica.url);
      return {
        replica,
        gateways: own.length,
        latencies: sorted(own.flatMap((gateway) => latencies.get(gateway) ?? [])),
        connectCpuSeconds: ((cpuBefore[r] ?? 0) - (cpuAtStart[r] ?? 0)) / 1e6,
        cpuSeconds: ((cpuAfter[r] ?? 0) - (cpuBefore[r] ?? 0)) / 1e6,
        rssIdleMb: rssIdle[r] ?? Number.NaN,
        rssMb: memory[r]?.rss ?? Number.NaN,
        peakMb: memory[r]?.peak ?? Number.NaN,
      };
    }),
    latencies: sorted([...latencies.values()].flat()),
    lastArrivals: sorted(lastArrivals),
    missed,
    connectSeconds,
    fleetRssMb,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const figures = (latencies: number[]) =>
  `p50 ${ms(quantile(latencies, 0.5))}   p99 ${ms(quantile(latencies, 0.99))}   max ${ms(latencies.at(-1) ?? Number.NaN)}`;

function report(title: string, result: PhaseResult): void {
  const p99 = quantile(result.latencies, 0.99);
  console.log(title);
  console.log(
    `  connected in ${result.connectSeconds.toFixed(1)} s (registration + stream + snapshot, ${CONNECTING_AT_ONCE} at a time)`,
  );
  console.log(`  deliveries: ${result.latencies.length}, missed ${result.missed}`);
  console.log(`  ${figures(result.latencies)}`);
  console.log(`  every gateway had the change after: median ${ms(quantile(result.lastArrivals, 0.5))}`);
  console.log(
    `  p99 / target (${TARGET_P99_MS} ms) = ${(p99 / TARGET_P99_MS).toFixed(2)} ${p99 < TARGET_P99_MS && result.missed === 0 ? "(met)" : "(MISSED)"}`,
  );
  const totalCpu = result.replicas.reduce((sum, entry) => sum + entry.cpuSeconds, 0);
  for (const entry of result.replicas) {
    const share = totalCpu > 0 ? ` (${((entry.cpuSeconds / totalCpu) * 100).toFixed(0)} % of the CPU)` : "";
    console.log(
      `  ${entry.replica.name}: ${entry.gateways} streams; ${figures(entry.latencies)}; ` +
        `CPU ${entry.connectCpuSeconds.toFixed(1)} s while the fleet connected, ${entry.cpuSeconds.toFixed(2)} s during the changes${share}; ` +
        `RSS ${entry.rssIdleMb.toFixed(0)} MB before the fleet, ${entry.rssMb.toFixed(0)} MB with it (peak ${entry.peakMb.toFixed(0)} MB)`,
    );
  }
  console.log(`  the fleet's own process: RSS ${result.fleetRssMb.toFixed(0)} MB`);
}

pinSelf(HARNESS_CORE);
const deployment = await startDeployment("postgres", CONTESTANT_CORE);
try {
  const { admin } = deployment;
  progress(`setting up ${expositionCount} Expositions selecting every gateway...`);
  const first = await expose(admin, "fleet-0", { labels: FLEET_LABELS });
  for (let i = 1; i < expositionCount; i++) {
    await expose(admin, `fleet-${i}`, { serviceId: first.serviceId, groupId: first.groupId });
  }
  const plan = {
    id: first.planId,
    expositionId: first.expositionId,
    body: { name: "fleet-0", serviceId: first.serviceId, backendEndpoint: "https://petstore.example.com" },
  };
  progress(`creating ${gatewayCount} API tokens...`);
  const tokens = await createTokens(admin, gatewayCount);

  progress(`one control plane: ${gatewayCount} gateways, ${changeCount} plan changes...`);
  const one = await runPhase(admin, deployment.replicas, tokens, plan);
  progress("starting a second replica on the same database...");
  await deployment.addReplica(CONTESTANT_CORE);
  progress(`two replicas: ${gatewayCount} gateways split between them, ${changeCount} plan changes...`);
  const two = await runPhase(admin, deployment.replicas, tokens, plan);

  console.log(
    `control-plane fleet (PostgreSQL, ${gatewayCount} gateways, ${expositionCount} Expositions each, ${changeCount} plan changes; control planes on core ${CONTESTANT_CORE}, the fleet on core ${HARNESS_CORE})`,
  );
  report("one control plane", one);
  report("two replicas (changes written through control-plane-1)", two);
} finally {
  await deployment.stop();
}
