/**
 * Webhook configuration from the environment (ATRIUM_*). In the Helm chart any of these can be
 * set through the admission controller's `extraEnv`; nothing else reads the environment.
 */
import { errors } from "./errors.ts";

export interface WebhookConfig {
  host: string;
  port: number;
  /** Folder holding `tls.crt` and `tls.key` (a mounted kubernetes.io/tls Secret). */
  tlsDir: string;
  /** How often the TLS files are compared with the pair in use. */
  tlsReloadIntervalMs: number;
  logLevel: string;
  /** A file the log is appended to instead of standard output (set by test support; not read from the environment). */
  logFile?: string;
}

export const DEFAULT_TLS_DIR = "/etc/atrium/webhook/tls";

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw errors.invalidSetting(name, `must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  return {
    host: env.ATRIUM_WEBHOOK_HOST || "0.0.0.0",
    // 0 picks a free port (tests).
    port: integer(env, "ATRIUM_WEBHOOK_PORT", 9443, 0, 65_535),
    tlsDir: env.ATRIUM_WEBHOOK_TLS_DIR || DEFAULT_TLS_DIR,
    tlsReloadIntervalMs: integer(env, "ATRIUM_WEBHOOK_TLS_RELOAD_INTERVAL_MS", 5_000, 100, 3_600_000),
    logLevel: env.ATRIUM_LOG_LEVEL || "info",
  };
}
