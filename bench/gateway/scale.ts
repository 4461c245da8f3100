/**
 * Scale checks of the gateway, run by run.ts after the hot path (or alone with `--only scale`):
 * - tools/list with N tools (5,000): an N-operation OpenAPI document imported through the
 *   control plane's REST API, a gateway serving it, then 200 sequential tools/list timed from
 *   the runner (target < 20 ms) — and the same answer from a bare server (static-json.ts), the
 *   floor for those bytes;
 * - M Expositions on one gateway (10,000): created through the REST API in one group (one of
 *   them the change probe, the others sharing one pets service and plan); a fresh gateway's start
 *   to ready with all of them (target < 3 s), its RSS once loaded (target < 600 MB) and live heap
 *   (heap-probe.ts), and how soon it serves a change of one Exposition after the control plane
 *   committed it (change-applied.ts, target < 100 ms). growth.ts runs the same at several sizes;
 * - sessions never cross: S concurrent 2025 sessions (spread over those Expositions) each call
 *   getPet for their own pet with the SAME JSON-RPC id (1); every answer must carry its own
 *   session's pet. The same check against @ivotoby/openapi-mcp-server, for comparison.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "@atrium/control-plane/testing";
import { Pool } from "undici";
import { type ChangeAppliedResult, type ChangeProbe, measureChangeApplied } from "./change-applied.ts";
import { type BenchContext, profilerArgs, startAtriumGateway, startIvotobyServer } from "./contestants.ts";
import { quantile } from "./load.ts";
import {
  ACCEPT,
  LIST_HEADERS,
  openLegacySession,
  petOf,
  postJson,
  StreamAnsweredSession,
  toolCallBody,
  toolsListBody,
} from "./mcp.ts";
import { quiet } from "./outside-load.ts";
import {
  type Child,
  CONTESTANT_CORE,
  cpuMicros,
  HARNESS_CORE,
  memoryMb,
  othersCpu,
  processTimes,
  startPinned,
} from "./processes.ts";
import { monotonicMicros, profileMarkdown, summarizeCpuProfile } from "./profile.ts";
import type { SequentialJob, SequentialResult } from "./sequential-client.ts";
import {
  createExposition,
  createGroup,
  createPlan,
  createService,
  manyOperationsOpenApi,
  operationIdOf,
  petsOpenApi,
} from "./setup.ts";

export interface ScaleOptions {
  /** Wait for other processes to leave the machine quiet before timing (outside-load.ts `quiet`). */
  waitForQuiet: boolean;
  tools: number;
  toolsListRequests: number;
  expositions: number;
  sessions: number;
  rounds: number;
  /** Exposition changes timed on the M-Exposition gateway (change-applied.ts). */
  changes: number;
}

/** What heap-probe.ts reports after a full GC. */
export interface HeapProbe {
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  newSpaceMb: number;
}

export interface ToolsListResult {
  tools: number;
  importMs: number;
  gatewayReadyMs: number;
  responseBytes: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** The same answer from a bare node:http server (static-json.ts): what the bytes alone cost. */
  floorP50Ms: number;
  floorP99Ms: number;
  /** Asking with `accept-encoding: gzip`, as fetch-based clients do: timed to the body decoded. */
  gzip: { responseBytes: number; p50Ms: number; p99Ms: number; othersBusy: number };
  /** Cores' worth of CPU other processes on the machine used while each was timed. */
  othersBusy: number;
  floorOthersBusy: number;
  rssMb: number;
  heap: HeapProbe;
  /** Where the gateway's CPU went while answering (profiled runs only). */
  profile?: string;
}

export interface ExpositionsResult extends GatewayAtScale {
  expositions: number;
  createMs: number;
}

export interface SessionsResult {
  server: string;
  sessions: number;
  rounds: number;
  calls: number;
  /** Answers carrying another session's pet. */
  crossed: number;
  /** Calls that got no answer or an error. */
  failed: number;
}

export interface ScaleResults {
  toolsList: ToolsListResult;
  expositions: ExpositionsResult;
  sessions: SessionsResult[];
}

