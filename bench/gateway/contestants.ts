/**
 * The contestants of the gateway hot-path benchmark. Each starts as its own child process
 * pinned to the contestant core, serves `getPet(petId)` → `GET /pets/{petId}` on the shared
 * backend, proves one correct answer before it is loaded, and is loaded the way it can be
 * reached: autocannon for everything answering on the request, a closed loop over the GET
 * stream for @ivotoby/openapi-mcp-server.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ApiClient } from "@atrium/control-plane/testing";
import { testLogLevel } from "@atrium/reliability/secrets";
import { request } from "undici";
import { buildGoSdkServer, goSdkVersion } from "./go-sdk-build.ts";
import { autocannonLoad, closedLoopLoad, type HttpTarget, type LoadResult } from "./load.ts";
import {
  type ClientCredential,
  LEGACY_VERSION,
  modernHeaders,
  openLegacySession,
  petOf,
  postJson,
  StreamAnsweredSession,
  sessionHeaders,
  toolCallBody,
} from "./mcp.ts";
import {
  type Child,
  CONTESTANT_CORE,
  freePort,
  HARNESS_CORE,
  startPinned,
  startPinnedCommand,
  waitUntil,
} from "./processes.ts";
import { sessionPerConnection } from "./session-per-connection.ts";
import { createGatewayToken, login, petsOpenApi } from "./setup.ts";
import { type BenchCollector, checkTraced, TRACING_OFF, tracingEnv } from "./tracing-collector.ts";

const here = import.meta.dirname;
const listening = /listening (http:\/\/\S+)/;
const PET_ID = 7;

export interface BenchContext {
  backendUrl: string;
  controlPlaneUrl: string;
  /** The control plane's process, whose CPU the scale checks read. */
  controlPlanePid: number;
  /** The API token gateways register with. */
  gatewayToken: string;
  /** Where gateways keep their cache (a fresh directory per gateway under it) and peers their files. */
  scratchDir: string;
  /** When set, the Atrium and pass-through contestants run under `node --cpu-prof` and write their profile under it. */
  profileDir?: string | undefined;
  /** Extra `node` flags for every Atrium gateway (what-if runs, e.g. `--max-semi-space-size=16`). */
  gatewayNodeArgs: string[];
}

/**
 * What every gateway benchmark starts from: the backend and a control plane, each a child process
 * on the harness core, the test admin logged in, and an API token for gateways.
 */
export async function startBenchContext(
  options: Pick<BenchContext, "scratchDir" | "profileDir" | "gatewayNodeArgs">,
): Promise<{ context: BenchContext; admin: ApiClient }> {
  const backend = startPinned("backend", HARNESS_CORE, [join(here, "backend.ts")]);
  const controlPlane = startPinned("control plane", HARNESS_CORE, [join(here, "control-plane.ts")]);
  const backendUrl = (await backend.waitForOutput(listening))[1] ?? "";
  const controlPlaneUrl = (await controlPlane.waitForOutput(listening, 60_000))[1] ?? "";
  const admin = await login(new ApiClient(controlPlaneUrl));
  return {
    admin,
    context: {
      ...options,
      backendUrl,
      controlPlaneUrl,
      controlPlanePid: controlPlane.pid,
      gatewayToken: await createGatewayToken(admin),
    },
  };
}

export interface RunningContestant {
  child: Child;
  /** The directory its `.cpuprofile` lands in once it has stopped (profiled runs only). */
  profileDir?: string;
  /** One call, checked: a non-error result carrying the pet asked for. */
  verify(): Promise<void>;
  load(options: { connections: number; seconds: number }): Promise<LoadResult>;
  close(): Promise<void>;
}

/** The backend's protocol: an atrium contestant is held to the pass-through of its own protocol. */
export type BackendProtocol = "openapi" | "graphql" | "grpc";

