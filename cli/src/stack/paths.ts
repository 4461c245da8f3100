/**
 * Where the local stack keeps its state: the user's data folder (`~/.local/share/atrium/stack`
 * on Linux), or ATRIUM_STACK_DIR. Secrets in it (the gateway's token) are 0600.
 */
import { join } from "node:path";
import envPaths from "env-paths";

export function stackDir(): string {
  return process.env.ATRIUM_STACK_DIR || join(envPaths("atrium", { suffix: "" }).data, "stack");
}

export const stackFiles = (dir = stackDir()) => ({
  dir,
  state: join(dir, "state.json"),
  logs: join(dir, "logs"),
  controlPlaneData: join(dir, "control-plane"),
  gatewayCache: join(dir, "gateway"),
  gatewayToken: join(dir, "gateway-token"),
  compose: join(dir, "compose.yaml"),
});
