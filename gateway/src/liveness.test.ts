/**
 * Stream liveness, with real processes: two control-plane replicas (child processes on one
 * PostgreSQL database, heartbeat every second) behind a round-robin TCP proxy on 127.0.0.1. The
 * replica holding the gateway's change stream is frozen (SIGSTOP); the gateway notices the
 * silence within three heartbeats, reconnects through the proxy (a connection landing on the
 * frozen replica times out quickly) and is current again — it serves an Exposition created
 * through the other replica — well within 20 s.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient, createTestDatabase, freePort, type TestDatabase } from "@atrium/control-plane/testing";
import { captureOutput, recordSecret, testLogLevel } from "@atrium/reliability/secrets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "./config.ts";
import { type Gateway, startGateway } from "./gateway.ts";
import { FIXTURE_OPENAPI, waitFor } from "./testing.ts";

const mainScript = join(import.meta.dirname, "..", "..", "control-plane", "src", "main.ts");
const scratch = mkdtempSync(join(tmpdir(), "atrium-liveness-"));
const password = "liveness-password-12";
const encryptionKey = randomBytes(32);
recordSecret("admin password", password);
recordSecret("encryption key", encryptionKey);

let database: TestDatabase;
const replicas: { child: ChildProcess; port: number }[] = [];
let proxy: RoundRobinProxy;
let gateway: Gateway | undefined;

async function startReplica(): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [mainScript], {
    env: {
      ...process.env,
      ATRIUM_PORT: String(port),
      ATRIUM_HOST: "127.0.0.1",
      ATRIUM_DATA_DIR: join(scratch, `replica-${port}`),
      ATRIUM_DATABASE_URL: database.url,
      ATRIUM_ENCRYPTION_KEYS: `v1=${encryptionKey.toString("base64")}`,
      ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "v1",
      ATRIUM_ADMIN_PASSWORD: password,
      ATRIUM_STREAM_HEARTBEAT_SECONDS: "1",
      ATRIUM_LOG_LEVEL: testLogLevel("warn"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  captureOutput("control-plane-replica", child.stdout, child.stderr);
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  await waitFor(
    async () => (await api.call("GET", "/q/health/ready").catch(() => ({ status: 0 }))).status === 200,
    "a control-plane replica to be ready",
    60_000,
  );
  return { child, port };
}

/** Hands each new connection to the next replica in turn, and says which replica holds the change stream. */
interface RoundRobinProxy {
  url: string;
  /** Index of the replica the latest change-stream request went to. */
  streamReplica: number | undefined;
  close(): Promise<void>;
}

async function startProxy(ports: number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const sockets = new Set<Socket>();
  const state: { streamReplica: number | undefined } = { streamReplica: undefined };
  const server: Server = createServer((client) => {
    const index = next++ % ports.length;
    const upstream = connect(ports[index] as number, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.on("data", (chunk: Buffer) => {
      if (/^GET \/api\/v1\/gateways\/[^ ]+\/stream/.test(chunk.toString("latin1", 0, 200))) state.streamReplica = index;
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get streamReplica() {
      return state.streamReplica;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  // One after the other: the first one migrates and bootstraps the admin.
  replicas.push(await startReplica());
  replicas.push(await startReplica());
  proxy = await startProxy(replicas.map((replica) => replica.port));
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  for (const { child } of replicas) {
    child.kill("SIGCONT");
    child.kill("SIGKILL");
  }
  await proxy?.close();
  await database?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

async function expose(admin: ApiClient, name: string, groupId: number): Promise<string> {
  const service = await admin.call("POST", "/api/v1/services", {
    name,
    version: "1",
    openapi: { inline: FIXTURE_OPENAPI },
  });
  const plan = await admin.call("POST", "/api/v1/configuration-plans", {
    name,
    serviceId: service.body.id,
    backendEndpoint: "http://127.0.0.1:9/api",
  });
  const exposition = await admin.call("POST", "/api/v1/expositions", {
    name,
    configurationPlanId: plan.body.id,
    gatewayGroupId: groupId,
  });
  expect(exposition.status).toBe(201);
  return exposition.body.id;
}

describe("a frozen control-plane replica", () => {
  it("is noticed within three heartbeats; the gateway is current again within 20 s", async () => {
    const login = { organization: "default", username: "admin", password };
    const admins = await Promise.all(
      replicas.map((replica) => new ApiClient(`http://127.0.0.1:${replica.port}`).login(login)),
    );
    const first = admins[0] as ApiClient;
    const group = await first.call("POST", "/api/v1/gateway-groups", { name: "live", labels: { env: "live" } });
    const before = await expose(first, "before", group.body.id);
    const token = (await first.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 })).body.token;

    gateway = await startGateway({
      ...configFromEnv({
        ATRIUM_CONTROL_PLANE_URL: proxy.url,
        ATRIUM_CONTROL_PLANE_TOKEN: token,
        ATRIUM_GATEWAY_ID: "gw-live",
        ATRIUM_GATEWAY_FQDNS: "gw-live.test",
        ATRIUM_GATEWAY_LABELS: "env=live",
        ATRIUM_GATEWAY_CACHE_DIR: join(scratch, "gateway-cache"),
      }),
      host: "127.0.0.1",
      port: 0,
      managementPort: 0,
      logLevel: "silent",
    });
    const live = gateway;
    await waitFor(() => live.sync.ready && live.registry.byId(before) !== undefined, "the gateway's first snapshot");
    const frozenIndex = proxy.streamReplica as number;
    expect(frozenIndex).toBeDefined();
    const frozen = replicas[frozenIndex] as { child: ChildProcess };
    const other = admins[1 - frozenIndex] as ApiClient;

    frozen.child.kill("SIGSTOP");
    const frozenAt = Date.now();
    try {
      const after = await expose(other, "after", group.body.id);
      await waitFor(() => live.registry.byId(after) !== undefined, "the change made on the other replica", 20_000);
      expect(Date.now() - frozenAt).toBeLessThan(20_000);
      expect(live.sync.stalenessSeconds()).toBeLessThan(3);
    } finally {
      frozen.child.kill("SIGCONT");
    }
  }, 60_000);
});
