/**
 * The control plane's REST API under load (issue 17): `GET /api/v1/expositions` of a large
 * organization and `POST /api/v1/configuration-plans` (a new name each time), each at 32
 * connections (autocannon), against a control plane running as a real process (replicas.ts) on
 * PostgreSQL and then on PGlite. Prints req/s, p50, p99, non-2xx answers and errors (target: none),
 * and the control plane's CPU per request and memory. The control plane runs on core 0, this
 * process (the load generator) on core 1.
 *
 * The organization listed: 200 Expositions (a plan each, on one Service) spread over 10 gateway
 * groups, with 20 live gateways, so every Exposition lists the endpoints of two — a large
 * organization: one Exposition per API and environment, for a hundred APIs in two environments.
 *
 *   node bench/control-plane/api-load.ts [--duration 10] [--connections 32] [--expositions 200]
 *     [--gateways 20] [--only postgres|pglite] [--quick]
 */
import { parseArgs } from "node:util";
import { type ApiClient, expose, registerGateway } from "@atrium/control-plane/testing";
import { autocannonLoad, type HttpTarget, type LoadResult } from "../gateway/load.ts";
import { CONTESTANT_CORE, cpuMicros, HARNESS_CORE, memoryMb, pinSelf } from "../gateway/processes.ts";
import { type Deployment, startDeployment } from "./replicas.ts";