/** Scale gateways answer SIGUSR2 with their heap after a full GC (heap-probe.ts); nothing else changes. */
const HEAP_PROBE = ["--expose-gc", "--import", join(import.meta.dirname, "heap-probe.ts")];

async function probeHeap(child: Child): Promise<HeapProbe> {
  process.kill(child.pid, "SIGUSR2");
  const match = await child.waitForOutput(/heap-probe (\{.*\})/, 10_000);
  return JSON.parse(match[1] ?? "{}") as HeapProbe;
}

export async function toolsListAtScale(
  context: BenchContext,
  admin: ApiClient,
  options: Pick<ScaleOptions, "tools" | "toolsListRequests" | "waitForQuiet">,
): Promise<ToolsListResult> {
  const document = manyOperationsOpenApi(options.tools);
  const importStarted = performance.now();
  const serviceId = await createService(admin, `ops-${options.tools}`, document);
  const importMs = performance.now() - importStarted;
  const plan = await createPlan(admin, {
    name: `ops-${options.tools}`,
    serviceId,
    backendUrl: context.backendUrl,
    apiKey: false,
  });
  const groupId = await createGroup(admin, "scale-tools");
  const expositionId = await createExposition(admin, `ops-${options.tools}`, plan.id, groupId);

  const profileDir = context.profileDir && join(context.profileDir, "gw-scale-tools");
  const gateway = await startAtriumGateway(context, {
    id: "gw-scale-tools",
    role: "scale-tools",
    expectedExpositions: 1,
    readyTimeoutMs: 120_000,
    nodeArgs: [...HEAP_PROBE, ...profilerArgs(profileDir)],
  });
  let timed: Awaited<ReturnType<typeof timeSequentialPosts>>;
  let gzipped: Awaited<ReturnType<typeof timeSequentialPosts>>;
  let rssMb: number;
  let heap: HeapProbe;
  const fromUs = monotonicMicros();
  try {
    timed = await timeSequentialPosts(
      context,
      `${gateway.url}/mcp/${expositionId}`,
      LIST_HEADERS,
      toolsListBody,
      options,
    );
    gzipped = await timeSequentialPosts(
      context,
      `${gateway.url}/mcp/${expositionId}`,
      { ...LIST_HEADERS, "accept-encoding": "gzip" },
      toolsListBody,
      { ...options, gzip: true },
    );
    rssMb = memoryMb(gateway.child.pid).rss;
    heap = await probeHeap(gateway.child);
  } finally {
    await gateway.child.stop();
  }
  const window = { fromUs, toUs: monotonicMicros() };
  const listed = (JSON.parse(timed.firstAnswer) as { result?: { tools?: unknown[] } }).result?.tools?.length;
  if (listed !== options.tools) throw new Error(`tools/list listed ${listed} tools, expected ${options.tools}`);

  // The floor: the same answer from a bare node:http server, same client, same core.
  const answerFile = join(context.scratchDir, "tools-list-answer.json");
  writeFileSync(answerFile, timed.firstAnswer);
  const floorServer = startPinned("static JSON server", CONTESTANT_CORE, [
    join(import.meta.dirname, "static-json.ts"),
    answerFile,
  ]);
  let floor: Awaited<ReturnType<typeof timeSequentialPosts>>;
  try {
    const url = (await floorServer.waitForOutput(/listening (http:\/\/\S+)/))[1] ?? "";
    floor = await timeSequentialPosts(context, `${url}/mcp`, LIST_HEADERS, toolsListBody, options);
  } finally {
    await floorServer.stop();
  }

  const profileFile = profileDir && readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
  return {
    tools: options.tools,
    importMs,
    gatewayReadyMs: gateway.readyMs,
    responseBytes: Buffer.byteLength(timed.firstAnswer),
    requests: timed.timings.length,
    p50Ms: quantile(timed.timings, 0.5),
    p99Ms: quantile(timed.timings, 0.99),
    floorP50Ms: quantile(floor.timings, 0.5),
    floorP99Ms: quantile(floor.timings, 0.99),
    gzip: {
      responseBytes: gzipped.wireBytes,
      p50Ms: quantile(gzipped.timings, 0.5),
      p99Ms: quantile(gzipped.timings, 0.99),
      othersBusy: gzipped.othersBusy,
    },
    othersBusy: timed.othersBusy,
    floorOthersBusy: floor.othersBusy,
    rssMb,
    heap,
    ...(profileDir && profileFile
      ? {
          profile: profileMarkdown(
            `gateway answering tools/list with ${options.tools} tools`,
            summarizeCpuProfile(join(profileDir, profileFile), [window]),
          ),
        }
      : {}),
  };
}

