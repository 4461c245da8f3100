/**
 * A gateway as a real process (`node gateway/src/main.ts`) registered with a test stack's control
 * plane, for fault tests that measure the gateway alone: its resident memory (from /proc), its
 * live heap after a full garbage collection (bench's heap probe, preloaded), the sockets it holds
 * open to a backend, and whether it is still alive. Its log goes to the run dir during a suite
 * run (for the secrets scan) and its last lines into the failure message of the test that started
 * it; `stop` ends it (SIGTERM, then SIGKILL).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "@atrium/control-plane/testing";
import { modernRequest, type Stack, startStack, waitFor } from "@atrium/gateway/testing";
import { captureOutput, testLogLevel } from "./secrets/index.ts";

const MAIN = join(import.meta.dirname, "..", "..", "gateway", "src", "main.ts");
/** Answers SIGUSR2 with a `heap-probe {...}` line: RSS and live heap after a full garbage collection. */
const HEAP_PROBE = [
  "--expose-gc",
  "--import",
  join(import.meta.dirname, "..", "..", "bench", "gateway", "heap-probe.ts"),
];

export interface GatewayProcess {
  /** The public MCP listener, `http://127.0.0.1:<port>`. */
  url: string;
  pid: number;
  /** Its resident set size now, in bytes. */
  rssBytes(): number;
  /** Its live heap in bytes, after a full garbage collection it is asked for. */
  liveHeapBytes(): Promise<number>;
  /** Its open TCP connections to a port on this machine (a backend's), from its file descriptors. */
  socketsTo(port: number): number;
  /** Still running (neither exited nor killed). */
  alive(): boolean;
  /** What it wrote on stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a gateway process of the stack's group (`env: test`) and waits until it serves the
 * Exposition at `mcpPath` (to a request with `headers`, its credentials); `env` sets further
 * ATRIUM_* variables.
 */
export async function startGatewayProcess(
  stack: Stack,
  mcpPath: string,
  options: { env?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<GatewayProcess> {
  const config = stack.gatewayConfig();
  const port = await freePort();
  const managementPort = await freePort();
  const child = spawn(process.execPath, [...HEAP_PROBE, MAIN], {
    env: {
      ...process.env,
      ATRIUM_CONTROL_PLANE_URL: config.controlPlaneUrl,
      ATRIUM_CONTROL_PLANE_TOKEN: config.controlPlaneToken,
      ATRIUM_GATEWAY_ID: config.id,
      ATRIUM_GATEWAY_FQDNS: `${config.id}.test`,
      ATRIUM_GATEWAY_LABELS: "env=test",
      ATRIUM_GATEWAY_HOST: "127.0.0.1",
      ATRIUM_GATEWAY_PORT: String(port),
      ATRIUM_GATEWAY_MANAGEMENT_PORT: String(managementPort),
      ATRIUM_GATEWAY_CACHE_DIR: config.cacheDir,
      ATRIUM_GATEWAY_SESSION_KEY: (config.sessionKey as Buffer).toString("base64"),
      ATRIUM_LOG_LEVEL: testLogLevel("warn"),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test process that ends without its afterAll (an uncaught error) takes its gateway along.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.removeListener("exit", killOnExit));
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  captureOutput("gateway-process", child.stdout, child.stderr);
  const url = `http://127.0.0.1:${port}`;
  const gateway: GatewayProcess = {
    url,
    pid: child.pid as number,
    rssBytes: () => rssOf(child.pid as number),
    liveHeapBytes: () => liveHeapOf(child),
    socketsTo: (backendPort) => socketsOf(child.pid as number, backendPort),
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => output,
    stop: () => stop(child),
  };
  try {
    await waitFor(
      async () => {
        if (!gateway.alive()) throw new Error(`the gateway process exited:\n${output}`);
        return (await servesTools(url, mcpPath, options.headers)) === 200;
      },
      "the gateway process to serve the exposition",
      60_000,
    );
  } catch (error) {
    await gateway.stop();
    throw error;
  }
  return gateway;
}

export interface MemoryWatch {
  rssBefore: number;
  heapBefore: number;
  /** Stops sampling: the highest RSS seen (every 50 ms), the RSS now, and the live heap now. */
  stop(): Promise<{ rssPeak: number; rssAfter: number; heapAfter: number }>;
}

/** Takes the gateway's RSS and live heap now, and samples its RSS until `stop`. */
export async function watchMemory(gateway: GatewayProcess): Promise<MemoryWatch> {
  const rssBefore = gateway.rssBytes();
  const heapBefore = await gateway.liveHeapBytes();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    if (gateway.alive()) rssPeak = Math.max(rssPeak, gateway.rssBytes());
  }, 50);
  return {
    rssBefore,
    heapBefore,
    stop: async () => {
      clearInterval(sampler);
      const rssAfter = gateway.rssBytes();
      return { rssPeak: Math.max(rssPeak, rssAfter), rssAfter, heapAfter: await gateway.liveHeapBytes() };
    },
  };
}

export interface ExposedGateway {
  stack: Stack;
  gateway: GatewayProcess;
  /** `/mcp/<exposition id>` of the Exposition. */
  mcpPath: string;
  /** The plan's API key, when it has one. */
  apiKey: string | undefined;
  /** Stops the gateway process, then the stack. */
  close(): Promise<void>;
}

/**
 * A test stack with an Exposition `name` (a Service of `openapi`, else the stack's fixture
 * Service; a plan of `plan`'s fields) and a gateway process serving it, with `env` set.
 */
export async function startExposedGateway(
  name: string,
  options: { openapi?: string; plan: Record<string, unknown>; env?: Record<string, string> },
): Promise<ExposedGateway> {
  const stack = await startStack();
  try {
    const exposed = await stack.expose(name, {
      plan: options.plan,
      ...(options.openapi ? { openapi: options.openapi } : {}),
    });
    const mcpPath = `/mcp/${exposed.expositionId}`;
    const apiKey = exposed.apiKey as string | undefined;
    const gateway = await startGatewayProcess(stack, mcpPath, {
      env: options.env,
      headers: apiKey ? { "x-atrium-key": apiKey } : {},
    });
    return {
      stack,
      gateway,
      mcpPath,
      apiKey,
      close: async () => {
        await gateway.stop();
        await stack.close();
      },
    };
  } catch (error) {
    await stack.close();
    throw error;
  }
}

/** The status of a modern-era tools/list at `mcpPath` (0 when nothing answers yet). */
async function servesTools(url: string, mcpPath: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    const response = await fetch(
      `${url}${mcpPath}`,
      modernRequest("tools/list", {}, { client: "reliability", headers }),
    );
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

async function liveHeapOf(child: ChildProcess): Promise<number> {
  const answer = new Promise<number>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => done(new Error("no heap-probe line within 10 s")), 10_000);
    const read = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const line = /heap-probe (\{.*\})/.exec(text)?.[1];
      if (line) done(undefined, (JSON.parse(line) as { heapUsedMb: number }).heapUsedMb * 1024 * 1024);
    };
    const done = (error?: Error, bytes?: number) => {
      clearTimeout(timer);
      child.stdout?.off("data", read);
      if (error) reject(error);
      else resolve(bytes as number);
    };
    child.stdout?.on("data", read);
  });
  child.kill("SIGUSR2");
  return answer;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killer);
}

export function rssOf(pid: number): number {
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kilobytes === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kilobytes) * 1024;
}

/**
 * Connections of process `pid` whose remote end is `port` on this machine: the socket inodes
 * among its file descriptors, matched in the kernel's TCP tables (any state but TIME_WAIT, which
 * no descriptor holds).
 */
export function socketsOf(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed between the listing and the read
    }
  }
  const remotePort = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let count = 0;
  for (const table of ["tcp", "tcp6"]) {
    let text = "";
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (fields.length > 9 && fields[2]?.endsWith(remotePort) && inodes.has(fields[9] as string)) count++;
    }
  }
  return count;
}
