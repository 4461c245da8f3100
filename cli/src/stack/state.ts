/**
 * The running stack, as `atrium run` left it: which processes, their pids and URLs (or, for
 * `atrium run --release`, which Compose stack).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { StackProcess } from "./processes.ts";

/** A release's Compose stack (`atrium run --release`): containers instead of processes. */
export interface ComposeState {
  /** `podman-compose` or `docker compose`. */
  engine: string;
  /** Compose's project name (compose.ts). */
  project: string;
  file: string;
  release: string;
  services: { name: string; url: string }[];
}

export interface StackState {
  startedAt: string;
  processes: StackProcess[];
  compose?: ComposeState;
  demo?: { endpoint: string };
  /** The web UI's address, when started with --ui. */
  ui?: { url: string };
  /** Where the gateway writes its audit events. */
  gatewayAuditLog?: string;
}

export function readState(file: string): StackState | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as StackState;
  } catch {
    return undefined;
  }
}

export function writeState(file: string, state: StackState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

export function clearState(file: string): void {
  rmSync(file, { force: true });
}