/**
 * `count` sequential POSTs on one connection, by sequential-client.ts in its own process on the
 * load core; one untimed first, whose answer is returned.
 */
async function timeSequentialPosts(
  context: BenchContext,
  url: string,
  headers: Record<string, string>,
  bodyOf: (id: number | "__ID__") => string,
  options: { toolsListRequests: number; waitForQuiet: boolean; gzip?: boolean },
): Promise<{ timings: number[]; firstAnswer: string; othersBusy: number; wireBytes: number }> {
  if (options.waitForQuiet) await quiet((message) => process.stderr.write(`[gateway bench] ${message}\n`));
  const name = `sequential-${options.gzip ? "gzip" : "plain"}-${Date.now()}`;
  const job: SequentialJob = {
    url,
    headers,
    bodyTemplate: bodyOf("__ID__"),
    count: options.toolsListRequests,
    gzip: options.gzip ?? false,
    answerFile: join(context.scratchDir, `${name}-answer.json`),
    resultFile: join(context.scratchDir, `${name}-result.json`),
  };
  const jobFile = join(context.scratchDir, `${name}.json`);
  writeFileSync(jobFile, JSON.stringify(job));
  const othersBefore = processTimes();
  const started = performance.now();
  const client = startPinned("tools/list client", HARNESS_CORE, [
    join(import.meta.dirname, "sequential-client.ts"),
    jobFile,
  ]);
  let othersBusy: number;
  try {
    await client.waitForOutput(/^done$/m, 600_000);
    // While the client still counts as one of ours.
    othersBusy = othersCpu(othersBefore, processTimes()).micros / ((performance.now() - started) * 1000);
  } finally {
    await client.stop();
  }
  const result = JSON.parse(readFileSync(job.resultFile, "utf8")) as SequentialResult;
  return { ...result, firstAnswer: readFileSync(job.answerFile, "utf8"), othersBusy };
}

/**
 * M Expositions in one gateway group, all created through the REST API: the change probe (a
 * two-operation service whose plan leaves one operation out, see change-applied.ts) and M − 1
 * pets Expositions sharing one plan. Grows on demand, so a growth run adds to what it has.
 */
export class ExpositionFleet {
  readonly ids: string[] = [];
  readonly role: string;
  readonly probe: ChangeProbe;
  private readonly admin: ApiClient;
  private readonly groupId: number;
  private readonly petsPlanId: string;

  private constructor(admin: ApiClient, group: { role: string; id: number }, petsPlanId: string, probe: ChangeProbe) {
    this.admin = admin;
    this.role = group.role;
    this.groupId = group.id;
    this.petsPlanId = petsPlanId;
    this.probe = probe;
  }

  static async create(context: BenchContext, admin: ApiClient, role: string): Promise<ExpositionFleet> {
    const groupId = await createGroup(admin, role);
    const petsServiceId = await createService(admin, `${role}-pets`, petsOpenApi());
    const petsPlan = await createPlan(admin, {
      name: `${role}-pets`,
      serviceId: petsServiceId,
      backendUrl: context.backendUrl,
      apiKey: false,
    });
    const probe = await createProbe(context, admin, `${role}-probe`, 2);
    const fleet = new ExpositionFleet(admin, { role, id: groupId }, petsPlan.id, probe);
    fleet.ids.push(await createExposition(admin, `${role}-probe`, probe.planId, groupId));
    return fleet;
  }

  /** The Exposition whose plan the change-applied check rewrites. */
  get probeId(): string {
    return this.ids[0] ?? "";
  }

