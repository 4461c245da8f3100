/**
 * The local stack's cluster key (ATRIUM_GATEWAY_CLUSTER_KEY_FILE): generated on the first
 * `atrium run`, 32 random bytes in base64, 0600, then kept, since what the gateway seals with it
 * (MRTR request states, elicited credentials) must still open after a restart.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The file, created when absent; an existing file is left as it is (the gateway checks it at start). */
export function ensureClusterKey(file: string): string {
  if (existsSync(file)) return file;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  return file;
}