export interface Contestant {
  name: string;
  /** GraphQL contestants (and their pass-through) call the GraphQL backend; the others, absent, the REST one. */
  protocol?: BackendProtocol;
  /** What it is, for the report. */
  description: string;
  /** Atrium contestants: how its endpoint authenticates clients (the report compares each mode with none). */
  auth?: AtriumAuth;
  /** Atrium contestants: stateless 2026-07-28 calls, or 2025 sessions (the report compares them). */
  era?: AtriumEra;
  /** Atrium contestants whose plan exchanges each caller's token for the backend's (the report holds them to OAuth). */
  backendToken?: BackendToken;
  /** Atrium contestants tracing (issue 24): the sampling ratio (the report holds them to the untraced one). */
  tracingRatio?: number;
  /** Another process of the contestant so named (run.ts --replicas): the tracing ratios compare their medians. */
  replicaOf?: string;
  start(context: BenchContext): Promise<RunningContestant>;
}

export const profilerArgs = (profileDir: string | undefined) =>
  profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];

/** A contestant answering on the HTTP request itself, loaded with autocannon. */
function onRequest(child: Child, target: HttpTarget, verify: () => Promise<void>): RunningContestant {
  return {
    child,
    verify,
    load: (options) => autocannonLoad(target, options),
    close: () => child.stop(),
  };
}

function checkPet(response: unknown): void {
  const pet = petOf(response);
  if (pet.id !== PET_ID) throw new Error(`asked for pet ${PET_ID}, got pet ${pet.id}`);
}

/** A contestant loaded with MCP 2026-07-28 stateless tools/call of getPet, `headers` on each. */
function statelessCalls(
  child: Child,
  url: string,
  headers: Record<string, string>,
  tool = "getPet",
): RunningContestant {
  return onRequest(child, { url, method: "POST", headers, body: toolCallBody("[<id>]", PET_ID, tool, true) }, () =>
    postJson(url, headers, toolCallBody(1, PET_ID, tool, true)).then((r) => checkPet(r.json)),
  );
}

export const direct: Contestant = {
  name: "direct",
  description: "The backend itself (a second instance, pinned like the contestants), `GET /pets/7` without MCP.",
  start: async () => {
    const child = startPinned("direct backend", CONTESTANT_CORE, [join(here, "backend.ts")]);
    const url = (await child.waitForOutput(listening))[1] ?? "";
    const target: HttpTarget = { url: `${url}/pets/${PET_ID}`, method: "GET", headers: {} };
    return onRequest(child, target, async () => {
      const response = await request(target.url);
      const pet = (await response.body.json()) as { id?: number };
      if (response.statusCode !== 200 || pet.id !== PET_ID)
        throw new Error(`direct: unexpected ${JSON.stringify(pet)}`);
    });
  },
};

export const passThrough: Contestant = {
  name: "pass-through",
  description:
    "fastify + undici Pool: parse the JSON-RPC body, `GET /pets/{petId}`, wrap the body as a text result (pass-through.ts). No validation or header checks.",
  start: async (context) => {
    // Profiled too when the gateway is: the difference between the two profiles is the gateway's own work.
    const profileDir = context.profileDir && join(context.profileDir, "pass-through");
    const child = startPinned("pass-through", CONTESTANT_CORE, [
      ...profilerArgs(profileDir),
      join(here, "pass-through.ts"),
      context.backendUrl,
    ]);
    const url = `${(await child.waitForOutput(listening))[1]}/mcp`;
    const running = statelessCalls(child, url, modernHeaders("getPet"));
    return profileDir ? { ...running, profileDir } : running;
  },
};

/** The GraphQL contestants' backend (graphql-backend.ts), a child process on the harness core: its URL. */
export async function startGraphqlBackend(): Promise<string> {
  const child = startPinned("GraphQL backend", HARNESS_CORE, [join(here, "graphql-backend.ts")]);
  return (await child.waitForOutput(listening))[1] ?? "";
}

