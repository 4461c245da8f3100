/**
 * The gateway benchmark's report: the hot-path table, the ratios against the targets and the
 * scale results, as markdown — printed, written to bench/results/gateway-<date>.md, and put
 * between the markers of docs/performance.md.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, release } from "node:os";
import type { AuthCostResult } from "./auth-cost.ts";
import type { AtriumAuth, AtriumEra, BackendProtocol, BackendToken } from "./contestants.ts";
import type { FirstCallResult } from "./first-call.ts";
import { type LoadResult, median } from "./load.ts";
import { REPO_ROOT } from "./processes.ts";
import type { ScaleResults } from "./scale.ts";

export const TARGETS = {
  /** Stateless atrium contestants (no auth, API key, OAuth) against the bare pass-through (issue 17). */
  throughputVsPassThrough: 0.95,
  cpuVsPassThrough: 1.1,
  /** The atrium GraphQL contestant against its own pass-through to the same GraphQL backend (issue 21). */
  graphqlThroughputVsPassThrough: 0.9,
  /** The atrium gRPC contestant against its own pass-through to the same gRPC backend (issue 21). */
  grpcThroughputVsPassThrough: 0.9,
  addedP50OverPassThroughMs: 0.2,
  /** The 2025 session era against the stateless era, both without client auth (issue 17). */
  sessionThroughputVsStateless: 0.85,
  /** Stateless atrium contestants against the official Go SDK server, the compiled-language anchor (issue 17). */
  throughputVsGoSdk: 1.0,
  toolsListMs: 20,
  expositionsRssMb: 600,
  expositionsReadyMs: 3_000,
  /** From the control plane's commit to the gateway serving the change, the slowest of the changes timed. */
  changeAppliedMs: 100,
  /** OAuth (one token, cached) against no auth, measured in the same run. */
  oauthThroughputVsNoAuth: 0.85,
  oauthCpuVsNoAuth: 1.15,
  /** Token exchange in its steady state (each caller's exchanged token cached) against OAuth alone, same run (issue 23). */
  exchangeThroughputVsOAuth: 0.9,
  /** Tracing on at 1 % sampling against tracing off (the SDK not loaded), same run (issue 24). */
  tracedThroughputVsOff: 0.95,
};

/** The sampling ratio held to TARGETS.tracedThroughputVsOff; others are reported for comparison. */
const TARGET_SAMPLING_RATIO = 0.01;

export interface ContestantResult {
  name: string;
  description: string;
  /** A peer is another MCP server; the anchor is the peer atrium must at least match (the official Go SDK server). */
  kind: "direct" | "pass-through" | "atrium" | "peer" | "anchor";
  /** Atrium contestants: how the endpoint authenticates clients. */
  auth?: AtriumAuth;
  /** Atrium contestants: stateless calls or 2025 sessions. */
  era?: AtriumEra;
  /** GraphQL contestants and their pass-through; absent for the REST ones. */
  protocol?: BackendProtocol;
  /** Atrium contestants whose plan exchanges the caller's token for the backend (held to the OAuth contestant). */
  backendToken?: BackendToken;
  /** Atrium contestants tracing: their sampling ratio (held to the same endpoint untraced). */
  tracingRatio?: number;
  /** Another process of the contestant so named (--replicas): folded into that one's tracing ratios. */
  replicaOf?: string;
  /** Set when it could not be measured; the other fields are then NaN. */
  failure?: string;
  /** Throughput over all rounds; `perSecond` is the median round's. */
  throughput: LoadResult | undefined;
  /** req/s of each round, in round order (rounds interleave the contestants). */
  roundsPerSecond: number[];
  latency: LoadResult | undefined;
  cpuMicrosPerCall: number;
  /** Busy share (0..1) of each core during the throughput run: the contestant's core should be the one at 100 %. */
  coresBusy: number[];
  /** Cores' worth of CPU used by processes outside the benchmark during its throughput runs (median round). */
  othersBusy: number;
  /** Runs repeated because other processes loaded the machine (see hot-path.ts). */
  repeatedRuns: number;
  /** Resident memory once started and checked, before any load. */
  idleRssMb: number;
  /** Resident memory right after the throughput run. */
  rssMb: number;
  /** Markdown summary of its CPU profile over the throughput run (profiled runs only). */
  profile?: string;
}

