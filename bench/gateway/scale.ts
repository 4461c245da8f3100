/**
 * Scale checks of the gateway, run by run.ts after the hot path (or alone with `--only scale`):
 * - tools/list with N tools (5,000): an N-operation OpenAPI document imported through the
 *   control plane's REST API, a gateway serving it, then 200 sequential tools/list timed from
 *   the runner (target < 20 ms) — and the same answer from a bare server (static-json.ts), the
 *   floor for those bytes;
 * - M Expositions on one gateway (1,000): created through the REST API, sharing one service,
 *   plan and group; the gateway's RSS once they are all loaded (target < 300 MB), and its live
 *   heap from heap-probe.ts;
 * - sessions never cross: S concurrent 2025 sessions (spread over those Expositions) each call
 *   getPet for their own pet with the SAME JSON-RPC id (1); every answer must carry its own
 *   session's pet. The same check against @ivotoby/openapi-mcp-server, for comparison.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "@atrium/control-plane/testing";
import { Pool } from "undici";
import { type BenchContext, profilerArgs, startAtriumGateway, startIvotobyServer } from "./contestants.ts";
import { quantile } from "./load.ts";
import {
  ACCEPT,
  MODERN_VERSION,
  openLegacySession,
  petOf,
  postJson,
  StreamAnsweredSession,
  toolCallBody,
} from "./mcp.ts";
import { quiet } from "./outside-load.ts";
import {
  type Child,
  CONTESTANT_CORE,
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

export interface ExpositionsResult {
  expositions: number;
  createMs: number;
  gatewayReadyMs: number;
  rssMb: number;
  peakRssMb: number;
  heap: HeapProbe;
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

const modernListHeaders = {
  "content-type": "application/json",
  accept: ACCEPT,
  "mcp-protocol-version": MODERN_VERSION,
  "mcp-method": "tools/list",
};
const modernListBody = (id: number | "__ID__") =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });

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
      modernListHeaders,
      modernListBody,
      options,
    );
    gzipped = await timeSequentialPosts(
      context,
      `${gateway.url}/mcp/${expositionId}`,
      { ...modernListHeaders, "accept-encoding": "gzip" },
      modernListBody,
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
    floor = await timeSequentialPosts(context, `${url}/mcp`, modernListHeaders, modernListBody, options);
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

/** M Expositions on one gateway: its memory once loaded, then the sessions check against it. */
export async function manyExpositions(
  context: BenchContext,
  admin: ApiClient,
  options: Pick<ScaleOptions, "expositions" | "sessions" | "rounds">,
): Promise<{ expositions: ExpositionsResult; sessions: SessionsResult }> {
  const serviceId = await createService(admin, "pets-many", petsOpenApi());
  const plan = await createPlan(admin, { name: "pets-many", serviceId, backendUrl: context.backendUrl, apiKey: false });
  const groupId = await createGroup(admin, "scale-expositions");
  const createStarted = performance.now();
  const ids: string[] = [];
  // A few at a time: the control plane is on one core with the runner; this only bounds set-up time.
  const batch = 8;
  for (let start = 0; start < options.expositions; start += batch) {
    const names = Array.from({ length: Math.min(batch, options.expositions - start) }, (_, i) => `pets-${start + i}`);
    ids.push(...(await Promise.all(names.map((name) => createExposition(admin, name, plan.id, groupId)))));
  }
  const createMs = performance.now() - createStarted;

  const gateway = await startAtriumGateway(context, {
    id: "gw-scale-expositions",
    role: "scale-expositions",
    expectedExpositions: options.expositions,
    readyTimeoutMs: 180_000,
    nodeArgs: HEAP_PROBE,
  });
  try {
    // Let start-up garbage settle before reading memory.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const memory = memoryMb(gateway.child.pid);
    const heap = await probeHeap(gateway.child);
    const sessions = await sessionsNeverCross(
      "atrium (2025 sessions)",
      options,
      (i) => `${gateway.url}/mcp/${ids[i % ids.length]}`,
    );
    return {
      expositions: {
        expositions: options.expositions,
        createMs,
        gatewayReadyMs: gateway.readyMs,
        rssMb: memory.rss,
        peakRssMb: memory.peak,
        heap,
      },
      sessions,
    };
  } finally {
    await gateway.child.stop();
  }
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
