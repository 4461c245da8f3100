/**
 * Gateway configuration from the environment (ATRIUM_*). The identity it registers with (id,
 * FQDNs, labels) is validated with the control plane's own registration schema, so a typo
 * stops the gateway at start-up with the field named instead of failing at registration.
 */
import { readFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { join } from "node:path";
import { gatewayRegistration } from "@atrium/contract";
import { tlsFileDirs } from "./backend-tls.ts";
import { envAllowPatterns, envPolicy } from "./env-policy.ts";
import { corsOrigins } from "./mcp/cors.ts";
import { DEFAULT_PROGRESS_AFTER_MS } from "./mcp/response-stream.ts";

export interface GatewayConfig {
  host: string;
  port: number;
  controlPlaneUrl: string;
  /** API token of the organization whose Expositions this gateway serves. */
  controlPlaneToken: string;
  id: string;
  fqdns: string[];
  labels: Record<string, string>;
  /**
   * Holds the last configuration (and the instance id) across restarts, in a folder per
   * organization, bound to the credential; contains backend secrets (0600).
   */
  cacheDir: string;
  /** Names and globs a backend secret `${env:NAME}` may use (ATRIUM_GATEWAY_ENV_ALLOW); see env-policy.ts. */
  envAllow?: string[];
  /** Directories plans may name backend TLS files in (ATRIUM_GATEWAY_TLS_FILE_DIRS); see backend-tls.ts. */
  tlsFileDirs?: string[];
  /** Signs legacy (2025) session ids; replicas of a group share it so any of them serves a session. */
  sessionKey: Buffer | undefined;
  /**
   * The cluster key (ATRIUM_GATEWAY_CLUSTER_KEY_FILE): every gateway of a cluster holds the same;
   * it seals MRTR request states and encrypts elicited credentials (elicitation/cluster-keys.ts).
   * Undefined when not set: the gateway then refuses plans whose backend secret is elicited.
   */
  clusterKey: Buffer | undefined;
  bodyLimitBytes: number;
  maxResultBytes: number;
  logLevel: string;
  /** A file the log is appended to instead of standard output (set by test support; not read from the environment). */
  logFile?: string;
  /**
   * Host names MCP requests may name in Host and Origin (DNS-rebinding protection): the FQDNs,
   * localhost, and ATRIUM_GATEWAY_ALLOWED_HOSTS; undefined when that variable is `*`.
   */
  allowedHosts: Set<string> | undefined;
  /** Browser origins that may call the MCP endpoints (CORS, ATRIUM_GATEWAY_CORS_ORIGINS); none when absent. */
  corsOrigins?: string[];
  /** The management listener (/q/metrics and health), apart from the public MCP port; loopback by default. */
  managementHost: string;
  managementPort: number;
  /** Most messages in one JSON-RPC batch (2025-03-26); a larger batch is refused as a whole. */
  maxBatchSize: number;
  /** A request with a `progressToken` still running after this long gets `notifications/progress`, then again at this interval. */
  progressAfterMs: number;
  /**
   * A 2025-11-25 call still running after this long has its answer stream primed (an event id
   * and `retry`) and its connection closed; the client resumes it with `Last-Event-ID`. Unset:
   * the connection is held to the answer. Resumption is replica-local: set it only where a
   * session's requests reach one replica.
   */
  ssePollAfterMs?: number;
  /** Slow clients: a request's headers, and the whole request, must arrive within these (both listeners). */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Open connections one client address may hold; more are closed at once. */
  maxConnectionsPerAddress: number;
  /** OAuth: least time between two fetches of an issuer's key set (an unknown `kid` waits for it). */
  jwksCooldownMs: number;
  /** OAuth: verified tokens remembered until they expire (least recently used dropped first). */
  tokenCacheSize: number;
  /** Audit events go to this file as JSON lines; standard output when absent. */
  auditFile: string | undefined;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return value;
}

/** `a=1,b=2` → { a: "1", b: "2" }. */
function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.indexOf("=");
    if (at <= 0) throw new Error(`ATRIUM_GATEWAY_LABELS: '${entry}' is not key=value`);
    labels[entry.slice(0, at).trim()] = entry.slice(at + 1).trim();
  }
  return labels;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = integer(env, "ATRIUM_GATEWAY_PORT", 7777);
  const controlPlaneUrl = env.ATRIUM_CONTROL_PLANE_URL ?? "http://127.0.0.1:5555";
  const token = env.ATRIUM_CONTROL_PLANE_TOKEN_FILE
    ? readFileSync(env.ATRIUM_CONTROL_PLANE_TOKEN_FILE, "utf8").trim()
    : (env.ATRIUM_CONTROL_PLANE_TOKEN ?? "");
  if (!token) {
    throw new Error(
      "ATRIUM_CONTROL_PLANE_TOKEN (or ATRIUM_CONTROL_PLANE_TOKEN_FILE) is required: create one with `atrium api-token create`",
    );
  }
  const identity = gatewayRegistration.safeParse({
    id: env.ATRIUM_GATEWAY_ID || hostname().toLowerCase(),
    instanceId: "validated-later",
    fqdns: (env.ATRIUM_GATEWAY_FQDNS || `${hostname().toLowerCase()}:${port}`).split(",").map((f) => f.trim()),
    labels: parseLabels(env.ATRIUM_GATEWAY_LABELS ?? ""),
  });
  if (!identity.success) {
    const names: Record<string, string> = {
      id: "ATRIUM_GATEWAY_ID",
      fqdns: "ATRIUM_GATEWAY_FQDNS",
      labels: "ATRIUM_GATEWAY_LABELS",
    };
    const problems = identity.error.issues.map((i) => `${names[String(i.path[0])] ?? i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid gateway identity: ${problems.join("; ")}`);
  }
  const sessionKey = sessionKeyFromEnv(env);
  const clusterKeyFile = env.ATRIUM_GATEWAY_CLUSTER_KEY_FILE;
  const clusterKey = clusterKeyFile ? keyFromFile("ATRIUM_GATEWAY_CLUSTER_KEY_FILE", clusterKeyFile) : undefined;
  const { id, fqdns, labels } = identity.data;
  const envAllow = envAllowPatterns(env.ATRIUM_GATEWAY_ENV_ALLOW);
  envPolicy(envAllow); // refuses a malformed pattern at start-up
  const managementPort = integer(env, "ATRIUM_GATEWAY_MANAGEMENT_PORT", 9090);
  if (managementPort === port)
    throw new Error(
      "ATRIUM_GATEWAY_MANAGEMENT_PORT must differ from ATRIUM_GATEWAY_PORT: metrics stay off the MCP port",
    );
  const headersTimeoutMs = integer(env, "ATRIUM_GATEWAY_HEADERS_TIMEOUT_MS", 5_000);
  const requestTimeoutMs = integer(env, "ATRIUM_GATEWAY_REQUEST_TIMEOUT_MS", 10_000);
  if (headersTimeoutMs > requestTimeoutMs)
    throw new Error("ATRIUM_GATEWAY_HEADERS_TIMEOUT_MS must not exceed ATRIUM_GATEWAY_REQUEST_TIMEOUT_MS");
  return {
    host: env.ATRIUM_GATEWAY_HOST ?? "0.0.0.0",
    port,
    controlPlaneUrl: controlPlaneUrl.replace(/\/+$/, ""),
    controlPlaneToken: token,
    id,
    fqdns,
    labels,
    cacheDir: env.ATRIUM_GATEWAY_CACHE_DIR || join(homedir(), ".cache", "atrium", "gateway", id),
    sessionKey,
    clusterKey,
    envAllow,
    tlsFileDirs: tlsFileDirs(env.ATRIUM_GATEWAY_TLS_FILE_DIRS),
    bodyLimitBytes: integer(env, "ATRIUM_GATEWAY_BODY_LIMIT_BYTES", 1024 * 1024),
    maxResultBytes: integer(env, "ATRIUM_GATEWAY_MAX_RESULT_BYTES", 1024 * 1024),
    logLevel: env.ATRIUM_LOG_LEVEL || "info",
    allowedHosts: allowedHosts(fqdns, env.ATRIUM_GATEWAY_ALLOWED_HOSTS ?? ""),
    corsOrigins: corsOrigins(env.ATRIUM_GATEWAY_CORS_ORIGINS),
    managementHost: env.ATRIUM_GATEWAY_MANAGEMENT_HOST || "127.0.0.1",
    managementPort,
    maxBatchSize: integer(env, "ATRIUM_GATEWAY_MAX_BATCH_SIZE", 32),
    progressAfterMs: integer(env, "ATRIUM_GATEWAY_PROGRESS_AFTER_MS", DEFAULT_PROGRESS_AFTER_MS),
    ssePollAfterMs: env.ATRIUM_GATEWAY_SSE_POLL_AFTER_MS
      ? integer(env, "ATRIUM_GATEWAY_SSE_POLL_AFTER_MS", 0)
      : undefined,
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnectionsPerAddress: integer(env, "ATRIUM_GATEWAY_MAX_CONNECTIONS_PER_ADDRESS", 1024),
    jwksCooldownMs: integer(env, "ATRIUM_GATEWAY_JWKS_COOLDOWN_MS", 30_000),
    tokenCacheSize: integer(env, "ATRIUM_GATEWAY_TOKEN_CACHE_SIZE", 10_000),
    auditFile: env.ATRIUM_GATEWAY_AUDIT_FILE || undefined,
  };
}