export const GRAPHQL_PASS_THROUGH = "GraphQL pass-through";

/** pass-through.ts in its GraphQL mode, in front of the GraphQL backend at `backendUrl`. */
export function graphqlPassThrough(backendUrl: string): Contestant {
  return {
    name: GRAPHQL_PASS_THROUGH,
    protocol: "graphql",
    description:
      "pass-through.ts in its GraphQL mode: parse the JSON-RPC body, `POST /graphql` of the gateway's own document with `{petId}` as variables to the GraphQL backend (graphql-http, graphql-backend.ts), wrap its body as a text result. No validation, the answer not read.",
    start: async (context) => {
      const profileDir = context.profileDir && join(context.profileDir, "graphql-pass-through");
      const child = startPinned("GraphQL pass-through", CONTESTANT_CORE, [
        ...profilerArgs(profileDir),
        join(here, "pass-through.ts"),
        backendUrl,
        "graphql",
      ]);
      const url = `${(await child.waitForOutput(listening))[1]}/mcp`;
      const running = statelessCalls(child, url, modernHeaders("getPet"));
      return profileDir ? { ...running, profileDir } : running;
    },
  };
}

/** The real gateway (`gateway/src/main.ts`) serving `expositionId` from the control plane, fresh cache. */
export async function startAtriumGateway(
  context: BenchContext,
  options: {
    id: string;
    role: string;
    expectedExpositions: number;
    readyTimeoutMs?: number;
    nodeArgs?: string[];
    /** Tracing's variables (tracingEnv); without them, tracing is off. */
    env?: Record<string, string>;
  },
): Promise<{ child: Child; url: string; readyMs: number }> {
  const port = await freePort();
  // Several gateways run side by side: each needs a management port of its own.
  const managementPort = await freePort();
  const started = performance.now();
  const child = startPinned(
    `gateway ${options.id}`,
    CONTESTANT_CORE,
    [...context.gatewayNodeArgs, ...(options.nodeArgs ?? []), "gateway/src/main.ts"],
    {
      ATRIUM_CONTROL_PLANE_URL: context.controlPlaneUrl,
      ATRIUM_CONTROL_PLANE_TOKEN: context.gatewayToken,
      ATRIUM_GATEWAY_ID: options.id,
      ATRIUM_GATEWAY_HOST: "127.0.0.1",
      ATRIUM_GATEWAY_PORT: String(port),
      ATRIUM_GATEWAY_MANAGEMENT_PORT: String(managementPort),
      ATRIUM_GATEWAY_FQDNS: `127.0.0.1:${port}`,
      ATRIUM_GATEWAY_LABELS: `role=${options.role}`,
      ATRIUM_GATEWAY_CACHE_DIR: join(context.scratchDir, `cache-${options.id}`),
      ATRIUM_GATEWAY_SESSION_KEY: Buffer.alloc(32, 9).toString("base64"),
      ATRIUM_LOG_LEVEL: testLogLevel("warn"),
      ...TRACING_OFF,
      ...options.env,
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      const response = await request(`${url}/q/health/ready`);
      const health = (await response.body.json()) as { status?: string; expositions?: number };
      return health.status === "UP" && (health.expositions ?? 0) >= options.expectedExpositions;
    },
    `gateway ${options.id} ready with ${options.expectedExpositions} exposition(s); output:\n${child.output()}`,
    options.readyTimeoutMs ?? 30_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.output()}`);
  });
  return { child, url, readyMs: performance.now() - started };
}

/** How an Atrium contestant's Exposition authenticates its clients. */
export type AtriumAuth = "none" | "apiKey" | "oauth";
/** What an Atrium contestant's plan sends the backend besides the call: a token exchanged for the caller's. */
export type BackendToken = "exchange";
/** How an Atrium contestant's clients speak MCP: stateless 2026-07-28 requests, or 2025 sessions. */
export type AtriumEra = "stateless" | "session";

const AUTH_DESCRIPTIONS: Record<AtriumAuth, string> = {
  none: "an Exposition without client auth.",
  apiKey: "an Exposition whose plan has an API key (`x-atrium-key`).",
  oauth:
    "an Exposition whose plan has `oauth` (issuer and `jwksUri` of a local JWKS server, `audience` and a required scope set): one RS256 access token (`Authorization: Bearer`) on every call, as a client reuses its token until it expires — verified once, then found in the gateway's token cache.",
};

/** Serves `exposition` from a fresh gateway (profiled when the run profiles): the endpoint's URL. */
async function startExpositionGateway(
  context: BenchContext,
  exposition: { id: string; gatewayId: string; role: string },
  env?: Record<string, string>,
): Promise<{ child: Child; url: string; profileDir?: string }> {
  const profileDir = context.profileDir && join(context.profileDir, exposition.gatewayId);
  const gateway = await startAtriumGateway(context, {
    id: exposition.gatewayId,
    role: exposition.role,
    expectedExpositions: 1,
    nodeArgs: profilerArgs(profileDir),
    ...(env ? { env } : {}),
  });
  const url = `${gateway.url}/mcp/${exposition.id}`;
  return profileDir ? { child: gateway.child, url, profileDir } : { child: gateway.child, url };
}

const EXCHANGE_DESCRIPTION =
  " Its plan's backend secret is `tokenExchange` (`tokenUrl` of a local RFC 8693 token endpoint, token-exchange-server.ts in the runner: client_secret_basic, the client secret stored in the control plane, the subject token verified, an RS256 JWT for the backend's audience answered, valid 4 h): the caller's token is exchanged once, on the first call, and every later call finds the exchanged token in the gateway's exchange cache (per plan and caller) and sends it to the backend as `Authorization: Bearer` — the steady state. Checked before it is loaded: a second call exchanges nothing; and after each load: no exchange during it. The first exchange is timed apart (*First call with a token* below).";

/** The token endpoint of a token-exchange contestant: how many exchanges it has answered so far. */
export interface ExchangeCounter {
  exchanges: number;
}

/**
 * Wraps a token-exchange contestant's check and load: one call then another that must not
 * exchange (the cache holds), and loads during which nothing is exchanged (the steady state).
 */
function steadyExchange(running: RunningContestant, endpoint: ExchangeCounter): RunningContestant {
  return {
    ...running,
    verify: async () => {
      await running.verify();
      const before = endpoint.exchanges;
      if (before === 0) throw new Error("a call went through without a token exchange");
      await running.verify();
      if (endpoint.exchanges !== before)
        throw new Error("the second call with the same token exchanged it again: the exchange cache did not hold");
    },
    load: async (options) => {
      const before = endpoint.exchanges;
      const result = await running.load(options);
      const during = endpoint.exchanges - before;
      if (during > 0) throw new Error(`${during} token exchange(s) during the load: not the steady state`);
      return result;
    },
  };
}

export function atrium(
  name: string,
  exposition: {
    id: string;
    auth: AtriumAuth;
    credential?: ClientCredential;
    gatewayId: string;
    role: string;
    protocol?: BackendProtocol;
    /** The tool called, when not getPet (a gRPC Service's tools are named <Service>_<Method>). */
    tool?: string;
    /** The token endpoint of a plan exchanging the caller's token (needs auth oauth). */
    exchange?: ExchangeCounter;
    /** Tracing on at this sampling ratio, exported to the collector (issue 24). */
    tracing?: { ratio: number; collector: BenchCollector };
  },
): Contestant {
  const graphql =
    exposition.protocol === "graphql"
      ? " The Service is the GraphQL backend's schema (kind graphql): each call POSTs the imported document to graphql-http, and the answer's data is checked against the tool's outputSchema and returned as structuredContent."
      : exposition.protocol === "grpc"
        ? " The Service is the gRPC backend's .proto (kind grpc), published at its grpc:// address: each call encodes the arguments as the request message (@bufbuild/protobuf), calls pets.v1.Pets/GetPet over the gateway's pooled @grpc/grpc-js channel, and decodes the answer to proto3 JSON, checked against the tool's outputSchema and returned as structuredContent."
        : "";
  const tool = exposition.tool ?? "getPet";
  const { exchange, tracing } = exposition;
  return {
    name,
    auth: exposition.auth,
    era: "stateless",
    ...(exposition.protocol ? { protocol: exposition.protocol } : {}),
    ...(exchange ? { backendToken: "exchange" as const } : {}),
    ...(tracing ? { tracingRatio: tracing.ratio } : {}),
    description: `The gateway (\`gateway/src/main.ts\`, fed by a control plane), MCP 2026-07-28 stateless tools/call, ${AUTH_DESCRIPTIONS[exposition.auth]}${graphql}${exchange ? EXCHANGE_DESCRIPTION : ""}${tracing ? tracingDescription(tracing.ratio) : ""}`,
    start: async (context) => {
      const collector = await tracing?.collector.get();
      const env = collector && tracing ? tracingEnv(collector, tracing.ratio, exposition.gatewayId) : undefined;
      const { child, url, profileDir } = await startExpositionGateway(context, exposition, env);
      const calls = statelessCalls(child, url, modernHeaders(tool, exposition.credential), tool);
      if (collector && tracing) await checkTraced(collector, exposition.gatewayId, tracing.ratio, calls.verify);
      const running = exchange ? steadyExchange(calls, exchange) : calls;
      return profileDir ? { ...running, profileDir } : running;
    },
  };
}