export interface RunSettings {
  date: string;
  /** Extra node flags the Atrium gateways ran with (what-if runs). */
  gatewayNodeArgs: string[];
  rounds: number;
  seconds: number;
  latencySeconds: number;
  warmupSeconds: number;
  connections: number;
  quick: boolean;
  /** Tries of a hot-path run disturbed by other processes (UNDISTURBED_ATTEMPTS when unset). */
  attempts?: number;
}

export const fixed = (value: number | undefined, digits: number) =>
  value === undefined || !Number.isFinite(value) ? "n/a" : value.toFixed(digits);
export const thousands = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? "n/a" : Math.round(value).toLocaleString("en-US");

/** The commit measured, and whether the gateway or control plane had uncommitted changes. */
export function revision(): string {
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    const dirty = git("status", "--porcelain", "--", "gateway", "control-plane", "crds") !== "";
    return `commit ${git("rev-parse", "--short", "HEAD")}${dirty ? " with uncommitted changes in gateway/, control-plane/ or crds/" : ""}`;
  } catch {
    return "an unknown commit";
  }
}

export function machine(): string {
  const cores = cpus();
  return `${cores.length} cores (${cores[0]?.model.trim() ?? "unknown CPU"}), Linux ${release()}, Node ${process.version}`;
}

/** Core 1 (load generator + backend) this busy means the harness, not the contestant, may have set the pace. */
const HARNESS_BOUND_BUSY = 0.9;

