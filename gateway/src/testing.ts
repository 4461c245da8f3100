/**
 * Test support: a real backend HTTP server (a small pet store with a slow, an image and a
 * header-echo operation), and a control plane + gateway stack serving it.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startTracing } from "@atrium/contract/telemetry";
import {
  type Exposed,
  expose,
  startTestControlPlane,
  type TestControlPlane,
  useDuringTests,
} from "@atrium/control-plane/testing";
import { recordSecret, recordSecretFields, testLogFile, testLogging } from "@atrium/reliability/secrets";
import { startCollector, type TestCollector } from "@atrium/test-collector";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { allowedHosts, type GatewayConfig } from "./config.ts";
import { type Gateway, startGateway } from "./gateway.ts";

export const FIXTURE_OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Fixture pets", version: "1.0.0" },
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        summary: "List pets",
        parameters: [{ name: "status", in: "query", schema: { type: "string", enum: ["available", "sold"] } }],
        responses: {
          "200": {
            description: "pets",
            content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Pet" } } } },
          },
        },
      },
      post: {
        operationId: "createPet",
        summary: "Add a pet",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
        },
        responses: {
          "201": {
            description: "created",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
        },
      },
    },
    "/pets/{petId}": {
      get: {
        operationId: "getPet",
        summary: "Get a pet",
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
        responses: {
          "200": {
            description: "pet",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
          "404": { description: "no such pet" },
        },
      },
      delete: {
        operationId: "deletePet",
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "204": { description: "deleted" } },
      },
    },
    "/slow": {
      get: { operationId: "slow", summary: "Answers after 2 s", responses: { "200": { description: "ok" } } },
    },
    "/image": {
      get: {
        operationId: "image",
        summary: "A PNG",
        responses: { "200": { description: "png", content: { "image/png": {} } } },
      },
    },
    "/echo-headers": {
      get: {
        operationId: "echoHeaders",
        summary: "Echoes request headers",
        responses: { "200": { description: "headers" } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: "object",
        required: ["name"],
        properties: { id: { type: "integer" }, name: { type: "string" }, status: { type: "string" } },
      },
    },
  },
});

/** 1×1 transparent PNG. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

export interface FixtureBackend {
  url: string;
  /** Requests the backend received, newest last. */
  received: { method: string; url: string; headers: IncomingMessage["headers"] }[];
  close(): Promise<void>;
}

export async function startFixtureBackend(): Promise<FixtureBackend> {
  const pets = new Map<number, { id: number; name: string; status: string }>([
    [1, { id: 1, name: "Rex", status: "available" }],
    [2, { id: 2, name: "Tom", status: "sold" }],
  ]);
  const received: FixtureBackend["received"] = [];
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "x-ratelimit-remaining": "42" });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      const url = new URL(req.url ?? "/", "http://backend");
      const path = url.pathname.replace(/^\/api/, "");
      const petId = /^\/pets\/([^/]+)$/.exec(path)?.[1];
      if (path === "/pets" && req.method === "GET") {
        const status = url.searchParams.get("status");
        return json(
          res,
          200,
          [...pets.values()].filter((p) => !status || p.status === status),
        );
      }
      if (path === "/pets" && req.method === "POST") {
        const pet = { id: pets.size + 1, status: "available", ...JSON.parse(body || "{}") };
        pets.set(pet.id, pet);
        return json(res, 201, pet);
      }
      if (petId && req.method === "GET") {
        const pet = pets.get(Number(petId));
        return pet ? json(res, 200, pet) : json(res, 404, { error: `no pet ${petId}` });
      }
      if (petId && req.method === "DELETE") {
        pets.delete(Number(petId));
        res.writeHead(204).end();
        return;
      }
      if (path === "/slow") {
        setTimeout(() => json(res, 200, { slow: true }), 2000).unref();
        return;
      }
      if (path === "/image") {
        res.writeHead(200, { "content-type": "image/png" }).end(PNG);
        return;
      }
      if (path === "/echo-headers") return json(res, 200, req.headers);
      json(res, 404, { error: `no route ${req.method} ${path}` });
    });
  });
  return { ...(await listenLocally(server)), received };
}