const tracingDescription = (ratio: number) =>
  ` Tracing on (issue 24): \`OTEL_EXPORTER_OTLP_ENDPOINT\` set, so the gateway starts the OpenTelemetry Node SDK, \`OTEL_TRACES_SAMPLER=parentbased_traceidratio\`, \`OTEL_TRACES_SAMPLER_ARG=${ratio}\` (${ratio * 100} % of the calls, which carry no traceparent, sampled), the SDK's batch span processor with its defaults, OTLP/HTTP (protobuf) to a real OpenTelemetry Collector (@atrium/test-collector: OTLP receiver, file exporter) on core 1 with the harness. A server span per call, a client span per backend call (its traceparent sent to the backend, sampled or not). Checked before it is loaded: ${ratio >= 1 ? "20 calls reach the collector, each server span with its backend call's span as a child" : "of 1,000 calls, at least one reaches the collector with its backend call's span, and no more than three times the ratio's share"}.`;

/** The gRPC contestants' backend (grpc-backend.ts), a child process on the harness core: its `grpc://` URL. */
export async function startGrpcBackend(): Promise<string> {
  const child = startPinned("gRPC backend", HARNESS_CORE, [join(here, "grpc-backend.ts")]);
  return (await child.waitForOutput(/listening (grpc:\/\/\S+)/))[1] ?? "";
}