export function hotPathTable(results: ContestantResult[], settings: RunSettings): string {
  const direct = results.find((r) => r.kind === "direct")?.latency?.p50Ms;
  const header = [
    `| contestant | req/s (${settings.connections} conn), median round (min–max) | p50 ms (1 conn) | p99 ms (1 conn) | added p50 vs direct (ms) | CPU µs/call | core 0 / core 1 busy (other processes) | RSS MB idle / loaded | non-2xx | errors |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  const rows = results.map((r) => {
    if (r.failure) return `| ${r.name} | failed: ${r.failure.split("\n")[0]?.slice(0, 200)} | | | | | | | | |`;
    const added = r.kind === "direct" || direct === undefined ? undefined : (r.latency?.p50Ms ?? Number.NaN) - direct;
    const non2xx = (r.throughput?.non2xx ?? 0) + (r.latency?.non2xx ?? 0);
    const errors = (r.throughput?.errors ?? 0) + (r.latency?.errors ?? 0);
    const spread =
      r.roundsPerSecond.length > 1
        ? ` (${thousands(Math.min(...r.roundsPerSecond))}–${thousands(Math.max(...r.roundsPerSecond))})`
        : "";
    const harnessBound = (r.coresBusy[1] ?? 0) >= HARNESS_BOUND_BUSY ? " ‡" : "";
    const cores = `${r.coresBusy.map((busy) => `${Math.round(busy * 100)} %`).join(" / ")} (${fixed(r.othersBusy * 100, 0)} %)`;
    return `| ${r.name} | ${thousands(r.throughput?.perSecond)}${spread}${harnessBound} | ${fixed(r.latency?.p50Ms, 3)} | ${fixed(r.latency?.p99Ms, 3)} | ${r.kind === "direct" ? "—" : fixed(added, 3)} | ${thousands(r.cpuMicrosPerCall)} | ${cores} | ${fixed(r.idleRssMb, 0)} / ${fixed(r.rssMb, 0)} | ${non2xx} | ${errors} |`;
  });
  const footnote = results.some((r) => !r.failure && (r.coresBusy[1] ?? 0) >= HARNESS_BOUND_BUSY)
    ? `\n\n‡ core 1 (load generator and backend) was ≥ ${HARNESS_BOUND_BUSY * 100} % busy: this throughput is bounded by the harness at least as much as by the contestant; its CPU µs per call is the better measure of its cost.`
    : "";
  const repeated = results.filter((r) => r.repeatedRuns > 0);
  const repeats = repeated.length
    ? `\n\nRuns repeated because other processes used more than 10 % of a core meanwhile: ${repeated.map((r) => `${r.name} ${r.repeatedRuns}`).join(", ")}.`
    : "";
  return [...header, ...rows].join("\n") + footnote + repeats;
}

const verdict = (met: boolean) => (met ? "met" : "MISSED");

/** Median over rounds of atrium's req/s divided by the other's in the same round. */
function roundRatio(atrium: ContestantResult, other: (round: number) => number): number {
  return median(atrium.roundsPerSecond.map((rps, round) => rps / other(round)));
}

const ratio = (name: string, what: string, value: number, digits = 2) => `${name}: ${what} = ${fixed(value, digits)}`;

/** A ratio line against a target (at least `target`, or at most when `atMost`), and whether it is met. */
function againstTarget(line: string, value: number, target: number, atMost = false, unit = ""): [string, boolean] {
  const met = atMost ? value <= target : value >= target;
  return [`${line}${unit} (target ${atMost ? "≤" : "≥"} ${target}${unit}: ${verdict(met)})`, met];
}

const forComparison = (line: string): [string, boolean] => [`${line} (for comparison, no target)`, true];

/** One line per target; `missed` counts the targets not met (n/a counts as missed). */
export function ratioLines(results: ContestantResult[]): { lines: string[]; missed: number } {
  const measured = results.filter((r) => !r.failure);
  const passThroughOf = (protocol: BackendProtocol | undefined) =>
    measured.find((r) => r.kind === "pass-through" && r.protocol === protocol);
  const passThrough = passThroughOf(undefined);
  const peers = measured.filter((r) => r.kind === "peer" || r.kind === "anchor");
  const stateless = measured.find(
    (r) =>
      r.kind === "atrium" &&
      r.era === "stateless" &&
      r.auth === "none" &&
      r.protocol === undefined &&
      r.tracingRatio === undefined &&
      r.replicaOf === undefined,
  );
  const oauth = measured.find(
    (r) =>
      r.kind === "atrium" &&
      r.era === "stateless" &&
      r.auth === "oauth" &&
      r.protocol === undefined &&
      r.backendToken === undefined,
  );
  const lines: string[] = [];
  let missed = 0;
  for (const atrium of results.filter((r) => r.kind === "atrium" && r.replicaOf === undefined)) {
    const checks =
      atrium.era === "session"
        ? sessionChecks(atrium, stateless)
        : atrium.tracingRatio !== undefined
          ? tracingChecks(atrium, atrium.tracingRatio, stateless, measured)
          : atrium.backendToken === "exchange"
            ? protocolChecks(atrium, oauth, oauth?.name ?? "atrium (OAuth)", TARGETS.exchangeThroughputVsOAuth)
            : atrium.protocol === "graphql"
              ? protocolChecks(
                  atrium,
                  passThroughOf("graphql"),
                  "GraphQL pass-through",
                  TARGETS.graphqlThroughputVsPassThrough,
                )
              : atrium.protocol === "grpc"
                ? protocolChecks(
                    atrium,
                    passThroughOf("grpc"),
                    "gRPC pass-through",
                    TARGETS.grpcThroughputVsPassThrough,
                  )
                : [
                    ...passThroughChecks(atrium, passThrough),
                    ...peers.map((peer) => peerCheck(atrium, peer)),
                    ...(atrium.auth && atrium.auth !== "none" && stateless ? authCostChecks(atrium, stateless) : []),
                  ];
    for (const [line, met] of checks) {
      lines.push(line);
      if (!met) missed += 1;
    }
  }
  return { lines, missed };
}

function passThroughChecks(atrium: ContestantResult, passThrough: ContestantResult | undefined): [string, boolean][] {
  const throughput = roundRatio(atrium, (round) => passThrough?.roundsPerSecond[round] ?? Number.NaN);
  const cpu = atrium.cpuMicrosPerCall / (passThrough?.cpuMicrosPerCall ?? Number.NaN);
  const added = (atrium.latency?.p50Ms ?? Number.NaN) - (passThrough?.latency?.p50Ms ?? Number.NaN);
  return [
    againstTarget(
      ratio(atrium.name, "throughput / pass-through", throughput),
      throughput,
      TARGETS.throughputVsPassThrough,
    ),
    againstTarget(ratio(atrium.name, "CPU per call / pass-through", cpu), cpu, TARGETS.cpuVsPassThrough, true),
    againstTarget(
      ratio(atrium.name, "added p50 over pass-through", added, 3),
      added,
      TARGETS.addedP50OverPassThroughMs,
      true,
      " ms",
    ),
  ];
}

/**
 * A GraphQL or gRPC contestant against the pass-through to the same backend (`label`, e.g. "GraphQL
 * pass-through"), or the token-exchange contestant against the OAuth one: throughput has a
 * target, CPU is reported.
 */
function protocolChecks(
  atrium: ContestantResult,
  passThrough: ContestantResult | undefined,
  label: string,
  target: number,
): [string, boolean][] {
  const throughput = roundRatio(atrium, (round) => passThrough?.roundsPerSecond[round] ?? Number.NaN);
  const cpu = atrium.cpuMicrosPerCall / (passThrough?.cpuMicrosPerCall ?? Number.NaN);
  const micros = `${thousands(atrium.cpuMicrosPerCall)} µs against ${thousands(passThrough?.cpuMicrosPerCall)} µs`;
  return [
    againstTarget(ratio(atrium.name, `throughput / ${label}`, throughput), throughput, target),
    forComparison(`${ratio(atrium.name, `CPU per call / ${label}`, cpu)} (${micros})`),
  ];
}

/**
 * Tracing against the same open endpoint untraced (the SDK not loaded), both in the same run: at
 * 1 % sampling the throughput has a target; 100 % and CPU per call are reported. With --replicas,
 * each side is the median of its processes (round by round for throughput): two processes of
 * the same code differ by up to ± 10 % on a shared VM, as much as the margin the target allows.
 */
export function tracingChecks(
  traced: ContestantResult,
  sampling: number,
  off: ContestantResult | undefined,
  measured: ContestantResult[],
): [string, boolean][] {
  const name = off?.name ?? "atrium (no auth)";
  const tracedSide = processesOf(traced, measured);
  const offSide = processesOf(off, measured);
  const medianRound = (side: ContestantResult[], round: number) =>
    median(side.map((r) => r.roundsPerSecond[round] ?? Number.NaN));
  const throughput = median(
    traced.roundsPerSecond.map((_, round) => medianRound(tracedSide, round) / medianRound(offSide, round)),
  );
  const tracedCpu = median(tracedSide.map((r) => r.cpuMicrosPerCall));
  const offCpu = median(offSide.map((r) => r.cpuMicrosPerCall));
  const processes =
    tracedSide.length > 1 || offSide.length > 1
      ? ` (medians of ${tracedSide.length} and ${offSide.length} processes)`
      : "";
  const throughputLine = `${ratio(traced.name, `throughput / ${name}`, throughput)}${processes}`;
  const micros = `${thousands(tracedCpu)} µs against ${thousands(offCpu)} µs`;
  return [
    sampling === TARGET_SAMPLING_RATIO
      ? againstTarget(throughputLine, throughput, TARGETS.tracedThroughputVsOff)
      : forComparison(throughputLine),
    forComparison(`${ratio(traced.name, `CPU per call / ${name}`, tracedCpu / offCpu)} (${micros})${processes}`),
  ];
}

/** `first` and the other processes of it the run measured (--replicas); none without `first`. */
function processesOf(first: ContestantResult | undefined, measured: ContestantResult[]): ContestantResult[] {
  return first ? measured.filter((r) => r === first || r.replicaOf === first.name) : [];
}

/** Throughput against a peer, round by round: a target against the anchor, for comparison against the others. */
function peerCheck(atrium: ContestantResult, peer: ContestantResult): [string, boolean] {
  const throughput = roundRatio(atrium, (round) => peer.roundsPerSecond[round] ?? Number.NaN);
  const line = ratio(atrium.name, `throughput / ${peer.name}`, throughput);
  return peer.kind === "anchor" ? againstTarget(line, throughput, TARGETS.throughputVsGoSdk) : forComparison(line);
}

/** The 2025 session era against the stateless era, both open Expositions. */
function sessionChecks(session: ContestantResult, stateless: ContestantResult | undefined): [string, boolean][] {
  const name = stateless?.name ?? "the stateless era";
  const throughput = roundRatio(session, (round) => stateless?.roundsPerSecond[round] ?? Number.NaN);
  const cpu = session.cpuMicrosPerCall / (stateless?.cpuMicrosPerCall ?? Number.NaN);
  return [
    againstTarget(
      ratio(session.name, `throughput / ${name}`, throughput),
      throughput,
      TARGETS.sessionThroughputVsStateless,
    ),
    forComparison(ratio(session.name, `CPU per call / ${name}`, cpu)),
  ];
}

/**
 * What client authentication costs: throughput and CPU per call against the open endpoint in
 * the same run. OAuth has targets (issue 10); the API key is shown beside it for comparison.
 */
function authCostChecks(atrium: ContestantResult, noAuth: ContestantResult): [string, boolean][] {
  const throughput = roundRatio(atrium, (round) => noAuth.roundsPerSecond[round] ?? Number.NaN);
  const cpu = atrium.cpuMicrosPerCall / noAuth.cpuMicrosPerCall;
  const throughputLine = ratio(atrium.name, `throughput / ${noAuth.name}`, throughput);
  const cpuLine = ratio(atrium.name, `CPU per call / ${noAuth.name}`, cpu);
  if (atrium.auth !== "oauth") return [forComparison(throughputLine), forComparison(cpuLine)];
  return [
    againstTarget(throughputLine, throughput, TARGETS.oauthThroughputVsNoAuth),
    againstTarget(cpuLine, cpu, TARGETS.oauthCpuVsNoAuth, true),
  ];
}

export function scaleSection(scale: ScaleResults): { markdown: string; missed: number } {
  const { toolsList, expositions, sessions } = scale;
  const toolsMet = toolsList.p99Ms < TARGETS.toolsListMs;
  const rssMet = expositions.rssMb < TARGETS.expositionsRssMb;
  const readyMet = expositions.readyMs < TARGETS.expositionsReadyMs;
  const change = expositions.change;
  const slowest = Math.max(...change.fromAnswerMs);
  const changeMet = slowest < TARGETS.changeAppliedMs;
  const atriumSessions = sessions.find((s) => s.server.startsWith("atrium"));
  const sessionsMet = atriumSessions !== undefined && atriumSessions.crossed === 0 && atriumSessions.failed === 0;
  const rows = [
    "| check | result | target |",
    "|---|---|---|",
    `| tools/list, ${thousands(toolsList.tools)} tools (${toolsList.requests} sequential requests, ${fixed(toolsList.responseBytes / 1024 / 1024, 2)} MB answer) | p50 ${fixed(toolsList.p50Ms, 2)} ms, p99 ${fixed(toolsList.p99Ms, 2)} ms (other processes: ${fixed(toolsList.othersBusy * 100, 0)} % of a core) | p99 < ${TARGETS.toolsListMs} ms: ${verdict(toolsMet)} |`,
    `| … the same, asked with \`accept-encoding: gzip\` as fetch-based clients do (${fixed(toolsList.gzip.responseBytes / 1024, 0)} KB on the wire), timed to the body decoded | p50 ${fixed(toolsList.gzip.p50Ms, 2)} ms, p99 ${fixed(toolsList.gzip.p99Ms, 2)} ms (other processes: ${fixed(toolsList.gzip.othersBusy * 100, 0)} %) | p99 < ${TARGETS.toolsListMs} ms: ${verdict(toolsList.gzip.p99Ms < TARGETS.toolsListMs)} |`,
    `| … the same answer from a bare node:http server (the floor for those bytes) | p50 ${fixed(toolsList.floorP50Ms, 2)} ms, p99 ${fixed(toolsList.floorP99Ms, 2)} ms (other processes: ${fixed(toolsList.floorOthersBusy * 100, 0)} %) | — |`,
    `| … its import through the REST API / gateway start to ready / gateway RSS (live heap after GC) | ${thousands(toolsList.importMs)} ms / ${thousands(toolsList.gatewayReadyMs)} ms / ${fixed(toolsList.rssMb, 0)} MB (${fixed(toolsList.heap.heapUsedMb, 0)} MB) | — |`,
    `| gateway RSS with ${thousands(expositions.expositions)} Expositions loaded (peak) | ${fixed(expositions.rssMb, 0)} MB (${fixed(expositions.peakRssMb, 0)} MB) | < ${TARGETS.expositionsRssMb} MB: ${verdict(rssMet)} |`,
    `| … after a full GC: RSS / live heap / V8 young generation | ${fixed(expositions.heap.rssMb, 0)} MB / ${fixed(expositions.heap.heapUsedMb, 0)} MB / ${fixed(expositions.heap.newSpaceMb, 0)} MB | — |`,
    `| … gateway start to ready with all of them (process start to serving every one; the control plane holds them already) | ${thousands(expositions.readyMs)} ms (CPU: gateway ${thousands(expositions.readyCpuMs)} ms, control plane ${thousands(expositions.controlPlaneCpuMs)} ms) | < ${thousands(TARGETS.expositionsReadyMs)} ms: ${verdict(readyMet)} |`,
    `| … one Exposition's change served, from the control plane's commit (the write's answer): median / slowest of ${change.changes} | ${fixed(median(change.fromAnswerMs), 1)} / ${fixed(slowest, 1)} ms (from sending the write: ${fixed(median(change.fromRequestMs), 1)} / ${fixed(Math.max(...change.fromRequestMs), 1)} ms; the gateway's CPU per change, median ${fixed(median(change.gatewayCpuMs), 1)} ms; watcher resolution ${fixed(change.resolutionMs, 2)} ms) | < ${TARGETS.changeAppliedMs} ms: ${verdict(changeMet)} |`,
    `| … creating them through the REST API / tools/list of one of them, p50 / p99 | ${thousands(expositions.createMs)} ms / ${fixed(expositions.toolsList.p50Ms, 2)} / ${fixed(expositions.toolsList.p99Ms, 2)} ms | — |`,
    ...sessions.map(
      (s) =>
        `| sessions never cross: ${s.server}, ${s.sessions} concurrent 2025 sessions × ${s.rounds} rounds, every call JSON-RPC id 1 | ${s.crossed} of ${s.calls} answers carried another session's pet, ${s.failed} failed | 0 crossed${s.server.startsWith("atrium") ? `, 0 failed: ${verdict(sessionsMet)}` : " (peer, for comparison)"} |`,
    ),
  ];
  return {
    markdown: rows.join("\n"),
    missed: [toolsMet, rssMet, readyMet, changeMet, sessionsMet].filter((met) => !met).length,
  };
}

