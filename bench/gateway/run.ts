/**
 * The gateway's hot-path benchmark ("faster than every peer"), in one run on a 2-core machine:
 * each contestant — the backend called directly, a bare fastify + undici pass-through, the
 * Atrium gateway (stateless: no auth, API key, OAuth bearer token, OAuth with the caller's token
 * exchanged for the backend's, no auth with tracing on at 1 % and 100 % sampling exporting to a
 * real OpenTelemetry Collector on core 1 (tracing-collector.ts); and in 2025 sessions),
 * @ivotoby/openapi-mcp-server, a server on the official TypeScript SDK and one on the official
 * Go SDK (built once, go-sdk-build.ts) — serves getPet → `GET /pets/{id}` as its own child
 * process pinned to core 0, while the backend, the control plane, the OAuth contestant's JWKS server
 * (oauth-issuer.ts), the token-exchange contestant's RFC 8693 token endpoint
 * (token-exchange-server.ts) and the load generator (autocannon, in this process) run on core 1. GraphQL:
 * the gateway publishing a GraphQL Service's `getPet` query and its own bare pass-through, both in
 * front of one graphql-http backend (graphql-backend.ts, core 1), compared with each other.
 * Measured per contestant (hot-path.ts): req/s at 32 connections, p50/p99 at 1 connection, CPU
 * µs per call (/proc/<pid>/stat), core busy shares, RSS — in rounds that interleave the
 * contestants. Then what a token costs before it is cached (first-call.ts: a cold key set, a new
 * token on a warm one, a token exchange), and the scale checks (scale.ts): tools/list with 5,000 tools; 10,000
 * Expositions on one gateway (start to ready, RSS, a change applied after its commit); sessions
 * with colliding JSON-RPC ids never crossing.
 *
 * Prints the table and the ratios to the targets; a complete plain run (no --quick, --only,
 * --profile, --contestants or --gateway-node-args) also writes bench/results/gateway-<date>.md
 * and the generated block of docs/performance.md. Its flags: USAGE below (`--help` prints it).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { ApiClient } from "@atrium/control-plane/testing";
import { type AuthCostResult, createAuthCostExpositions, measureAuthCost } from "./auth-cost.ts";
import {
  atrium,
  atriumSession,
  type BenchContext,
  type Contestant,
  direct,
  GRAPHQL_PASS_THROUGH,
  GRPC_PASS_THROUGH,
  goSdk,
  graphqlPassThrough,
  grpcPassThrough,
  ivotoby,
  officialSdk,
  passThrough,
  startBenchContext,
  startGraphqlBackend,
  startGrpcBackend,
} from "./contestants.ts";
import {
  createFirstCallExpositions,
  type FirstCallOptions,
  type FirstCallResult,
  measureFirstCalls,
} from "./first-call.ts";
import { measureHotPath } from "./hot-path.ts";
import { BenchIssuer } from "./oauth-issuer.ts";
import { PETS_SDL } from "./pets-graphql.ts";
import { PETS_DESCRIPTOR_SET, PETS_PROTO } from "./pets-grpc.ts";
import { HARNESS_CORE, pinSelf, REPO_ROOT, scratchFolder, stopAll } from "./processes.ts";
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
  createGraphqlService,
  createGroup,
  createGrpcService,
  createPlan,
  createSecret,
  createService,
  petsOpenApi,
} from "./setup.ts";
import { BenchExchangeServer, EXCHANGE_AUDIENCE, EXCHANGE_CLIENT } from "./token-exchange-server.ts";
import { BenchCollector } from "./tracing-collector.ts";

/** parseArgs, with a wrong flag told in one line (and where the flags are), not a stack trace. */
function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\nRun with --help for the flags.\n`);
    process.exit(2);
  }
}

const USAGE = `Usage:
  node bench/gateway/run.ts [--duration 10] [--rounds 3] [--connections 32] [--warmup 2]
                            [--only hot|contestants|scale] [--attempts 4] [--quick] [--profile] [--no-write]
                            [--gateway-node-args="--max-semi-space-size=16"]
                            [--contestants "pass-through,atrium (no auth),atrium (OAuth)"] [--replicas 3] [--help]

--duration: seconds of each throughput run (one per contestant per round); each round also
  runs every contestant at 1 connection for half of that.
--quick (CI smoke, about a minute): one round of 2 s (1 s at 1 connection), one fresh gateway
  and 5 tokens for the first calls, 200 tools, 50 Expositions, 20 sessions; writes nothing.