export const GRPC_PASS_THROUGH = "gRPC pass-through";

/**
 * grpc-pass-through.ts in front of the gRPC backend at `backendUrl`, with the .proto's descriptors
 * (`descriptorSet`, base64), called as `tool` (the gateway's name, so both get the same request).
 */
export function grpcPassThrough(backendUrl: string, descriptorSet: string, tool: string): Contestant {
  return {
    name: GRPC_PASS_THROUGH,
    protocol: "grpc",
    description:
      "grpc-pass-through.ts: parse the JSON-RPC body, encode its arguments as the request message (proto3 JSON to binary with @bufbuild/protobuf and the .proto's descriptors, pets-grpc.ts), call pets.v1.Pets/GetPet with one @grpc/grpc-js client, decode the answer to proto3 JSON and wrap it as a text result. The same protocol work as the gateway; no validation, metadata, limits or metrics.",
    start: async (context) => {
      const profileDir = context.profileDir && join(context.profileDir, "grpc-pass-through");
      const child = startPinned(GRPC_PASS_THROUGH, CONTESTANT_CORE, [
        ...profilerArgs(profileDir),
        join(here, "grpc-pass-through.ts"),
        backendUrl,
        descriptorSet,
      ]);
      const url = `${(await child.waitForOutput(listening))[1]}/mcp`;
      const running = statelessCalls(child, url, modernHeaders(tool), tool);
      return profileDir ? { ...running, profileDir } : running;
    },
  };
}

