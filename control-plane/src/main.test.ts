/**
 * The control-plane process: starts on the embedded database, prints the generated admin
 * password once, reports ready, and on SIGTERM finishes and exits 0 with its data kept.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureOutput } from "@atrium/reliability/secrets";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./testing.ts";

const dataDir = mkdtempSync(join(tmpdir(), "atrium-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function startMain(port: number) {
  const child = spawn(process.execPath, [join(import.meta.dirname, "main.ts")], {
    env: {
      ...process.env,
      ATRIUM_PORT: String(port),
      ATRIUM_HOST: "127.0.0.1",
      ATRIUM_DATA_DIR: dataDir,
      ATRIUM_DATABASE_URL: "",
    },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  captureOutput("control-plane-main", child.stdout, child.stderr);
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, exited, output: () => output };
}

async function waitReady(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await request(`http://127.0.0.1:${port}/q/health/ready`).then(
      async (r) => r.statusCode === 200 && (await r.body.json()) !== undefined,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) throw new Error("control plane not ready within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("node control-plane/src/main.ts", () => {
  it("prints the generated admin password once and shuts down gracefully on SIGTERM", async () => {
    const port = await freePort();
    const first = startMain(port);
    await waitReady(port);
    const password = /password '([^']+)'/.exec(first.output())?.[1];
    expect(password).toBeTruthy();
    expect(first.output()).not.toMatch(/"password"/); // never in a structured log line
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const second = startMain(port);
    await waitReady(port);
    expect(second.output()).not.toMatch(/password '/);
    const login = await request(`http://127.0.0.1:${port}/api/v1/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ organization: "default", username: "admin", password }),
    });
    expect(login.statusCode).toBe(200);
    await login.body.dump();
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 90_000);
});
