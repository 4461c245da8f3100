/**
 * Where the local stack keeps its state: the user's data folder (`~/.local/share/atrium/stack`
 * on Linux), or ATRIUM_STACK_DIR. Secrets in it (the gateway's token) and the audit log are 0600.
 */
import { join } from "node:path";
import envPaths from "env-paths";

export function defaultStackDir(): string {
  return join(envPaths("atrium", { suffix: "" }).data, "stack");
}

export function stackDir(): string {
  return process.env.ATRIUM_STACK_DIR || defaultStackDir();
}

export const stackFiles = (dir = stackDir()) => ({
  dir,
  state: join(dir, "state.json"),
  logs: join(dir, "logs"),
  /** The gateway's audit events (plans with audit on), as JSON lines. */
  gatewayAuditLog: join(dir, "logs", "gateway-audit.jsonl"),
  controlPlaneData: join(dir, "control-plane"),
  gatewayCache: join(dir, "gateway"),
  gatewayToken: join(dir, "gateway-token"),
  /** The gateway's cluster key (cluster-key.ts), kept across starts. */
  gatewayClusterKey: join(dir, "gateway-cluster-key"),
  compose: join(dir, "compose.yaml"),
  /** The API token of the Compose stack's gateway (its control plane keeps its own database). */
  composeGatewayToken: join(dir, "compose-gateway-token"),
});