const AUTH_NAMES: Record<AtriumAuth, string> = { none: "no auth", apiKey: "API key", oauth: "OAuth" };

/** Client authentication's cost inside one gateway process (auth-cost.ts), OAuth against its targets. */
export function authCostSection(cost: AuthCostResult): { markdown: string; missed: number } {
  const open = cost.modes.find((mode) => mode.auth === "none");
  const rows = cost.modes.map((mode) => {
    const spread =
      mode.roundsPerSecond.length > 1
        ? ` (${thousands(Math.min(...mode.roundsPerSecond))}–${thousands(Math.max(...mode.roundsPerSecond))})`
        : "";
    return `| ${AUTH_NAMES[mode.auth]} | ${thousands(median(mode.roundsPerSecond))}${spread} | ${fixed(mode.cpuMicrosPerCall, 1)} | ${mode.non2xx} |`;
  });
  const lines: string[] = [];
  let missed = 0;
  for (const mode of cost.modes) {
    if (mode.auth === "none" || !open) continue;
    const throughput = median(
      mode.roundsPerSecond.map((rps, round) => rps / (open.roundsPerSecond[round] ?? Number.NaN)),
    );
    const cpu = mode.cpuMicrosPerCall / open.cpuMicrosPerCall;
    if (mode.auth !== "oauth") {
      lines.push(
        `- ${AUTH_NAMES[mode.auth]} on one gateway: throughput / no auth = ${fixed(throughput, 2)}, CPU per call / no auth = ${fixed(cpu, 2)} (for comparison, no target)`,
      );
      continue;
    }
    const throughputMet = throughput >= TARGETS.oauthThroughputVsNoAuth;
    const cpuMet = cpu <= TARGETS.oauthCpuVsNoAuth;
    missed += Number(!throughputMet) + Number(!cpuMet);
    lines.push(
      `- OAuth on one gateway: throughput / no auth = ${fixed(throughput, 2)} (target ≥ ${TARGETS.oauthThroughputVsNoAuth}: ${verdict(throughputMet)})`,
      `- OAuth on one gateway: CPU per call / no auth = ${fixed(cpu, 2)} (target ≤ ${TARGETS.oauthCpuVsNoAuth}: ${verdict(cpuMet)})`,
    );
  }
  const markdown = [
    `One gateway process on core 0 serving the pets Exposition open, behind an API key and behind OAuth (one token, cached after its first call); after a warm-up, ${cost.rounds} round(s) in which each is loaded for ${cost.seconds} s at ${cost.connections} connections (order rotated), CPU read from that one process around each run. Separate processes running the same code differ by more than a credential costs on this VM; within one process they do not. Other processes used at most ${fixed(cost.othersBusy * 100, 0)} % of a core during a kept run.`,
    "",
    `| endpoint | req/s, median round (min–max) | CPU µs/call | non-2xx or errors |`,
    "|---|--:|--:|--:|",
    ...rows,
    "",
    ...lines,
  ].join("\n");
  return { markdown, missed };
}

