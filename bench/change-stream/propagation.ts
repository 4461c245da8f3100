/**
 * Change-stream propagation benchmark: 100 gateways hold streams on a control plane backed by
 * the machine's PostgreSQL; each write (an API-key renewal) is timed from the request until
 * every stream has the event. Prints p50 / p99 / max and the ratio to the 200 ms p99 target.
 *
 *   node bench/change-stream/propagation.ts [--streams 100] [--writes 50] [--pglite]
 */
import { parseArgs } from "node:util";
import {
  createTestDatabase,
  expose,
  openChangeStream,
  registerGateway,
  startTestControlPlane,
  tokenClient,
} from "@atrium/control-plane/testing";

const { values } = parseArgs({
  options: {
    streams: { type: "string", default: "100" },
    writes: { type: "string", default: "50" },
    pglite: { type: "boolean", default: false },
  },
});
const streamCount = Number(values.streams);
const writeCount = Number(values.writes);
const TARGET_P99_MS = 200;

const database = values.pglite ? undefined : await createTestDatabase();
const cp = await startTestControlPlane(values.pglite ? "pglite" : "postgres", { databaseUrl: database?.url });
try {
  const admin = cp.admin;
  // The Pet Store behind an API key, exposed on a group selecting every gateway.
  const { planId } = await expose(admin, "pets", { plan: { apiKey: true } });
  const gatewayApi = await tokenClient(cp, "bench");
  const token = gatewayApi.token as string;

  process.stderr.write(`opening ${streamCount} streams on ${cp.database.kind}...\n`);
  const streams = await Promise.all(
    Array.from({ length: streamCount }, async (_, i) => {
      const gateway = { id: `gw-${i}`, instanceId: `bench-instance-${i}` };
      await registerGateway(gatewayApi, gateway, {});
      const stream = await openChangeStream(cp.url, token, gateway);
      await stream.next("snapshot", 30_000);
      return stream;
    }),
  );

  process.stderr.write(`timing ${writeCount} writes...\n`);
  const latencies: number[] = [];
  for (let i = 0; i < writeCount; i++) {
    const started = performance.now();
    const arrivals = streams.map((stream) => stream.next("changes", 10_000).then(() => performance.now() - started));
    const renewed = await admin.call("POST", `/api/v1/configuration-plans/${planId}/renew-api-key`);
    if (renewed.status !== 200) throw new Error(`write failed: ${JSON.stringify(renewed.body)}`);
    latencies.push(...(await Promise.all(arrivals)));
  }
  for (const stream of streams) stream.close();

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  const p99 = at(0.99);
  console.log(
    `change-stream propagation (${cp.database.kind}, ${streamCount} streams, ${writeCount} writes, ${latencies.length} deliveries)`,
  );
  console.log(
    `  p50 ${at(0.5).toFixed(1)} ms   p99 ${p99.toFixed(1)} ms   max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
  );
  console.log(
    `  p99 / target (${TARGET_P99_MS} ms) = ${(p99 / TARGET_P99_MS).toFixed(2)} ${p99 < TARGET_P99_MS ? "(met)" : "(MISSED)"}`,
  );
} finally {
  await cp.close();
  await database?.drop();
}