/** How the gateway answers a 2025 session's calls: JSON, or SSE when the session asked for log messages. */
export type SessionAnswers = "json" | "sse";

/** `logging/setLevel` at info: the gateway then says how the backend answered each call, on an SSE answer. */
const SET_LOG_LEVEL = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "info" } });

const SESSION_ANSWERS: Record<SessionAnswers, { contentType: string; description: string }> = {
  json: { contentType: "application/json", description: "the gateway answers each call with JSON." },
  sse: {
    contentType: "text/event-stream",
    description:
      "each session also sends `logging/setLevel` (info) once, so the gateway answers each call as SSE: a `notifications/message` saying how the backend answered, then the result.",
  },
};

/** The gateway in the 2025 session era, as VS Code, Claude Desktop and Cursor reach it (an open Exposition). */
export function atriumSession(
  name: string,
  exposition: { id: string; gatewayId: string; role: string },
  answers: SessionAnswers,
): Contestant {
  const setup = answers === "sse" ? [SET_LOG_LEVEL] : [];
  const expected = SESSION_ANSWERS[answers];
  return {
    name,
    auth: "none",
    era: "session",
    description: `The gateway (\`gateway/src/main.ts\`, fed by a control plane), MCP ${LEGACY_VERSION} sessions, an Exposition without client auth: each connection sends \`initialize\` and \`notifications/initialized\` once, then only tools/call with its \`Mcp-Session-Id\` and \`MCP-Protocol-Version\` (session-per-connection.ts), \`Accept: application/json, text/event-stream\` as those clients send it; ${expected.description}`,
    start: async (context) => {
      const { child, url, profileDir } = await startExpositionGateway(context, exposition);
      const target = sessionPerConnection(url, toolCallBody("[<id>]", PET_ID), { setup });
      const running = onRequest(child, target, async () => {
        const { sessionId, protocolVersion } = await openLegacySession(url);
        if (protocolVersion !== LEGACY_VERSION)
          throw new Error(`initialize asked for ${LEGACY_VERSION} and was given ${protocolVersion}`);
        const headers = sessionHeaders(sessionId, protocolVersion);
        for (const body of setup) await postJson(url, headers, body);
        const answer = await postJson(url, headers, toolCallBody(1, PET_ID));
        checkPet(answer.json);
        const type = String(answer.headers["content-type"]);
        if (!type.startsWith(expected.contentType))
          throw new Error(`the description says the gateway answers ${expected.contentType}, and it answered ${type}`);
      });
      return profileDir ? { ...running, profileDir } : running;
    },
  };
}

export const officialSdk: Contestant = {
  name: "official SDK",
  description:
    "`@modelcontextprotocol/sdk` 1.32.2: McpServer + StreamableHTTPServerTransport, stateful, one session, `enableJsonResponse: true`, tool calls the backend with undici (sdk-server.ts). 2025-11-25 session protocol.",
  start: async (context) => {
    const child = startPinned("official SDK server", CONTESTANT_CORE, [
      join(here, "sdk-server.ts"),
      context.backendUrl,
    ]);
    const url = (await child.waitForOutput(listening))[1] ?? "";
    const { sessionId, protocolVersion } = await openLegacySession(url);
    const headers = sessionHeaders(sessionId, protocolVersion);
    return onRequest(child, { url, method: "POST", headers, body: toolCallBody("[<id>]", PET_ID) }, () =>
      postJson(url, headers, toolCallBody(1, PET_ID)).then((r) => checkPet(r.json)),
    );
  },
};

