/**
 * Test support: the real promtool (Prometheus's rule checker and rule unit-test runner), built by
 * hack/prometheus/build.sh from its Go module; instant when the build's cache is warm.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

let binary: string | undefined;

/** Runs hack/prometheus/build.sh once per process; returns promtool's path. */
export function promtoolBinary(): string {
  if (binary) return binary;
  const repoRoot = resolve(import.meta.dirname, "../../..");
  // build.sh prints the binary's path as its last stdout line; progress goes to stderr as is.
  const stdout = execFileSync("bash", [join(repoRoot, "hack/prometheus/build.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  const path = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  if (!existsSync(path)) throw new Error(`hack/prometheus/build.sh did not produce promtool (printed: ${path})`);
  binary = path;
  return path;
}

/** `promtool <args>`: its exit status and everything it printed. */
export function promtool(...args: string[]): { status: number; output: string } {
  const result = spawnSync(promtoolBinary(), args, { encoding: "utf8", timeout: 120_000 });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}
