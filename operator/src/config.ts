/**
 * Operator configuration, read once from the environment (ATRIUM_*). The control-plane URL and
 * API token decide which control plane and organization every watched resource lands in.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { errors } from "./errors.ts";

/** Where the control-plane API token is read from; it is re-read when the control plane answers 401. */
export type TokenSetting =
  | { secret: { namespace: string; name: string; key: string } }
  | { file: string }
  /** Tests and embedding only: no environment variable sets a literal token. */
  | { value: string };

export interface LeaderElectionSettings {
  enabled: boolean;
  namespace: string;
  /** Name of the coordination.k8s.io/v1 Lease the replicas compete for. */
  leaseName: string;
  leaseDurationSeconds: number;
  /** A leader that could not renew for this long steps down (must be < leaseDurationSeconds). */
  renewDeadlineSeconds: number;
  /** How often the leader renews and the others try to acquire. */
  retryPeriodSeconds: number;
}

export interface OperatorConfig {
  controlPlaneUrl: string;
  token: TokenSetting;
  /** Namespaces to watch; empty watches every namespace. */
  watchNamespaces: string[];
  host: string;
  /** Port of /q/health/* and /q/metrics; 0 picks a free one. */
  port: number;
  /** This replica's holderIdentity in the Lease: the pod name and a random suffix. */
  identity: string;
  leaderElection: LeaderElectionSettings;
  /** Reconciles running at once (each key is still reconciled by one at a time). */
  concurrency: number;
  /** Retry delays: base * 2^failures, capped. */
  retry: { baseDelayMs: number; maxDelayMs: number; ratePerSecond: number; burst: number };
  logLevel: string;
  /** A file the log is appended to instead of standard output (set by test support; not read from the environment). */
  logFile?: string;
}

const SERVICE_ACCOUNT_NAMESPACE_FILE = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw errors.invalidSetting(name, `must be an integer ≥ ${min}, got '${raw}'`);
  return value;
}

/** The namespace this pod runs in, for the Lease: POD_NAMESPACE, the service account's, or `default`. */
function ownNamespace(env: NodeJS.ProcessEnv): string {
  if (env.POD_NAMESPACE) return env.POD_NAMESPACE;
  if (existsSync(SERVICE_ACCOUNT_NAMESPACE_FILE)) return readFileSync(SERVICE_ACCOUNT_NAMESPACE_FILE, "utf8").trim();
  return "default";
}

function tokenSetting(env: NodeJS.ProcessEnv): TokenSetting {
  const secret = env.ATRIUM_CONTROL_PLANE_TOKEN_SECRET;
  const file = env.ATRIUM_CONTROL_PLANE_TOKEN_FILE;
  if (secret && file) {
    throw errors.invalidSetting(
      "ATRIUM_CONTROL_PLANE_TOKEN_SECRET",
      "set either it or ATRIUM_CONTROL_PLANE_TOKEN_FILE, not both",
    );
  }
  if (file) return { file };
  if (!secret) {
    throw errors.invalidSetting(
      "ATRIUM_CONTROL_PLANE_TOKEN_SECRET",
      "required (<namespace>/<name> of the Secret holding the API token), or ATRIUM_CONTROL_PLANE_TOKEN_FILE; " +
        "create a token with `atrium api-token create`",
    );
  }
  const parts = secret.split("/");
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw errors.invalidSetting("ATRIUM_CONTROL_PLANE_TOKEN_SECRET", `must be <namespace>/<name>, got '${secret}'`);
  }
  return { secret: { namespace: parts[0], name: parts[1], key: env.ATRIUM_CONTROL_PLANE_TOKEN_KEY || "token" } };
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): OperatorConfig {
  const controlPlaneUrl = env.ATRIUM_CONTROL_PLANE_URL ?? "";
  if (!/^https?:\/\/[^\s/]+/.test(controlPlaneUrl)) {
    throw errors.invalidSetting(
      "ATRIUM_CONTROL_PLANE_URL",
      `required: the control plane's base URL (http:// or https://), got '${controlPlaneUrl}'`,
    );
  }
  const leaseDurationSeconds = integer(env, "ATRIUM_LEADER_ELECTION_LEASE_SECONDS", 15);
  const retryPeriodSeconds = integer(env, "ATRIUM_LEADER_ELECTION_RETRY_SECONDS", 5);
  const renewDeadlineSeconds = integer(env, "ATRIUM_LEADER_ELECTION_RENEW_DEADLINE_SECONDS", 10);
  if (!(retryPeriodSeconds < renewDeadlineSeconds && renewDeadlineSeconds < leaseDurationSeconds)) {
    throw errors.invalidSetting(
      "ATRIUM_LEADER_ELECTION_*",
      "need retry period < renew deadline < lease duration, so that a leader steps down before another can take over",
    );
  }
  return {
    controlPlaneUrl: controlPlaneUrl.replace(/\/+$/, ""),
    token: tokenSetting(env),
    watchNamespaces: (env.ATRIUM_WATCH_NAMESPACES ?? "")
      .split(",")
      .map((namespace) => namespace.trim())
      .filter(Boolean),
    host: env.ATRIUM_OPERATOR_HOST || "0.0.0.0",
    port: integer(env, "ATRIUM_OPERATOR_PORT", 8080, 0),
    // Unique per process (as client-go does): a restarted pod is a new candidate, not the old holder.
    identity: `${env.POD_NAME || hostname()}_${randomUUID().slice(0, 8)}`,
    leaderElection: {
      enabled: env.ATRIUM_LEADER_ELECTION !== "false",
      namespace: env.ATRIUM_LEADER_ELECTION_NAMESPACE || ownNamespace(env),
      leaseName: env.ATRIUM_LEADER_ELECTION_LEASE_NAME || "atrium-operator",
      leaseDurationSeconds,
      renewDeadlineSeconds,
      retryPeriodSeconds,
    },
    concurrency: integer(env, "ATRIUM_OPERATOR_CONCURRENCY", 8),
    retry: { baseDelayMs: 500, maxDelayMs: 30_000, ratePerSecond: 50, burst: 200 },
    logLevel: env.ATRIUM_LOG_LEVEL || "info",
  };
}