const { values } = parseArgs({
  options: {
    duration: { type: "string" },
    connections: { type: "string", default: "32" },
    expositions: { type: "string" },
    gateways: { type: "string" },
    only: { type: "string" },
    quick: { type: "boolean", default: false },
  },
});
const seconds = Number(values.duration ?? (values.quick ? 2 : 10));
const connections = Number(values.connections);
const expositionCount = Number(values.expositions ?? (values.quick ? 20 : 200));
const gatewayCount = Number(values.gateways ?? (values.quick ? 4 : 20));
for (const [flag, value] of Object.entries({ seconds, connections, expositionCount, gatewayCount })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} must be a whole number from 1`);
}
const kinds = (values.only ? [values.only] : ["postgres", "pglite"]) as Deployment["kind"][];
if (kinds.some((kind) => kind !== "postgres" && kind !== "pglite")) throw new Error("--only is postgres or pglite");
const GROUPS = 10;
const WARMUP_SECONDS = Math.min(2, seconds);

const progress = (line: string) => process.stderr.write(`${line}\n`);

/** The organization: `expositionCount` Expositions over GROUPS groups, `gatewayCount` live gateways. */
async function setUp(deployment: Deployment): Promise<{ serviceId: string }> {
  const { admin } = deployment;
  progress(`  ${expositionCount} Expositions over ${GROUPS} gateway groups...`);
  const groupIds: number[] = [];
  let serviceId: string | undefined;
  for (let i = 0; i < expositionCount; i++) {
    const group = i % GROUPS;
    const exposed = await expose(admin, `api-${i}`, {
      serviceId,
      groupId: groupIds[group],
      labels: { environment: `env-${group}` },
    });
    serviceId = exposed.serviceId;
    groupIds[group] = exposed.groupId;
    if ((i + 1) % 50 === 0) progress(`    ${i + 1}/${expositionCount}`);
  }
  progress(`  ${gatewayCount} gateways registered...`);
  const token = await admin.call("POST", "/api/v1/api-tokens", { name: "api-load-gateways", validityDays: 1 });
  if (token.status !== 201) throw new Error(`API token: ${token.status} ${JSON.stringify(token.body)}`);
  const gatewayApi = admin.withToken(token.body.token);
  for (let i = 0; i < gatewayCount; i++) {
    await registerGateway(
      gatewayApi,
      { id: `gw-${i}`, instanceId: `api-load-instance-${i}` },
      {
        environment: `env-${i % GROUPS}`,
      },
    );
  }
  return { serviceId: serviceId as string };
}

interface Measured {
  endpoint: string;
  load: LoadResult;
  cpuMsPerRequest: number;
}

/** `target` at `connections` for `seconds`, with the control plane's CPU time around it. */
async function measure(deployment: Deployment, endpoint: string, target: HttpTarget): Promise<Measured> {
  const pid = (deployment.replicas[0] as Deployment["replicas"][number]).child.pid;
  progress(`  ${endpoint}: ${seconds} s at ${connections} connections...`);
  const cpuBefore = cpuMicros(pid);
  const load = await autocannonLoad(target, { connections, seconds });
  const cpuMsPerRequest = (cpuMicros(pid) - cpuBefore) / 1000 / Math.max(1, load.calls);
  return { endpoint, load, cpuMsPerRequest };
}

async function runOn(kind: Deployment["kind"]) {
  progress(`${kind}: starting the control plane...`);
  const deployment = await startDeployment(kind, CONTESTANT_CORE);
  try {
    const { serviceId } = await setUp(deployment);
    const admin: ApiClient = deployment.admin;
    const url = deployment.replicas[0]?.url as string;
    const headers = { authorization: `Bearer ${admin.token}` };
    const listed = await admin.call("GET", "/api/v1/expositions");
    const items = listed.body.items as { endpoints: string[] }[];
    if (listed.status !== 200 || items.length !== expositionCount) {
      throw new Error(`GET /expositions: ${listed.status}, ${items?.length} items instead of ${expositionCount}`);
    }
    const listBytes = Buffer.byteLength(JSON.stringify(listed.body));
    const list: HttpTarget = { url: `${url}/api/v1/expositions`, method: "GET", headers };
    progress(`  warm-up: ${WARMUP_SECONDS} s of GET /expositions`);
    await autocannonLoad(list, { connections, seconds: WARMUP_SECONDS });
    const get = await measure(deployment, "GET /expositions", list);

    let created = 0;
    const planBody = () =>
      JSON.stringify({
        name: `load-plan-${++created}`,
        serviceId,
        backendEndpoint: "https://petstore.example.com",
      });
    const postHeaders = { ...headers, "content-type": "application/json" };
    const post = await measure(deployment, "POST /configuration-plans", {
      url: `${url}/api/v1/configuration-plans`,
      method: "POST",
      headers: postHeaders,
      body: planBody(),
      // A new name for every request: each answer's arrival sets the connection's next body.
      setupClient: (client) => {
        client.setHeadersAndBody(postHeaders, planBody());
        client.on("headers", () => client.setHeadersAndBody(postHeaders, planBody()));
      },
    });
    const memory = memoryMb((deployment.replicas[0] as Deployment["replicas"][number]).child.pid);
    return { kind, listBytes, endpoints: items[0]?.endpoints.length ?? 0, results: [get, post], memory };
  } finally {
    await deployment.stop();
  }
}

pinSelf(HARNESS_CORE);
const runs = [];
for (const kind of kinds) runs.push(await runOn(kind));

console.log(
  `control-plane API under load (${connections} connections, ${seconds} s each; control plane on core ${CONTESTANT_CORE}, autocannon on core ${HARNESS_CORE})`,
);
let failures = 0;
for (const run of runs) {
  console.log(
    `${run.kind}: GET /expositions lists ${expositionCount} Expositions (${GROUPS} groups, ${gatewayCount} live gateways, ${run.endpoints} endpoints each), ${(run.listBytes / 1024).toFixed(0)} KB; RSS after ${run.memory.rss.toFixed(0)} MB (peak ${run.memory.peak.toFixed(0)} MB)`,
  );
  for (const { endpoint, load, cpuMsPerRequest } of run.results) {
    // Requests still unanswered when the run ends are neither errors nor timeouts to autocannon.
    const silent = load.calls === 0;
    failures += load.non2xx + load.errors + (silent ? 1 : 0);
    console.log(
      `  ${endpoint}: ${load.perSecond.toFixed(0)} req/s   p50 ${load.p50Ms.toFixed(1)} ms   p99 ${load.p99Ms.toFixed(1)} ms   ` +
        `non-2xx ${load.non2xx}   errors ${load.errors}   CPU ${cpuMsPerRequest.toFixed(2)} ms/request` +
        (silent ? "   (no answer within the run)" : ""),
    );
  }
}
console.log(`non-2xx answers and errors: ${failures} (target 0: ${failures === 0 ? "met" : "MISSED"})`);