/** Listens on a free loopback port; `close` also drops kept-alive connections. */
export async function listenLocally(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A gateway's configuration for tests: loopback listeners on free ports, DNS-rebinding
 * protection on (its FQDN `<id>.test`, localhost and the loopback addresses), quiet log (to the
 * run dir during a run, its secrets in the ledger), short key-set cooldown; what differs per test is given.
 */
export function testGatewayConfig(
  given: Pick<GatewayConfig, "controlPlaneUrl" | "controlPlaneToken" | "id" | "cacheDir"> & Partial<GatewayConfig>,
): GatewayConfig {
  const config: GatewayConfig = {
    host: "127.0.0.1",
    port: 0,
    fqdns: [`${given.id}.test`],
    labels: {},
    sessionKey: randomBytes(32),
    clusterKey: randomBytes(32),
    bodyLimitBytes: 1024 * 1024,
    maxResultBytes: 1024 * 1024,
    ...testLogging("gateway"),
    allowedHosts: allowedHosts([`${given.id}.test`], ""),
    managementHost: "127.0.0.1",
    managementPort: 0,
    maxBatchSize: 32,
    progressAfterMs: 1_000,
    headersTimeoutMs: 5_000,
    requestTimeoutMs: 10_000,
    maxConnectionsPerAddress: 256,
    jwksCooldownMs: 1_000,
    tokenCacheSize: 1_000,
    // Audit events are a log too: to the run dir during a run (standard output otherwise, as before).
    auditFile: testLogFile("gateway-audit", "jsonl"),
    ...given,
  };
  recordSecret("gateway session key", config.sessionKey);
  recordSecretFields({ token: config.controlPlaneToken });
  return config;
}

export interface Stack {
  controlPlane: TestControlPlane;
  backend: FixtureBackend;
  /** The API token gateways register with. */
  token: string;
  serviceId: string;
  planId: string;
  apiKey: string;
  expositionId: string;
  /** The gateway group (`test`, selecting `env: test`) the stack's gateways belong to. */
  groupId: number;
  /** `/mcp/<exposition_id>` on a gateway. */
  mcpPath: string;
  /**
   * Another Exposition `name` on the gateways' group, with a plan of its own (`plan`: fields
   * beside the Service; the backend is the fixture backend unless it says otherwise) on the
   * fixture Service, or on a new Service `name` of the `openapi` document.
   */
  expose(name: string, options?: { plan?: Record<string, unknown>; openapi?: string }): Promise<Exposed>;
  gatewayConfig(overrides?: Partial<GatewayConfig>): GatewayConfig;
  startGateway(overrides?: Partial<GatewayConfig>): Promise<Gateway>;
  close(): Promise<void>;
}

/** A control plane (PGlite), the fixture backend, and an Exposition of it with an API key. */
export async function startStack(
  options: { backendTimeoutMs?: number; controlPlane?: Parameters<typeof startTestControlPlane>[1] } = {},
): Promise<Stack> {
  const controlPlane = await startTestControlPlane("pglite", options.controlPlane);
  const backend = await startFixtureBackend();
  const admin = controlPlane.admin;
  const service = await admin.call("POST", "/api/v1/services", {
    name: "fixture",
    version: "1",
    openapi: { inline: FIXTURE_OPENAPI },
  });
  const plan = await admin.call("POST", "/api/v1/configuration-plans", {
    name: "fixture-plan",
    serviceId: service.body.id,
    backendEndpoint: `${backend.url}/api`,
    apiKey: true,
    backendTimeoutMs: options.backendTimeoutMs ?? 500,
    headerPolicy: { forwardRequestHeaders: ["X-Request-Id"], forwardResponseHeaders: ["X-RateLimit-Remaining"] },
  });
  const group = await admin.call("POST", "/api/v1/gateway-groups", { name: "test", labels: { env: "test" } });
  const exposition = await admin.call("POST", "/api/v1/expositions", {
    name: "fixture",
    configurationPlanId: plan.body.id,
    gatewayGroupId: group.body.id,
  });
  const token = (await admin.call("POST", "/api/v1/api-tokens", { name: "gateways", validityDays: 1 })).body
    .token as string;
  const sessionKey = randomBytes(32);
  const cacheRoot = `/tmp/atrium-gateway-test-${randomBytes(6).toString("hex")}`;
  let gateways = 0;
  const gatewayConfig = (overrides: Partial<GatewayConfig> = {}): GatewayConfig => {
    gateways += 1;
    const id = `gw-${gateways}`;
    return testGatewayConfig({
      controlPlaneUrl: controlPlane.url,
      controlPlaneToken: token,
      id,
      labels: { env: "test" },
      cacheDir: `${cacheRoot}/${id}`,
      sessionKey,
      bodyLimitBytes: 64 * 1024,
      maxResultBytes: 64 * 1024,
      ...overrides,
    });
  };
  const started: Gateway[] = [];
  return {
    controlPlane,
    backend,
    token,
    serviceId: service.body.id,
    planId: plan.body.id,
    apiKey: plan.body.apiKey,
    expositionId: exposition.body.id,
    groupId: group.body.id,
    mcpPath: `/mcp/${exposition.body.id}`,
    expose: (name, options = {}) =>
      expose(admin, name, {
        groupId: group.body.id,
        ...(options.openapi ? { service: { openapi: { inline: options.openapi } } } : { serviceId: service.body.id }),
        plan: { backendEndpoint: `${backend.url}/api`, ...options.plan },
      }),
    gatewayConfig,
    startGateway: async (overrides) => {
      const gateway = await startGateway(gatewayConfig(overrides));
      started.push(gateway);
      await waitFor(() => gateway.sync.ready && gateway.registry.size > 0, "gateway ready with the exposition");
      return gateway;
    },
    close: async () => {
      await Promise.all(started.map((g) => g.close().catch(() => undefined)));
      await controlPlane.close().catch(() => undefined); // a test may have stopped it already
      await backend.close();
      const { rmSync } = await import("node:fs");
      rmSync(cacheRoot, { recursive: true, force: true });
    },
  };
}

/**
 * For the test file (or describe block): a stack started before its tests (then handed to
 * `started`, which the file uses to keep it) and closed after them.
 */
export function useStack(started: (stack: Stack) => unknown, options: Parameters<typeof startStack>[0] = {}): void {
  useDuringTests(
    () => startStack(options),
    (stack) => stack.close(),
    async (stack) => started(stack),
  );
}

/** Like {@link useStack}, with one gateway of it ready with the stack's Exposition. */
export function useStackWithGateway(
  started: (running: { stack: Stack; gateway: Gateway }) => unknown,
  options: Parameters<typeof startStack>[0] = {},
): void {
  useStack(async (stack) => started({ stack, gateway: await stack.startGateway() }), options);
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The `_meta` a 2026-07-28 (modern era) request carries: protocol version, capabilities, and the client `client`. */
export function modernMeta(client = "test"): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: client, version: "1" },
  };
}