export const goSdk: Contestant = {
  name: "official Go SDK",
  description: `\`github.com/modelcontextprotocol/go-sdk\` ${goSdkVersion()} (go-sdk-server/main.go, built once by go-sdk-build.ts): one getPet tool calling the backend with net/http (64 idle connections kept), behind \`mcp.NewStreamableHTTPHandler\` with \`Stateless: true, JSONResponse: true\`; the same MCP 2026-07-28 stateless tools/call as the gateway gets. The compiled-language anchor; pinned like the others, so Go runs with one P.`,
  start: async (context) => {
    const binary = await buildGoSdkServer((line) => process.stderr.write(`[go-sdk build] ${line}\n`));
    const child = startPinnedCommand("official Go SDK server", CONTESTANT_CORE, binary, [context.backendUrl]);
    const url = (await child.waitForOutput(listening))[1] ?? "";
    return statelessCalls(child, url, modernHeaders("getPet"));
  },
};

export const ivotoby: Contestant = {
  name: "@ivotoby/openapi-mcp-server",
  description:
    "`@ivotoby/openapi-mcp-server` 1.16.1 CLI, `--transport http`, the same OpenAPI document. One 2025 session; tools/call POSTs get 202 and the result arrives on the session's GET stream, so it is driven by a closed loop (POST, await the result on the stream) instead of autocannon.",
  start: async (context) => {
    const { child, url, tool } = await startIvotobyServer(context, "@ivotoby/openapi-mcp-server");
    const session = await StreamAnsweredSession.open(url, 64);
    let nextId = 1;
    const call = async () => {
      const id = nextId++;
      return session.call(id, toolCallBody(id, PET_ID, tool));
    };
    return {
      child,
      verify: async () => checkPet(await call()),
      load: (options) =>
        closedLoopLoad(async () => {
          await call();
        }, options),
      close: async () => {
        await session.close();
        await child.stop();
      },
    };
  },
};

/** @ivotoby/openapi-mcp-server's CLI over HTTP, serving the pets document; `tool` is its name for getPet. */
export async function startIvotobyServer(
  context: BenchContext,
  name: string,
): Promise<{ child: Child; url: string; tool: string }> {
  const specFile = join(context.scratchDir, "ivotoby-openapi.json");
  writeFileSync(specFile, JSON.stringify(petsOpenApi()));
  const port = await freePort();
  const cli = join(dirname(fileURLToPath(import.meta.resolve("@ivotoby/openapi-mcp-server"))), "cli.js");
  const child = startPinned(name, CONTESTANT_CORE, [
    cli,
    "--api-base-url",
    context.backendUrl,
    "--openapi-spec",
    specFile,
    "--transport",
    "http",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--verbose",
    "false",
  ]);
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitUntil(async () => {
    const response = await request(`http://127.0.0.1:${port}/health`);
    await response.body.dump();
    return response.statusCode === 200;
  }, `${name} listening`).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.output()}`);
  });
  return { child, url, tool: await ivotobyToolName(url) };
}

/** The name it gave `GET /pets/{petId}` (it derives names from method and path, not operationId). */
async function ivotobyToolName(url: string): Promise<string> {
  const { sessionId, protocolVersion } = await openLegacySession(url);
  const listed = await postJson(
    url,
    sessionHeaders(sessionId, protocolVersion),
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  );
  const tools = (listed.json as { result?: { tools?: { name: string }[] } }).result?.tools ?? [];
  const tool = tools.find((t) => /pet/i.test(t.name));
  if (!tool) throw new Error(`no pet tool in ${JSON.stringify(tools.map((t) => t.name))}`);
  return tool.name;
}
