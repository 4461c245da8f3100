/**
 * The webhook process: starts from ATRIUM_* variables, serves over TLS, exits 0 on SIGTERM, and
 * refuses to start, with a clear message, without a certificate or with a bad setting.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureOutput } from "@atrium/reliability/secrets";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa, type TestCa, writeSecretVolume } from "./testing.ts";

let dir: string;
let ca: TestCa;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-webhook-main-"));
  ca = await createTestCa(dir);
  await writeSecretVolume(join(dir, "tls"), await ca.issueServingCert());
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, [join(import.meta.dirname, "main.ts")], {
    env: { ...process.env, ATRIUM_WEBHOOK_HOST: "127.0.0.1", ATRIUM_WEBHOOK_PORT: "0", ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  captureOutput("webhook-main", child.stdout, child.stderr);
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { child, exited, output: () => output };
}

async function listeningUrl(output: () => string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const url = /"url":"(https:[^"]+)","msg":"admission webhook listening"/.exec(output())?.[1];
    if (url) return url;
    if (Date.now() > deadline) throw new Error(`not listening after 15 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("node webhook/src/main.ts", () => {
  it("serves over TLS and shuts down gracefully on SIGTERM", async () => {
    const main = startMain({ ATRIUM_WEBHOOK_TLS_DIR: join(dir, "tls") });
    try {
      const url = await listeningUrl(main.output);
      const agent = new Agent({ connect: { ca: ca.caPem } });
      const ready = await request(`${url}/q/health/ready`, { dispatcher: agent });
      expect(ready.statusCode).toBe(200);
      expect(await ready.body.json()).toEqual({ status: "UP" });
      await agent.close();
      main.child.kill("SIGTERM");
      expect(await main.exited).toBe(0);
      expect(main.output()).toContain('"msg":"shutting down"');
    } finally {
      main.child.kill("SIGKILL");
    }
  });

  it("exits 1 without its certificate, naming the folder and the variable", async () => {
    const main = startMain({ ATRIUM_WEBHOOK_TLS_DIR: join(dir, "missing") });
    expect(await main.exited).toBe(1);
    expect(main.output()).toContain(
      `Cannot read tls.crt and tls.key in ${join(dir, "missing")} (ATRIUM_WEBHOOK_TLS_DIR)`,
    );
  });

  it("exits 2 on a bad setting", async () => {
    const main = startMain({ ATRIUM_WEBHOOK_PORT: "http" });
    expect(await main.exited).toBe(2);
    expect(main.output()).toContain("ATRIUM_WEBHOOK_PORT: must be an integer from 0 to 65535, got 'http'");
  });
});