/** The headers of a modern-era request: JSON in, JSON or SSE out, the version, `mcp-method`, `mcp-name` for a tool; `extra` beside. */
export function modernHeaders(
  method: string,
  name?: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name ? { "mcp-name": name } : {}),
    ...extra,
  };
}

/**
 * A modern-era JSON-RPC POST, as undici's `request` options: `method` with `params` and the era's
 * `_meta`; `mcp-name` from `params.name` (a tool call); `headers` beside (credentials).
 */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  options: { id?: number; client?: string; headers?: Record<string, string> } = {},
): { method: "POST"; headers: Record<string, string>; body: string } {
  const tool = typeof params.name === "string" ? params.name : undefined;
  return {
    method: "POST",
    headers: modernHeaders(method, tool, options.headers),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: options.id ?? 1,
      method,
      params: { ...params, _meta: modernMeta(options.client) },
    }),
  };
}

/** The official v1 client, connected in a 2025-11-25 session to `url` with the plan's API key. */
export async function connectLegacyClient(url: string, apiKey: string, name = "test"): Promise<LegacyClient> {
  const client = new LegacyClient({ name, version: "1" });
  await client.connect(new LegacyTransport(new URL(url), { requestInit: { headers: { "x-atrium-key": apiKey } } }));
  return client;
}

/** The official v2 client pinned to 2026-07-28, connected to `url` with the plan's API key. */
export async function connectModernClient(url: string, apiKey: string, name = "test"): Promise<ModernClient> {
  const client = new ModernClient({ name, version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new ModernTransport(new URL(url), { requestInit: { headers: { "x-atrium-key": apiKey } } }));
  return client;
}

export type OfficialClient = LegacyClient | ModernClient;

/**
 * Both official clients, for `describe.each`: v1 in a 2025-11-25 session and v2 pinned to
 * 2026-07-28, each connected to the endpoint `target()` names when the test runs.
 */
export function officialClients(
  target: () => { url: string; apiKey: string },
): { era: string; connect: () => Promise<OfficialClient> }[] {
  return [
    { era: "v1, 2025-11-25 session", connect: () => connectLegacyClient(target().url, target().apiKey) },
    { era: "v2, 2026-07-28", connect: () => connectModernClient(target().url, target().apiKey) },
  ];
}

/** `use` with a client of `connect`, closed afterwards whatever `use` does. */
export async function withClient<C extends { close(): Promise<void> }>(
  connect: () => Promise<C>,
  use: (client: C) => Promise<void>,
): Promise<void> {
  const client = await connect();
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

/**
 * This test process traced as production is, to a real collector: OTEL_EXPORTER_OTLP_ENDPOINT set
 * (the SDK reads it from the environment) and the SDK started. `stop` shuts the SDK down, stops
 * the collector and restores the environment. The SDK is process-wide: one per test file. `env`:
 * more `OTEL_*` variables (a sampler).
 */
export async function startTracedProcess(
  service = "atrium-gateway",
  env: Record<string, string> = {},
): Promise<{ collector: TestCollector; stop(): Promise<void> }> {
  const saved = { ...process.env };
  const collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.otlpHttpEndpoint;
  process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
  Object.assign(process.env, env);
  const traces = await startTracing({ name: service, version: "test" }, () => import("@opentelemetry/sdk-node"));
  return {
    collector,
    async stop() {
      await traces?.shutdown();
      await collector.stop();
      process.env = saved;
    },
  };
}
