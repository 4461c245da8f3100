/**
 * Test support: the real promtool (Prometheus's rule checker and rule unit-test runner) and the
 * real Prometheus server, built by hack/prometheus/build.sh from their Go module; instant when the
 * build's cache is warm.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const binaries = new Map<string, string>();

/** Runs `hack/prometheus/build.sh <tool>` once per process and tool; returns the binary's path. */
export function prometheusToolBinary(tool: "promtool" | "prometheus"): string {
  const known = binaries.get(tool);
  if (known) return known;
  const repoRoot = resolve(import.meta.dirname, "../../..");
  // build.sh prints the binary's path as its last stdout line; progress goes to stderr as is.
  const stdout = execFileSync("bash", [join(repoRoot, "hack/prometheus/build.sh"), tool], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const path = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  if (!existsSync(path)) throw new Error(`hack/prometheus/build.sh did not produce ${tool} (printed: ${path})`);
  binaries.set(tool, path);
  return path;
}

/** promtool's path (built when the cache has none). */
export function promtoolBinary(): string {
  return prometheusToolBinary("promtool");
}

/** `promtool <args>`: its exit status and everything it printed. */
export function promtool(...args: string[]): { status: number; output: string } {
  const result = spawnSync(promtoolBinary(), args, { encoding: "utf8", timeout: 120_000 });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}