  /** Adds pets Expositions until the group has `count`; returns how long that took (ms). */
  async growTo(count: number): Promise<number> {
    const started = performance.now();
    // A few at a time: the control plane is on one core with the runner; this only bounds set-up time.
    const batch = 8;
    while (this.ids.length < count) {
      const first = this.ids.length;
      const names = Array.from({ length: Math.min(batch, count - first) }, (_, i) => `${this.role}-pets-${first + i}`);
      this.ids.push(
        ...(await Promise.all(names.map((name) => createExposition(this.admin, name, this.petsPlanId, this.groupId)))),
      );
    }
    return performance.now() - started;
  }
}

/**
 * A service of `tools` generated operations (its import through the REST API timed) with a plan
 * leaving the last one out: the change probe of change-applied.ts. Its Exposition is the caller's.
 */
export async function createProbe(
  context: BenchContext,
  admin: ApiClient,
  name: string,
  tools: number,
): Promise<ChangeProbe & { importMs: number }> {
  const importStarted = performance.now();
  const serviceId = await createService(admin, name, manyOperationsOpenApi(tools));
  const importMs = performance.now() - importStarted;
  const operationId = operationIdOf(tools - 1);
  const plan = { name, serviceId, backendUrl: context.backendUrl, apiKey: false, excludedOperations: [operationId] };
  const { id: planId } = await createPlan(admin, plan);
  return { planId, plan, operationId, tool: operationId, importMs };
}

/** What a fresh gateway measures serving a configuration. */
export interface GatewayAtScale {
  /** From its process starting to serving every Exposition it should (the control plane already holds them). */
  readyMs: number;
  /** CPU time the gateway process used until then (user + system): what a busy machine does not inflate. */
  readyCpuMs: number;
  /** CPU time the control plane used meanwhile: registering the gateway, building and sending its snapshot. */
  controlPlaneCpuMs: number;
  /** One second after ready. */
  rssMb: number;
  peakRssMb: number;
  heap: HeapProbe;
  /** tools/list of the probe Exposition: sequential, one connection, ms. */
  toolsList: { p50Ms: number; p99Ms: number };
  change: ChangeAppliedResult;
}

/**
 * A fresh gateway on core 0 serving group `role` (`expositions` Expositions, the probe's among
 * them): start to ready, memory once settled, tools/list of the probe, the probe's changes applied;
 * then `alsoOn(url)` (more checks on the same gateway) before it stops.
 */
export async function measureGatewayAtScale<T = undefined>(
  context: BenchContext,
  admin: ApiClient,
  options: {
    id: string;
    role: string;
    expositions: number;
    probe: ChangeProbe & { expositionId: string };
    changes: number;
    toolsListRequests: number;
    waitForQuiet: boolean;
  },
  alsoOn?: (url: string) => Promise<T>,
): Promise<GatewayAtScale & { also: T | undefined }> {
  const controlPlaneBefore = cpuMicros(context.controlPlanePid);
  const gateway = await startAtriumGateway(context, {
    id: options.id,
    role: options.role,
    expectedExpositions: options.expositions,
    readyTimeoutMs: 300_000,
    nodeArgs: HEAP_PROBE,
  });
  try {
    const readyCpuMs = cpuMicros(gateway.child.pid) / 1000;
    const controlPlaneCpuMs = (cpuMicros(context.controlPlanePid) - controlPlaneBefore) / 1000;
    // Let start-up garbage settle before reading memory.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const memory = memoryMb(gateway.child.pid);
    const heap = await probeHeap(gateway.child);
    const url = `${gateway.url}/mcp/${options.probe.expositionId}`;
    const listed = await timeSequentialPosts(context, url, LIST_HEADERS, toolsListBody, options);
    const change = await measureChangeApplied(
      context,
      admin,
      options.probe,
      { url, gatewayPid: gateway.child.pid },
      options.changes,
    );
    return {
      readyMs: gateway.readyMs,
      readyCpuMs,
      controlPlaneCpuMs,
      rssMb: memory.rss,
      peakRssMb: memory.peak,
      heap,
      toolsList: { p50Ms: quantile(listed.timings, 0.5), p99Ms: quantile(listed.timings, 0.99) },
      change,
      also: alsoOn ? await alsoOn(gateway.url) : undefined,
    };
  } finally {
    await gateway.child.stop();
  }
}