--profile: the Atrium and pass-through contestants run under "node --cpu-prof"; the report
  adds where their CPU went during the throughput runs (profile.ts). Their numbers then
  include the profiler's overhead: take the table from a run without it.
--gateway-node-args: extra node flags for every Atrium gateway, for what-if runs (never written).
--only contestants: the hot-path contestants alone (not the auth cost on one gateway, the first
  calls or the scale checks).
--attempts: tries of a hot-path run disturbed by other processes, each after waiting for quiet;
  1 takes every run as it comes, on a machine that is never quiet (its share is in the table).
--contestants: only these hot-path contestants, by name (a shorter run on a busy machine; never written).
--replicas: processes of each side of the tracing comparison, "atrium (no auth)" and "atrium (tracing 1 %)"
  (1 to 5; default 1): the extra ones are "#2", "#3"..., run with their first in every round, and the
  tracing ratios compare the sides' medians. Two processes of the same code differ by up to ± 10 % on
  a shared VM, as much as the margin of the tracing target.
--help: this text.
Exits 1 when a contestant or check could not run (not when a target is missed).`;

const { values } = parseFlags({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "32" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
    attempts: { type: "string" },
    only: { type: "string" },
    quick: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    "gateway-node-args": { type: "string", default: "" },
    "no-write": { type: "boolean", default: false },
    contestants: { type: "string" },
    replicas: { type: "string", default: "1" },
    help: { type: "boolean", short: "h", default: false },
  },
} as const);
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const replicas = Number(values.replicas);
if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
  process.stderr.write(`--replicas: give a whole number from 1 to 5, not "${values.replicas}"\n`);
  process.exit(2);
}
/** Names of the hot-path contestants to run (all when unset): a partial run, which writes nothing. */
const chosen = values.contestants?.split(",").map((name) => name.trim());
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
  ...(values.attempts ? { attempts: Number(values.attempts) } : {}),
};
const scaleOptions: ScaleOptions = quick
  ? { waitForQuiet: false, tools: 200, toolsListRequests: 20, expositions: 50, sessions: 20, rounds: 2, changes: 2 }
  : {
      waitForQuiet: true,
      tools: 5_000,
      toolsListRequests: 200,
      expositions: 10_000,
      sessions: 200,
      rounds: 5,
      changes: 10,
    };
const firstCallOptions: FirstCallOptions = quick
  ? { coldStarts: 1, tokens: 5, waitForQuiet: false }
  : { coldStarts: 3, tokens: 100, waitForQuiet: true };
const runScale = values.only !== "hot" && values.only !== "contestants";
const runHot = values.only !== "scale";
// Only a complete, plain run replaces the documented results: not a smoke, a part, a profiled
// run (the profiler slows what it watches) or a what-if with other node flags.
const write =
  !quick &&
  !values["no-write"] &&
  !values.profile &&
  values.only === undefined &&
  chosen === undefined &&
  gatewayNodeArgs.length === 0;

const progress = (message: string) => process.stderr.write(`[gateway bench] ${message}\n`);

const peers = new Set([ivotoby.name, officialSdk.name]);
function kindOf(contestant: Contestant): ContestantResult["kind"] {
  if (contestant === direct) return "direct";
  if (contestant === passThrough || contestant.name === GRAPHQL_PASS_THROUGH || contestant.name === GRPC_PASS_THROUGH)
    return "pass-through";
  if (contestant === goSdk) return "anchor";
  return peers.has(contestant.name) ? "peer" : "atrium";
}

/** The scope every OAuth call's token carries and its plan requires; the audience the plan expects. */
const OAUTH_SCOPE = "pets:read";
const OAUTH_AUDIENCE = "https://atrium.bench/pets";

/**
 * The plans every hot-path scenario needs: open, API key, OAuth (trusting the bench's issuer), and
 * OAuth with each caller's token exchanged at the bench's token endpoint for the backend.
 */
async function createHotPlans(
  context: BenchContext,
  admin: ApiClient,
  issuer: BenchIssuer,
  exchange: BenchExchangeServer,
) {
  const serviceId = await createService(admin, "pets", petsOpenApi());
  const clientSecretId = await createSecret(admin, "bench-token-exchange-client", EXCHANGE_CLIENT.secret);
  const plan = (label: string, options: { apiKey?: boolean; oauth?: boolean; exchange?: boolean } = {}) =>
    createPlan(admin, {
      name: `pets-${label}`,
      serviceId,
      backendUrl: context.backendUrl,
      apiKey: options.apiKey ?? false,
      ...(options.exchange
        ? {
            backendSecret: {
              tokenExchange: {
                tokenUrl: exchange.tokenUrl,
                clientId: EXCHANGE_CLIENT.id,
                clientSecret: { secretId: clientSecretId },
                audience: EXCHANGE_AUDIENCE,
              },
            },
          }
        : {}),
      ...(options.oauth
        ? {
            oauth: {
              issuer: issuer.issuer,
              jwksUri: issuer.jwksUri,
              audience: OAUTH_AUDIENCE,
              requiredScopes: [OAUTH_SCOPE],
            },
          }
        : {}),
    });
  const grpcBackendUrl = await startGrpcBackend();
  const grpcService = await createGrpcService(admin, "pets-grpc", PETS_PROTO);
  const graphqlBackendUrl = await startGraphqlBackend();
  const graphqlServiceId = await createGraphqlService(admin, "pets-graphql", PETS_SDL);
  return {
    open: await plan("open"),
    keyed: await plan("keyed", { apiKey: true }),
    oauth: await plan("oauth", { oauth: true }),
    exchange: await plan("exchange", { oauth: true, exchange: true }),
    graphql: await createPlan(admin, {
      name: "pets-graphql",
      serviceId: graphqlServiceId,
      backendUrl: `${graphqlBackendUrl}/graphql`,
      apiKey: false,
    }),
    graphqlBackendUrl,
    grpc: await createPlan(admin, {
      name: "pets-grpc",
      serviceId: grpcService.id,
      backendUrl: grpcBackendUrl,
      apiKey: false,
    }),
    grpcBackendUrl,
    grpcService,
  };
}

type HotPlans = Awaited<ReturnType<typeof createHotPlans>>;

async function hotPath(
  context: BenchContext,
  admin: ApiClient,
  plans: HotPlans,
  issuer: BenchIssuer,
  exchange: BenchExchangeServer,
  collector: BenchCollector,
): Promise<ContestantResult[]> {
  const scenario = async (label: string, planId: string) => {
    const role = `hot-${label}`;
    const groupId = await createGroup(admin, role);
    return { id: await createExposition(admin, `pets-${label}`, planId, groupId), role, gatewayId: `gw-hot-${label}` };
  };
  const token = await issuer.mint({ audience: OAUTH_AUDIENCE, scope: OAUTH_SCOPE });
  // The tracing comparison's two sides: each contestant made from a name and a scenario label.
  const tracingSides = [
    {
      name: "atrium (no auth)",
      label: "open",
      make: async (name: string, label: string) =>
        atrium(name, { ...(await scenario(label, plans.open.id)), auth: "none" }),
    },
    {
      name: "atrium (tracing 1 %)",
      label: "traced-1",
      make: async (name: string, label: string) =>
        atrium(name, { ...(await scenario(label, plans.open.id)), auth: "none", tracing: { ratio: 0.01, collector } }),
    },
  ];
  const tracingProcesses: Contestant[] = [];
  for (let copy = 1; copy <= replicas; copy++) {
    for (const { name, label, make } of tracingSides) {
      if (copy === 1) {
        tracingProcesses.push(await make(name, label));
      } else {
        // Another process of `name` (--replicas), with an Exposition and gateway of its own.
        tracingProcesses.push({
          ...(await make(`${name} #${copy}`, `${label}-${copy}`)),
          replicaOf: name,
          description: `Another gateway process of "${name}", with an Exposition of its own (--replicas).`,
        });
      }
    }
  }
  const contestants = [
    direct,
    passThrough,
    ...tracingProcesses,
    atrium("atrium (tracing 100 %)", {
      ...(await scenario("traced-100", plans.open.id)),
      auth: "none",
      tracing: { ratio: 1, collector },
    }),
    atrium("atrium (API key)", {
      ...(await scenario("keyed", plans.keyed.id)),
      auth: "apiKey",
      credential: { apiKey: plans.keyed.apiKey },
    }),
    atrium("atrium (OAuth)", {
      ...(await scenario("oauth", plans.oauth.id)),
      auth: "oauth",
      credential: { bearerToken: token },
    }),
    atrium("atrium (token exchange)", {
      ...(await scenario("exchange", plans.exchange.id)),
      auth: "oauth",
      credential: { bearerToken: token },
      exchange,
    }),
    atriumSession("atrium (2025 session)", await scenario("session", plans.open.id), "json"),
    atriumSession("atrium (2025 session over SSE)", await scenario("session-sse", plans.open.id), "sse"),
    ivotoby,
    officialSdk,
    goSdk,
    graphqlPassThrough(plans.graphqlBackendUrl),
    atrium("atrium GraphQL (no auth)", {
      ...(await scenario("graphql", plans.graphql.id)),
      auth: "none",
      protocol: "graphql",
    }),
    grpcPassThrough(plans.grpcBackendUrl, PETS_DESCRIPTOR_SET, plans.grpcService.tool),
    atrium("atrium gRPC (no auth)", {
      ...(await scenario("grpc", plans.grpc.id)),
      auth: "none",
      protocol: "grpc",
      tool: plans.grpcService.tool,
    }),
  ];
  const unknown = chosen?.filter((name) => !contestants.some((c) => c.name === name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `--contestants: no contestant named ${unknown.join(", ")}; the names are ${contestants.map((c) => c.name).join(", ")}`,
    );
  }
  // A replica runs when its first does.
  const isChosen = (c: Contestant) => chosen === undefined || chosen.includes(c.replicaOf ?? c.name);
  return measureHotPath(
    contestants.filter(isChosen).map((contestant) => ({ contestant, kind: kindOf(contestant) })),
    context,
    settings,
    progress,
  );
}

