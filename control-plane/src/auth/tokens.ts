/**
 * Bearer credentials: random values with a readable prefix (so a leaked one is recognizable
 * in logs and by secret scanners), stored only as SHA-256. 256 random bits need no slow hash.
 */
import { createHash, randomBytes } from "node:crypto";

export const TOKEN_PREFIX = {
  login: "atr_s_",
  apiToken: "atr_t_",
  apiKey: "atr_k_",
} as const;

export function newSecretValue(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}