/** M Expositions on one gateway: its start, memory and a change applied, then the sessions check against it. */
export async function manyExpositions(
  context: BenchContext,
  admin: ApiClient,
  options: Pick<ScaleOptions, "expositions" | "sessions" | "rounds" | "changes" | "toolsListRequests" | "waitForQuiet">,
): Promise<{ expositions: ExpositionsResult; sessions: SessionsResult }> {
  const fleet = await ExpositionFleet.create(context, admin, "scale-expositions");
  const createMs = await fleet.growTo(options.expositions);
  const measured = await measureGatewayAtScale(
    context,
    admin,
    {
      ...options,
      id: "gw-scale-expositions",
      role: fleet.role,
      probe: { ...fleet.probe, expositionId: fleet.probeId },
    },
    (url) =>
      sessionsNeverCross("atrium (2025 sessions)", options, (i) => {
        // The pets Expositions only: the probe has no getPet.
        const pets = fleet.ids.slice(1);
        return `${url}/mcp/${pets[i % pets.length]}`;
      }),
  );
  const { also: sessions, ...gateway } = measured;
  if (!sessions) throw new Error("the sessions check did not run");
  return { expositions: { expositions: options.expositions, createMs, ...gateway }, sessions };
}

/**
 * S sessions, each asking R times, all at once, for its own pet 1000+i with JSON-RPC id 1 (`ask`
 * sends the call and returns the answer's JSON-RPC message); counts the answers carrying another
 * session's pet, and the calls that failed.
 */
async function askInRounds<S>(
  server: string,
  options: Pick<ScaleOptions, "sessions" | "rounds">,
  sessions: S[],
  ask: (session: S, petId: number) => Promise<unknown>,
): Promise<SessionsResult> {
  let crossed = 0;
  let failed = 0;
  for (let round = 0; round < options.rounds; round++) {
    await Promise.all(
      sessions.map(async (session, i) => {
        try {
          if (petOf(await ask(session, 1000 + i)).id !== 1000 + i) crossed += 1;
        } catch {
          failed += 1;
        }
      }),
    );
  }
  const { sessions: count, rounds } = options;
  return { server, sessions: count, rounds, calls: count * rounds, crossed, failed };
}

/** Legacy sessions on one server (`urlOf` a session's endpoint), never answered with another's pet. */
async function sessionsNeverCross(
  server: string,
  options: Pick<ScaleOptions, "sessions" | "rounds">,
  urlOf: (session: number) => string,
): Promise<SessionsResult> {
  const dispatcher = new Pool(new URL(urlOf(0)).origin, { connections: 64 });
  try {
    const sessions = await Promise.all(
      Array.from({ length: options.sessions }, async (_, i) => ({
        url: urlOf(i),
        ...(await openLegacySession(urlOf(i), {}, dispatcher)),
      })),
    );
    return await askInRounds(server, options, sessions, async (session, petId) => {
      const headers = {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-session-id": session.sessionId,
        "mcp-protocol-version": session.protocolVersion,
      };
      return (await postJson(session.url, headers, toolCallBody(1, petId), dispatcher)).json;
    });
  } finally {
    await dispatcher.close();
  }
}

/** The same check on @ivotoby/openapi-mcp-server: each session reads its answers on its own GET stream. */
export async function ivotobySessionsCheck(
  context: BenchContext,
  options: Pick<ScaleOptions, "sessions" | "rounds">,
): Promise<SessionsResult> {
  const { child, url, tool } = await startIvotobyServer(context, "@ivotoby/openapi-mcp-server (sessions)");
  const opened: StreamAnsweredSession[] = [];
  try {
    for (let i = 0; i < options.sessions; i++) opened.push(await StreamAnsweredSession.open(url, 2));
    return await askInRounds("@ivotoby/openapi-mcp-server", options, opened, (session, petId) =>
      session.call(1, toolCallBody(1, petId, tool), 2_000),
    );
  } finally {
    await Promise.all(opened.map((session) => session.close()));
    await child.stop();
  }
}
