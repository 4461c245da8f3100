/**
 * Test support: control planes on a real PostgreSQL (a fresh database per call, dropped
 * afterwards) or on in-memory PGlite, and a small JSON client for the REST API.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { petstoreOpenApi } from "@atrium/crds";
import { recordSecret, recordSecretFields, testLogging } from "@atrium/reliability/secrets";
import type { SQL } from "drizzle-orm";
import pg from "pg";
import { request } from "undici";
import { afterAll, beforeAll, expect } from "vitest";
import { type ControlPlane, startControlPlane } from "./app.ts";
import { type ControlPlaneConfig, configFromEnv } from "./config.ts";
import { parseKeySet } from "./secrets/key-set.ts";

/** Values and mutations for fuzz tests (fast-check). */
export { type Json, mutatedAt } from "./fuzz-values.ts";
/** The GraphQL importer on its own, and its small store schema, for the gateway's GraphQL tests (issue 21). */
export { importGraphqlText } from "./graphql/import.ts";
export { storeSdl } from "./graphql/test-schemas.ts";
/**
 * The OpenAPI importer on its own (no database), for its benchmark; the import proper in this
 * thread (what the import worker runs) and its coded refusal, for the import fuzz test.
 */
export { importOpenApi, importText, OpenApiImportError } from "./openapi/import.ts";
export { runImportInWorker } from "./openapi/run-import.ts";
/** An OpenAPI document whose schemas refer to each other `fanout` times per level (issue 11). */
export { referenceChain } from "./openapi/test-documents.ts";
/** A throwaway PKI (openssl) for TLS tests: the reflection import's over grpcs, the gateway's backend TLS. */
export { createPki, type Pem, startMtlsBackend, type TestPki } from "./test-pki.ts";

/** The Pet Store OpenAPI document of crds/samples (the working set's Service). */
export const sampleOpenApi = petstoreOpenApi;

/** A TCP port free on 127.0.0.1 right now, for a child process that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The error `work` throws, after checking it is a `type` (fails the test when nothing is thrown). */
export function thrown<E extends Error>(work: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as E;
  }
  throw new Error(`expected a ${type.name}`);
}

export type DatabaseKind = "pglite" | "postgres";
export const DATABASE_KINDS: DatabaseKind[] = ["pglite", "postgres"];

