/**
 * Control-plane configuration, read once from the environment (ATRIUM_*), with defaults that
 * make `node control-plane/src/main.ts` start a usable local control plane.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { parseOrigins } from "@atrium/contract/origins";
import { type KeySet, keySetFromEnv } from "./secrets/key-set.ts";

export interface ControlPlaneConfig {
  host: string;
  port: number;
  /** The management listener (/q/metrics and health); none when the port is unset. Loopback by default. */
  managementHost: string;
  managementPort: number | undefined;
  /** PostgreSQL URL; the embedded PGlite database in `dataDir` when absent. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** First-start admin; a password is generated and printed once when none is given. */
  bootstrap: { organization: string; username: string; password: string | undefined };
  loginTtlSeconds: number;
  /** Failed logins tolerated per user and per source address within 15 minutes, then 429. */
  loginMaxFailures: { perUser: number; perAddress: number };
  /** Gateways advertise health this often; stale after `gatewayStaleSeconds` without one. */
  gatewayHealthIntervalSeconds: number;
  gatewayStaleSeconds: number;
  /** The change stream sends a heartbeat this often; gateways reconnect after three silent ones. */
  streamHeartbeatSeconds: number;
  /** How long change-stream revisions are kept for resuming gateways. */
  changeRetentionSeconds: number;
  bodyLimitBytes: number;
  /** Slow clients: a request's headers, and the whole request, must arrive within these. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Open connections one client address may hold; more are closed at once. */
  maxConnectionsPerAddress: number;
  logLevel: string;
  /** A file the log is appended to instead of standard output (set by test support; not read from the environment). */
  logFile?: string;
  /** A built web UI (`vite build` output) served at `/`; none served when unset (ATRIUM_UI_DIR). */
  uiDir: string | undefined;
  /** Gateway origins the web UI's playground may call (its CSP connect-src; ATRIUM_UI_GATEWAY_ORIGINS). */
  uiGatewayOrigins?: string[];
  /** Keys of secret values (ATRIUM_ENCRYPTION_KEYS, _ACTIVE_KEY_ID, _LEGACY_KEY); see secrets/startup.ts when absent. */
  encryption: KeySet | undefined;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

/** A setting that must be enforced: 0 (which would switch it off) is refused. */
function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = integer(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be a positive integer, got '0'`);
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ControlPlaneConfig {
  const dataHome = env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  const headersTimeoutMs = positive(env, "ATRIUM_HEADERS_TIMEOUT_MS", 10_000);
  const requestTimeoutMs = positive(env, "ATRIUM_REQUEST_TIMEOUT_MS", 60_000);
  if (headersTimeoutMs > requestTimeoutMs)
    throw new Error("ATRIUM_HEADERS_TIMEOUT_MS must not exceed ATRIUM_REQUEST_TIMEOUT_MS");
  const port = integer(env, "ATRIUM_PORT", 5555);
  // Off by default: replicas, or a gateway (9090), on one host would otherwise compete for one port.
  const managementPort = env.ATRIUM_MANAGEMENT_PORT ? integer(env, "ATRIUM_MANAGEMENT_PORT", 0) : undefined;
  if (managementPort !== undefined && managementPort !== 0 && managementPort === port)
    throw new Error("ATRIUM_MANAGEMENT_PORT must differ from ATRIUM_PORT: metrics stay off the API port");
  return {
    host: env.ATRIUM_HOST ?? "0.0.0.0",
    port,
    managementHost: env.ATRIUM_MANAGEMENT_HOST || "127.0.0.1",
    managementPort,
    databaseUrl: env.ATRIUM_DATABASE_URL || undefined,
    dataDir: env.ATRIUM_DATA_DIR || join(dataHome, "atrium", "control-plane"),
    bootstrap: {
      organization: env.ATRIUM_ADMIN_ORGANIZATION || "default",
      username: env.ATRIUM_ADMIN_USERNAME || "admin",
      password: env.ATRIUM_ADMIN_PASSWORD || undefined,
    },
    loginTtlSeconds: integer(env, "ATRIUM_LOGIN_TTL_SECONDS", 12 * 3600),
    loginMaxFailures: {
      perUser: integer(env, "ATRIUM_LOGIN_MAX_FAILURES_PER_USER", 10) || 10,
      perAddress: integer(env, "ATRIUM_LOGIN_MAX_FAILURES_PER_ADDRESS", 50) || 50,
    },
    gatewayHealthIntervalSeconds: integer(env, "ATRIUM_GATEWAY_HEALTH_INTERVAL_SECONDS", 120),
    gatewayStaleSeconds: integer(env, "ATRIUM_GATEWAY_STALE_SECONDS", 300),
    streamHeartbeatSeconds: integer(env, "ATRIUM_STREAM_HEARTBEAT_SECONDS", 15) || 15,
    changeRetentionSeconds: integer(env, "ATRIUM_CHANGE_RETENTION_SECONDS", 24 * 3600),
    bodyLimitBytes: integer(env, "ATRIUM_BODY_LIMIT_BYTES", 16 * 1024 * 1024),
    headersTimeoutMs,
    requestTimeoutMs,
    maxConnectionsPerAddress: positive(env, "ATRIUM_MAX_CONNECTIONS_PER_ADDRESS", 1024),
    logLevel: env.ATRIUM_LOG_LEVEL || "info",
    uiDir: env.ATRIUM_UI_DIR || undefined,
    uiGatewayOrigins: parseOrigins("ATRIUM_UI_GATEWAY_ORIGINS", env.ATRIUM_UI_GATEWAY_ORIGINS),
    encryption: env.ATRIUM_ENCRYPTION_KEYS ? keySetFromEnv(env) : undefined,
  };
}