/** ATRIUM_GATEWAY_SESSION_KEY, or the file ATRIUM_GATEWAY_SESSION_KEY_FILE names (the Helm chart's cluster keystore). */
function sessionKeyFromEnv(env: NodeJS.ProcessEnv): Buffer | undefined {
  const file = env.ATRIUM_GATEWAY_SESSION_KEY_FILE;
  if (file && env.ATRIUM_GATEWAY_SESSION_KEY)
    throw new Error("set ATRIUM_GATEWAY_SESSION_KEY or ATRIUM_GATEWAY_SESSION_KEY_FILE, not both");
  if (file) return keyFromFile("ATRIUM_GATEWAY_SESSION_KEY_FILE", file);
  const text = env.ATRIUM_GATEWAY_SESSION_KEY;
  return text ? keyFromText("ATRIUM_GATEWAY_SESSION_KEY", text) : undefined;
}

/** A key file (a keystore entry): base64 of at least 32 bytes; missing, empty or short stops the gateway. */
function keyFromFile(variable: string, file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (error) {
    throw new Error(`${variable}: cannot read ${file}: ${(error as Error).message}`);
  }
  if (!text) throw new Error(`${variable}: ${file} is empty`);
  return keyFromText(variable, text);
}

function keyFromText(variable: string, text: string): Buffer {
  const key = Buffer.from(text, "base64");
  if (key.length < 32) throw new Error(`${variable} must be base64 of at least 32 bytes`);
  return key;
}

export function allowedHosts(fqdns: string[], extra: string): Set<string> | undefined {
  if (extra.trim() === "*") return undefined;
  const hosts = [...fqdns, ...extra.split(",")].map((h) => h.trim().toLowerCase().replace(/:\d+$/, "")).filter(Boolean);
  return new Set([...hosts, "localhost", "127.0.0.1", "[::1]"]);
}