async function authCostOnOneGateway(
  context: BenchContext,
  admin: ApiClient,
  plans: HotPlans,
  issuer: BenchIssuer,
): Promise<AuthCostResult> {
  const expositions = await createAuthCostExpositions(admin, {
    none: plans.open.id,
    apiKey: plans.keyed.id,
    oauth: plans.oauth.id,
  });
  const credentials = {
    none: {},
    apiKey: { apiKey: plans.keyed.apiKey },
    oauth: { bearerToken: await issuer.mint({ audience: OAUTH_AUDIENCE, scope: OAUTH_SCOPE }) },
  };
  return measureAuthCost(
    context,
    expositions,
    credentials,
    {
      rounds: settings.rounds,
      seconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      connections: settings.connections,
      waitForQuiet: !quick,
    },
    progress,
  );
}

async function firstCalls(
  context: BenchContext,
  admin: ApiClient,
  plans: HotPlans,
  issuer: BenchIssuer,
  exchange: BenchExchangeServer,
): Promise<FirstCallResult> {
  const expositions = await createFirstCallExpositions(admin, {
    openPlanId: plans.open.id,
    oauthPlanId: plans.oauth.id,
    exchangePlanId: plans.exchange.id,
  });
  return measureFirstCalls(
    context,
    issuer,
    exchange,
    { ...expositions, audience: OAUTH_AUDIENCE, scope: OAUTH_SCOPE },
    firstCallOptions,
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
// Removed when this process exits, on SIGTERM or Ctrl-C too (processes.ts).
const scratchDir = scratchFolder("gateway-bench");
let failed = false;
let closeIssuer: () => Promise<void> = async () => undefined;
let closeExchange: () => Promise<void> = async () => undefined;
// Started only when a traced contestant runs.
const collector = new BenchCollector();
try {
  const { context, admin } = await startBenchContext({
    scratchDir,
    // Kept after the run (not in the scratch directory) so the profiles can be opened in a viewer.
    profileDir: values.profile ? mkdtempSync(join(tmpdir(), "atrium-gateway-profiles-")) : undefined,
    gatewayNodeArgs,
  });

  const issuer = await BenchIssuer.start();
  closeIssuer = () => issuer.close();
  const exchange = await BenchExchangeServer.start(issuer);
  closeExchange = () => exchange.close();
  const plans = runHot ? await createHotPlans(context, admin, issuer, exchange) : undefined;
  const results = plans ? await hotPath(context, admin, plans, issuer, exchange, collector) : undefined;
  // Its file of every span of the traced contestants is not needed past the hot path.
  await collector.stop();
  let first: FirstCallResult | undefined;
  let authCost: AuthCostResult | undefined;
  if (plans && values.only !== "contestants") {
    try {
      authCost = await authCostOnOneGateway(context, admin, plans, issuer);
    } catch (error) {
      failed = true;
      progress(`auth-cost runs FAILED: ${(error as Error).stack}`);
    }
    try {
      first = await firstCalls(context, admin, plans, issuer, exchange);
    } catch (error) {
      failed = true;
      progress(`first-call timings FAILED: ${(error as Error).stack}`);
    }
  }
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
  if (exchange.refusals > 0) {
    failed = true;
    progress(`the token endpoint refused ${exchange.refusals} exchange(s): see the gateway's log above`);
  }

  const report = fullReport({ hot: results, firstCalls: first, authCost, scale }, settings);
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
  await closeIssuer();
  await closeExchange();
  await collector.stop();
}
process.exit(failed ? 1 : 0);
