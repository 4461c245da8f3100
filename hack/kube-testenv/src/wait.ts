/**
 * Waiting for a started binary to become ready: polls a check, fails fast with the stderr tail when
 * the process dies first, and a TLS GET that verifies against the test CA.
 */
import { request } from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import { type ManagedProcess, seconds } from "./processes.ts";

const STDERR_TAIL_LINES = 40;

/** Polls `check` until it reports ready; fails fast, with the stderr tail, if the process exits. */
export async function waitUntilReady(
  child: ManagedProcess,
  timeoutMs: number,
  check: () => Promise<{ ready: boolean; detail: string }>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  for (;;) {
    const status = child.exitStatus();
    if (status !== undefined) {
      throw new Error(`${child.name} exited (${status}) before it was ready${stderrTail(child)}`);
    }
    try {
      const result = await check();
      if (result.ready) return;
      last = result.detail;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${child.name} not ready after ${seconds(timeoutMs)} (last check: ${last.trim()})${stderrTail(child)}`,
      );
    }
    // Whichever comes first: the next poll, or the process dying.
    await Promise.race([sleep(250), child.exited]);
  }
}

function stderrTail(child: ManagedProcess): string {
  const lines = child.stderrTail(STDERR_TAIL_LINES);
  return lines.length === 0 ? "" : `\n--- last ${lines.length} stderr lines of ${child.name} ---\n${lines.join("\n")}`;
}

/** GET verifying TLS against `ca`; a fresh connection each time (agent: false), none left open. */
export function httpsGet(url: string, ca: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      url,
      { ca, agent: false, timeout: 5_000, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolvePromise({ status: response.statusCode ?? 0, body }));
        response.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
    req.end();
  });
}