/** The first-call timings (first-call.ts): what a token costs before the cache knows it. */
export function firstCallSection(first: FirstCallResult): string {
  const ms = (values: number[]) =>
    values.length > 1
      ? `${fixed(median(values), 2)} (${fixed(Math.min(...values), 2)}–${fixed(Math.max(...values), 2)})`
      : fixed(values[0], 2);
  const signature = median(first.newTokenMs) - median(first.cachedTokenMs);
  const fetchAndFirst = median(first.coldJwksMs) - median(first.newTokenMs);
  const exchange = median(first.newExchangeMs) - median(first.newTokenMs);
  const cachedExchange = median(first.cachedExchangeMs) - median(first.cachedTokenMs);
  const firstExchange = median(first.coldExchangeMs) - median(first.newExchangeMs);
  const pooled = first.coldStarts * first.tokensPerStart;
  const callers = first.coldStarts * (first.tokensPerStart + 1);
  return [
    `${first.coldStarts} fresh gateway(s) on core 0, each serving the pets Exposition open, behind OAuth, and behind OAuth with each caller's token exchanged for the backend (RFC 8693 at the bench's token endpoint, token-exchange-server.ts), called one call at a time from the runner over one kept-alive connection: first the open Exposition, then the first call with a token (the key set not fetched yet), then the exchange Exposition's first call (a new caller: the gateway's first exchange), then ${first.tokensPerStart} times a new token, the first token again, the open Exposition, a new caller on the exchange Exposition and that caller again, interleaved. Times to the last byte of the answer; tokens minted beforehand, each exchange call's by a caller (subject) of its own. Other processes used ${fixed(first.othersBusy * 100, 0)} % of a core meanwhile (median).`,
    "",
    "| call | ms, median (min–max) | calls |",
    "|---|--:|--:|",
    `| first call of a fresh gateway, open Exposition (the gateway's own first-call work) | ${ms(first.firstOpenMs)} | ${first.firstOpenMs.length} |`,
    `| first call with a token, key set not fetched yet (JWKS fetch + signature check) | ${ms(first.coldJwksMs)} | ${first.coldJwksMs.length} |`,
    `| first call of a new token, key set warm (signature check) | ${ms(first.newTokenMs)} | ${pooled} |`,
    `| a token already verified (cache hit) | ${ms(first.cachedTokenMs)} | ${pooled} |`,
    `| open Exposition, same gateway, same moments | ${ms(first.openMs)} | ${pooled} |`,
    `| first exchange of a fresh gateway, a new caller (signature check + token exchange: a new connection to the token endpoint, the exchange code's first run) | ${ms(first.coldExchangeMs)} | ${first.coldExchangeMs.length} |`,
    `| first call of a new caller, exchange plan (signature check + token exchange) | ${ms(first.newExchangeMs)} | ${pooled} |`,
    `| a caller already exchanged (token verified, exchanged token cached) | ${ms(first.cachedExchangeMs)} | ${pooled} |`,
    "",
    `- a new token costs ${fixed(signature, 3)} ms more than a cached one (median difference: the signature check and the cache insert)`,
    `- the first token of a fresh gateway costs ${fixed(fetchAndFirst, 2)} ms more than a later new one (median difference: the key-set fetch and the verification code's first run)`,
    `- key-set fetches: ${first.jwksFetches} for ${first.coldStarts} fresh gateway(s) (one each expected; a new token on a warm key set fetches nothing)`,
    `- a token exchange (the exchange's first call) costs ${fixed(exchange, 3)} ms more than a new token on the OAuth plan (median difference: the round trip to the token endpoint, its own work — the subject token verified, a token signed — and the cache insert)`,
    `- a caller already exchanged costs ${fixed(cachedExchange, 3)} ms more than a cached token on the OAuth plan (median difference: the exchange cache's lookup and the bearer sent to the backend)`,
    `- the first exchange of a fresh gateway costs ${fixed(firstExchange, 2)} ms more than a later one (median difference: the connection to the token endpoint and the exchange code's first run)`,
    `- token exchanges: ${first.exchanges} for ${callers} new caller(s) on ${first.coldStarts} fresh gateway(s) (one each expected; a caller already exchanged exchanges nothing)`,
  ].join("\n");
}