const adminUrl = process.env.ATRIUM_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const TEST_ADMIN = { organization: "default", username: "admin", password: "test-admin-password" };

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty PostgreSQL database on the test server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `atrium_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Silent, or during a run with a run dir, verbose to a file of its own; its secrets in the run's ledger. */
export function testConfig(overrides: Partial<ControlPlaneConfig> = {}): ControlPlaneConfig {
  const config: ControlPlaneConfig = {
    ...configFromEnv({}),
    host: "127.0.0.1",
    port: 0,
    dataDir: "",
    ...testLogging("control-plane"),
    bootstrap: { ...TEST_ADMIN },
    // Replicas of one test share a fixed key, as replicas of a deployment must.
    encryption: parseKeySet({ activeKeyId: "test", keys: { test: Buffer.alloc(32, 7).toString("base64") } }),
    ...overrides,
  };
  recordSecret("bootstrap admin password", config.bootstrap.password);
  for (const keyId of config.encryption?.keyIds ?? [])
    recordSecret("encryption key", config.encryption?.key(keyId)?.export());
  recordSecret("legacy encryption key", config.encryption?.legacyKey()?.export());
  return config;
}

export interface TestControlPlane extends ControlPlane {
  api: ApiClient;
  /** A client logged in as the bootstrap admin. */
  admin: ApiClient;
}

/** A control plane on PGlite (in memory) or on `databaseUrl`. */
export async function startTestControlPlane(
  kind: DatabaseKind,
  options: { databaseUrl?: string; config?: Partial<ControlPlaneConfig> } = {},
): Promise<TestControlPlane> {
  const databaseUrl = kind === "postgres" ? options.databaseUrl : undefined;
  if (kind === "postgres" && !databaseUrl) throw new Error("postgres control planes need a databaseUrl");
  const controlPlane = await startControlPlane(testConfig({ databaseUrl, ...options.config }));
  const api = new ApiClient(controlPlane.url);
  const admin = await api.login(TEST_ADMIN);
  return { ...controlPlane, api, admin };
}

export interface IsolatedControlPlane extends TestControlPlane {
  /** Its PostgreSQL database; undefined on PGlite. */
  databaseUrl: string | undefined;
  /** Closes it and drops its database. */
  stop(): Promise<void>;
}

/** A control plane with a database of its own (a fresh PostgreSQL database, or PGlite); `stop` also drops it. */
export async function startIsolatedControlPlane(
  kind: DatabaseKind,
  config?: Partial<ControlPlaneConfig>,
): Promise<IsolatedControlPlane> {
  const database = kind === "postgres" ? await createTestDatabase() : undefined;
  const controlPlane = await startTestControlPlane(kind, { databaseUrl: database?.url, config }).catch(
    async (error: unknown) => {
      await database?.drop();
      throw error;
    },
  );
  return {
    ...controlPlane,
    databaseUrl: database?.url,
    stop: async () => {
      await controlPlane.close();
      await database?.drop();
    },
  };
}

/**
 * For the enclosing describe block (or file): `start` (then `setup` with what it started) runs
 * before its tests and `stop` after them. Returns a getter for what was started, for the tests.
 */
export function useDuringTests<T>(
  start: () => Promise<T>,
  stop: (started: T) => Promise<void>,
  setup: (started: T) => Promise<unknown> = async () => {},
): () => T {
  let started: { value: T } | undefined;
  beforeAll(async () => {
    started = { value: await start() };
    await setup(started.value);
  });
  afterAll(async () => {
    if (started) await stop(started.value);
  });
  return () => {
    if (!started) throw new Error("started before the tests of its describe block, and not yet");
    return started.value;
  };
}

/**
 * For the enclosing describe block: a control plane of `kind` on a database of its own, started
 * (then `setup` run with it) before the block's tests and stopped after them.
 */
export function useIsolatedControlPlane(
  kind: DatabaseKind,
  setup: (controlPlane: IsolatedControlPlane) => Promise<void> = async () => {},
): () => IsolatedControlPlane {
  return useDuringTests(
    () => startIsolatedControlPlane(kind),
    (controlPlane) => controlPlane.stop(),
    setup,
  );
}

/** The Pet Store Service, imported inline as `name`; its id. */
export async function createPetstore(client: ApiClient, name = "petstore"): Promise<string> {
  const created = await client.call("POST", "/api/v1/services", {
    name,
    version: "1.0.0",
    openapi: { inline: sampleOpenApi() },
  });
  if (created.status !== 201) throw new Error(`could not import the Pet Store: ${JSON.stringify(created.body)}`);
  return created.body.id;
}

export interface ReplicaPair {
  /** Where writes go. */
  writer: TestControlPlane;
  /** Where streams are held: another replica on PostgreSQL, the writer itself on PGlite. */
  reader: TestControlPlane;
  /** Closes both and drops the database. */
  stop(): Promise<void>;
}

/**
 * Two replicas on one fresh PostgreSQL database (writes through one, streams held on the other),
 * or on PGlite one control plane playing both; `stop` closes them and drops the database.
 */
export async function startReplicaPair(kind: DatabaseKind, config?: Partial<ControlPlaneConfig>): Promise<ReplicaPair> {
  const writer = await startIsolatedControlPlane(kind, config);
  const reader =
    kind === "postgres"
      ? await startTestControlPlane(kind, { databaseUrl: writer.databaseUrl, config }).catch(async (error: unknown) => {
          await writer.stop();
          throw error;
        })
      : writer;
  return {
    writer,
    reader,
    stop: async () => {
      if (reader !== writer) await reader.close();
      await writer.stop();
    },
  };
}

/** Rows of a raw SQL query on the control plane's database (PGlite or PostgreSQL). */
export async function selectRows<T>(controlPlane: ControlPlane, query: SQL): Promise<T[]> {
  return ((await controlPlane.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The ids of what {@link expose} created or was given. */
export interface Exposed {
  serviceId: string;
  planId: string;
  groupId: number;
  expositionId: string;
  /** The plan's client API key, when `plan` asked for one. */
  apiKey?: string;
}

/**
 * An Exposition named `name` through `client`: on a new Service (the Pet Store unless `service`
 * says otherwise) and a new gateway group selecting `labels`, unless their ids are given, with a
 * plan of its own (`plan`: fields beside the Service; the backend endpoint can be replaced). Throws with the API's answer when a step fails.
 */
export async function expose(
  client: ApiClient,
  name: string,
  options: {
    labels?: Record<string, string>;
    serviceId?: string;
    /** The new Service's fields beside its name and version (default: the Pet Store, inline). */
    service?: Record<string, unknown>;
    groupId?: number;
    plan?: Record<string, unknown>;
  } = {},
): Promise<Exposed> {
  const created = async (path: string, body: unknown) => {
    const response = await client.call("POST", path, body);
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const serviceId =
    options.serviceId ??
    (
      await created("/api/v1/services", {
        name,
        version: "1",
        openapi: { inline: sampleOpenApi() },
        ...options.service,
      })
    ).id;
  const plan = await created("/api/v1/configuration-plans", {
    name,
    serviceId,
    backendEndpoint: "https://petstore.example.com",
    ...options.plan,
  });
  const groupId =
    options.groupId ?? (await created("/api/v1/gateway-groups", { name, labels: options.labels ?? {} })).id;
  const exposition = await created("/api/v1/expositions", {
    name,
    configurationPlanId: plan.id,
    gatewayGroupId: groupId,
  });
  return { serviceId, planId: plan.id, groupId, expositionId: exposition.id, apiKey: plan.apiKey };
}

/** A second organization named `name` with an admin of its own, logged in. */
export async function addOrganization(controlPlane: TestControlPlane, name: string): Promise<ApiClient> {
  const admin = { username: `${name}-admin`, password: `${name}-password-12` };
  const created = await controlPlane.admin.call("POST", "/api/v1/organizations", { name, admin });
  if (created.status !== 201) throw new Error(`could not create organization ${name}: ${JSON.stringify(created.body)}`);
  return controlPlane.api.login({ organization: name, ...admin });
}

/**
 * Registers a gateway (FQDN `<id>.example.com`) through `client`, which holds a gateway's API
 * token; the registration answer. Throws with the API's answer when refused.
 */
export async function registerGateway(
  client: ApiClient,
  gateway: { id: string; instanceId: string },
  labels: Record<string, string>,
): Promise<Record<string, unknown>> {
  const registered = await client.call("POST", "/api/v1/gateways/register", {
    ...gateway,
    fqdns: [`${gateway.id}.example.com`],
    labels,
  });
  if (registered.status !== 200) throw new Error(`registration refused: ${JSON.stringify(registered.body)}`);
  return registered.body;
}

/** A client with a new API token of the bootstrap admin's organization (as gateways and the operator use). */
export async function tokenClient(controlPlane: TestControlPlane, name = "gateways"): Promise<ApiClient> {
  const created = await controlPlane.admin.call("POST", "/api/v1/api-tokens", { name, validityDays: 1 });
  if (created.status !== 201) throw new Error(`could not create an API token: ${JSON.stringify(created.body)}`);
  return controlPlane.api.withToken(created.body.token);
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly token: string | undefined;

  constructor(baseUrl: string, token?: string) {
    this.baseUrl = baseUrl;
    this.token = token;
    recordSecretFields({ token });
  }

  withToken(token: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async login(credentials: { organization: string; username: string; password: string }): Promise<ApiClient> {
    const response = await this.call<{ token: string }>("POST", "/api/v1/login", credentials);
    if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
    return this.withToken(response.body.token);
  }

  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered
  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await request(`${this.baseUrl}${path}`, {
      method: method as "GET",
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.body.text();
    const answer = (text ? JSON.parse(text) : undefined) as T;
    // Passwords and secret values sent, tokens and keys answered: for the end-of-run log scan.
    recordSecretFields({ body, answer, apiKey: headers["x-atrium-key"] }, path);
    return { status: response.statusCode, body: answer, headers: response.headers } satisfies ApiResponse<T>;
  }
}

export interface StreamEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** A gateway's change stream, read as a test would: wait for the next event matching a predicate. */
export async function openChangeStream(
  baseUrl: string,
  token: string,
  gateway: { id: string; instanceId: string },
  since?: number,
) {
  const { createParser } = await import("eventsource-parser");
  const query = new URLSearchParams({
    instanceId: gateway.instanceId,
    ...(since === undefined ? {} : { since: String(since) }),
  });
  const controller = new AbortController();
  const response = await request(`${baseUrl}/api/v1/gateways/${gateway.id}/stream?${query}`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (event) => {
      events.push({ id: event.id, event: event.event, data: event.data });
      for (const wake of waiters) wake();
    },
  });
  response.body.on("data", (chunk: Buffer) => parser.feed(chunk.toString("utf8")));
  response.body.on("error", () => {});
  /** Resolves when the server ends the stream (not when the test closes it). */
  const ended = new Promise<void>((resolve) => response.body.on("end", () => resolve()));
  let read = 0;
  return {
    status: response.statusCode,
    ended,
    /** Every event received so far, in order. */
    events,
    /** The next event (after those already returned) whose name matches, parsed. */
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the stream sent
    async next(name: string, timeoutMs = 10_000): Promise<any> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (read < events.length) {
          const event = events[read++] as StreamEvent;
          if (event.event === name) return { ...JSON.parse(event.data), eventId: event.id };
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0)
          throw new Error(`no '${name}' event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(", ")}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, remaining);
          waiters.add(wake);
        });
      }
    },
    close: () => controller.abort(),
  };
}
