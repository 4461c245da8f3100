/**
 * The gateway's hot-path benchmark ("faster than every peer"), in one run on a 2-core machine:
 * each contestant — the backend called directly, a bare fastify + undici pass-through, the
 * Atrium gateway (no auth, API key), @ivotoby/openapi-mcp-server and a server on the official
 * SDK — serves getPet → `GET /pets/{id}` as its own child process pinned to core 0, while the
 * backend, the control plane and the load generator (autocannon, in this process) run on
 * core 1. Measured per contestant (hot-path.ts): req/s at 32 connections, p50/p99 at 1
 * connection, CPU µs per call (/proc/<pid>/stat), core busy shares, RSS — in rounds that
 * interleave the contestants. Then the scale checks (scale.ts): tools/list with 5,000 tools,
 * RSS with 1,000 Expositions, sessions with colliding JSON-RPC ids never crossing.
 *
 * Prints the table and the ratios to the targets; a complete plain run (no --quick, --only,
 * --profile or --gateway-node-args) also writes bench/results/gateway-<date>.md and the
 * generated block of docs/performance.md.
 *
 *   node bench/gateway/run.ts [--duration 10] [--rounds 3] [--connections 32] [--warmup 2]
 *                             [--only hot|scale] [--quick] [--profile] [--no-write]
 *                             [--gateway-node-args="--max-semi-space-size=16"]
 *
 * --duration: seconds of each throughput run (one per contestant per round); each round also
 *   runs every contestant at 1 connection for half of that.
 * --quick (CI smoke, under a minute): one round of 2 s (1 s at 1 connection), 200 tools,
 *   50 Expositions, 20 sessions; writes nothing.
 * --profile: the Atrium and pass-through contestants run under `node --cpu-prof`; the report
 *   adds where their CPU went during the throughput runs (profile.ts). Their numbers then
 *   include the profiler's overhead: take the table from a run without it.
 * --gateway-node-args: extra node flags for every Atrium gateway, for what-if runs (never written).
 * Exits 1 when a contestant or check could not run (not when a target is missed).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ApiClient } from "@atrium/control-plane/testing";
import {
  atrium,
  type BenchContext,
  type Contestant,
  direct,
  ivotoby,
  officialSdk,
  passThrough,
} from "./contestants.ts";
import { measureHotPath } from "./hot-path.ts";
import { HARNESS_CORE, pinSelf, REPO_ROOT, startPinned, stopAll } from "./processes.ts";
import { type ContestantResult, fullReport, type RunSettings, updateDoc } from "./report.ts";
import {
  ivotobySessionsCheck,
  manyExpositions,
  type ScaleOptions,
  type ScaleResults,
  toolsListAtScale,
} from "./scale.ts";
import {
  createExposition,
  createGatewayToken,
  createGroup,
  createPlan,
  createService,
  login,
  petsOpenApi,
} from "./setup.ts";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    "gateway-node-args": { type: "string", default: "" },
    "no-write": { type: "boolean", default: false },
  },
});
const quick = values.quick;
const gatewayNodeArgs = values["gateway-node-args"].split(" ").filter(Boolean);
const settings: RunSettings = {
  date: new Date().toISOString().slice(0, 10),
  rounds: quick ? 1 : Number(values.rounds),
  gatewayNodeArgs,
  seconds: quick ? 2 : Number(values.duration),
  latencySeconds: quick ? 1 : Number(values.duration) / 2,
  warmupSeconds: quick ? 0.5 : Number(values.warmup),
  connections: Number(values.connections),
  quick,
};
const scaleOptions: ScaleOptions = quick
  ? { waitForQuiet: false, tools: 200, toolsListRequests: 20, expositions: 50, sessions: 20, rounds: 2 }
  : { waitForQuiet: true, tools: 5_000, toolsListRequests: 200, expositions: 1_000, sessions: 200, rounds: 5 };
const runHot = values.only !== "scale";
const runScale = values.only !== "hot";
// Only a complete, plain run replaces the documented results: not a smoke, a part, a profiled
// run (the profiler slows what it watches) or a what-if with other node flags.
const write =
  !quick && !values["no-write"] && !values.profile && values.only === undefined && gatewayNodeArgs.length === 0;

const progress = (message: string) => process.stderr.write(`[gateway bench] ${message}\n`);
const listening = /listening (http:\/\/\S+)/;

const peers = new Set([ivotoby.name, officialSdk.name]);
function kindOf(contestant: Contestant): ContestantResult["kind"] {
  if (contestant === direct) return "direct";
  if (contestant === passThrough) return "pass-through";
  return peers.has(contestant.name) ? "peer" : "atrium";
}

async function hotPath(context: BenchContext, admin: ApiClient): Promise<ContestantResult[]> {
  const serviceId = await createService(admin, "pets", petsOpenApi());
  const endpoints = [];
  for (const [label, apiKey] of [
    ["open", false],
    ["keyed", true],
  ] as const) {
    const plan = await createPlan(admin, { name: `pets-${label}`, serviceId, backendUrl: context.backendUrl, apiKey });
    const role = `hot-${label}`;
    const groupId = await createGroup(admin, role);
    const id = await createExposition(admin, `pets-${label}`, plan.id, groupId);
    endpoints.push({ id, apiKey: plan.apiKey, role, gatewayId: `gw-hot-${label}` });
  }
  const [open, keyed] = endpoints as [(typeof endpoints)[0], (typeof endpoints)[0]];
  const contestants = [
    direct,
    passThrough,
    atrium("atrium (no auth)", open),
    atrium("atrium (API key)", keyed),
    ivotoby,
    officialSdk,
  ];
  return measureHotPath(
    contestants.map((contestant) => ({ contestant, kind: kindOf(contestant) })),
    context,
    settings,
    progress,
  );
}

async function scaleChecks(context: BenchContext, admin: ApiClient): Promise<ScaleResults> {
  progress(`scale: tools/list with ${scaleOptions.tools} tools`);
  const toolsList = await toolsListAtScale(context, admin, scaleOptions);
  progress(`scale: ${scaleOptions.expositions} Expositions and ${scaleOptions.sessions} sessions`);
  const many = await manyExpositions(context, admin, scaleOptions);
  progress("scale: the sessions check against @ivotoby/openapi-mcp-server");
  const peerSessions = await ivotobySessionsCheck(context, {
    sessions: Math.min(scaleOptions.sessions, 20),
    rounds: scaleOptions.rounds,
  });
  return { toolsList, expositions: many.expositions, sessions: [many.sessions, peerSessions] };
}

pinSelf(HARNESS_CORE);
const scratchDir = mkdtempSync(join(tmpdir(), "atrium-gateway-bench-"));
let failed = false;
try {
  const backend = startPinned("backend", HARNESS_CORE, [join(import.meta.dirname, "backend.ts")]);
  const controlPlane = startPinned("control plane", HARNESS_CORE, [join(import.meta.dirname, "control-plane.ts")]);
  const backendUrl = (await backend.waitForOutput(listening))[1] ?? "";
  const controlPlaneUrl = (await controlPlane.waitForOutput(listening, 60_000))[1] ?? "";
  const admin = await login(new ApiClient(controlPlaneUrl));
  const context: BenchContext = {
    backendUrl,
    controlPlaneUrl,
    gatewayToken: await createGatewayToken(admin),
    scratchDir,
    // Kept after the run (not in the scratch directory) so the profiles can be opened in a viewer.
    profileDir: values.profile ? mkdtempSync(join(tmpdir(), "atrium-gateway-profiles-")) : undefined,
    gatewayNodeArgs,
  };

  const results = runHot ? await hotPath(context, admin) : undefined;
  let scale: ScaleResults | undefined;
  if (runScale) {
    try {
      scale = await scaleChecks(context, admin);
    } catch (error) {
      failed = true;
      progress(`scale checks FAILED: ${(error as Error).stack}`);
    }
  }
  if (results?.some((r) => r.failure)) failed = true;

  const report = fullReport(results, scale, settings);
  console.log(report.markdown);
  console.log(`\n${report.missed} target(s) missed${failed ? "; some measurements FAILED (see above)" : ""}.`);
  if (write) {
    const resultsDir = join(REPO_ROOT, "bench", "results");
    mkdirSync(resultsDir, { recursive: true });
    const resultsFile = join(resultsDir, `gateway-${settings.date}.md`);
    writeFileSync(resultsFile, `# Gateway benchmark, ${settings.date}\n\n${report.markdown}\n`);
    updateDoc(join(REPO_ROOT, "docs", "performance.md"), report.markdown);
    progress(`wrote ${resultsFile} and docs/performance.md`);
  }
  if (context.profileDir) progress(`CPU profiles (open in Chrome DevTools or speedscope): ${context.profileDir}`);
} catch (error) {
  failed = true;
  progress(`FAILED: ${(error as Error).stack}`);
} finally {
  await stopAll();
  rmSync(scratchDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