export function fullReport(
  measured: {
    hot: ContestantResult[] | undefined;
    firstCalls: FirstCallResult | undefined;
    authCost: AuthCostResult | undefined;
    scale: ScaleResults | undefined;
  },
  settings: RunSettings,
): { markdown: string; missed: number } {
  const { hot: results, firstCalls, authCost, scale } = measured;
  const parts = [
    `Run ${settings.date} of ${revision()}, on ${machine()}${settings.quick ? " — QUICK (smoke) run, numbers not meaningful" : ""}${settings.gatewayNodeArgs.length ? ` — what-if: gateways ran with \`node ${settings.gatewayNodeArgs.join(" ")}\`` : ""}.`,
  ];
  let missed = 0;
  if (results) {
    const ratios = ratioLines(results);
    missed += ratios.missed;
    parts.push(
      `### Hot path: getPet → GET /pets/{id}\n\nContestants pinned to core 0 (\`taskset -a -c 0\`), all started first; backend, control plane and load generator (autocannon) on core 1. After a ${settings.warmupSeconds} s warm-up each, ${settings.rounds} round(s): every contestant in turn (order rotated each round) for ${settings.seconds} s at ${settings.connections} connections, then each for ${settings.latencySeconds} s at 1 connection. req/s is the median round; throughput ratios are medians of per-round ratios; latency percentiles pool the 1-connection runs. CPU (user + system of the contestant's process, /proc/<pid>/stat) over all throughput rounds, per call; core busy shares from /proc/stat (median round); RSS before any load and after the last throughput round. A run during which other processes on the machine used more than 10 % of a core is repeated (at most 3 times, keeping the least disturbed); the share they used is in brackets.`,
      hotPathTable(results, settings),
      ratios.lines.map((line) => `- ${line}`).join("\n"),
      `Contestants:\n\n${results.map((r) => `- **${r.name}**: ${r.description}`).join("\n")}`,
    );
    const profiles = results.flatMap((r) => (r.profile ? [r.profile] : []));
    if (profiles.length > 0) {
      parts.push(
        "### CPU profiles of the throughput runs\n\nThese contestants ran under `node --cpu-prof`: their numbers in this run include the profiler's overhead. Shares are of the contestant's busy (non-idle) samples during the throughput run.",
        ...profiles,
      );
    }
  }
  if (authCost) {
    const section = authCostSection(authCost);
    missed += section.missed;
    parts.push("### Client authentication on one gateway process", section.markdown);
  }
  if (firstCalls) parts.push("### First call with a token (not cached yet)", firstCallSection(firstCalls));
  if (scale) {
    const section = scaleSection(scale);
    missed += section.missed;
    parts.push("### Scale", section.markdown);
    if (scale.toolsList.profile) parts.push(scale.toolsList.profile);
  }
  return { markdown: parts.join("\n\n"), missed };
}

export const DOC_BEGIN = "<!-- bench/gateway/run.ts: begin (generated, do not edit by hand) -->";
export const DOC_END = "<!-- bench/gateway/run.ts: end -->";

/** A generated block of docs/performance.md: its markers, and the heading put above it when it is new. */
export interface DocBlock {
  begin: string;
  end: string;
  heading: string;
}

const RUN_BLOCK: DocBlock = { begin: DOC_BEGIN, end: DOC_END, heading: "Latest results" };

/** Replaces the generated block of `docPath` (between the markers), appending one if it has none. */
export function updateDoc(docPath: string, markdown: string, marked: DocBlock = RUN_BLOCK): void {
  const block = `${marked.begin}\n\n${markdown}\n\n${marked.end}`;
  const text = existsSync(docPath) ? readFileSync(docPath, "utf8") : "# Performance\n";
  const begin = text.indexOf(marked.begin);
  const end = text.indexOf(marked.end);
  const next =
    begin >= 0 && end > begin
      ? `${text.slice(0, begin)}${block}${text.slice(end + marked.end.length)}`
      : `${text.trimEnd()}\n\n## ${marked.heading}\n\n${block}\n`;
  writeFileSync(docPath, next);
}
