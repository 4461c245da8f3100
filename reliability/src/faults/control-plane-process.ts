/**
 * The control plane as a real process (`node control-plane/src/main.ts`, configured by its
 * environment as docs/operations.md says), for faults that kill it or its database: start it on a
 * fixed port, SIGKILL it, start it again on the same port. Its output goes to a file (in the test
 * run's log folder during a run, so the end-of-run scan searches it for secrets; else in the
 * caller's scratch folder), shown when a start fails.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, freePort } from "@atrium/control-plane/testing";
import { CAPTURED_LOG_LEVEL, recordSecret, testLogFile } from "../secrets/index.ts";

const MAIN = join(import.meta.dirname, "..", "..", "..", "control-plane", "src", "main.ts");

export const ADMIN = { organization: "default", username: "admin", password: "fault-admin-password-12" };

export interface ControlPlaneProcess {
  url: string;
  port: number;
  /** Not logged in. */
  api: ApiClient;
  /** The running process; undefined while it is down. */
  child: ChildProcess | undefined;
  /** Starts it (again, on the same port) and waits until it is ready. */
  start(): Promise<void>;
  /** SIGKILL: no orderly stop, connections cut. Resolves once it has exited. */
  kill(): Promise<void>;
  /** What it printed (every start). */
  output(): string;
}

export async function controlPlaneProcess(options: {
  databaseUrl: string;
  scratch: string;
  env?: Record<string, string>;
}): Promise<ControlPlaneProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const runLog = testLogFile("control-plane-process");
  const logFile = runLog ?? join(options.scratch, `control-plane-${port}.log`);
  const encryptionKey = randomBytes(32);
  recordSecret("encryption key", encryptionKey);
  recordSecret("admin password", ADMIN.password);
  const api = new ApiClient(url);
  const handle: ControlPlaneProcess = {
    url,
    port,
    api,
    child: undefined,
    output: () => {
      try {
        return readFileSync(logFile, "utf8");
      } catch {
        return "";
      }
    },
    async start() {
      const out = openSync(logFile, "a");
      const child = spawn(process.execPath, [MAIN], {
        env: {
          ...process.env,
          ATRIUM_PORT: String(port),
          ATRIUM_HOST: "127.0.0.1",
          ATRIUM_DATA_DIR: join(options.scratch, "control-plane-data"),
          ATRIUM_DATABASE_URL: options.databaseUrl,
          ATRIUM_ENCRYPTION_KEYS: `v1=${encryptionKey.toString("base64")}`,
          ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "v1",
          ATRIUM_ADMIN_PASSWORD: ADMIN.password,
          ATRIUM_LOG_LEVEL: runLog ? CAPTURED_LOG_LEVEL : "warn",
          ...options.env,
        },
        stdio: ["ignore", out, out],
      });
      handle.child = child;
      // A test process that ends without its afterAll (an uncaught error) takes its control plane along.
      const killOnExit = () => child.kill("SIGKILL");
      process.once("exit", killOnExit);
      child.once("exit", () => process.removeListener("exit", killOnExit));
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`the control plane exited at start:\n${handle.output()}`);
        const ready = await api.call("GET", "/q/health/ready").catch(() => ({ status: 0 }));
        if (ready.status === 200) return;
        if (Date.now() > deadline) throw new Error(`the control plane was not ready within 60 s:\n${handle.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill() {
      const child = handle.child;
      handle.child = undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
  return handle;
}
