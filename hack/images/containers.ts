/**
 * Running the component images with podman (through hack/images/podman, the one place that knows
 * the flags these machines need), for hack/images/measure.ts and the image tests: building them
 * (cached layers), starting a container on the host network, waiting for an HTTP answer, stopping
 * it with SIGTERM and timing each step.
 */
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { appendToLog, testRunDir } from "@atrium/reliability/secrets";
import { Agent, request } from "undici";

const run = promisify(execFile);

export const REPO_ROOT = resolve(import.meta.dirname, "../..");
const PODMAN = join(REPO_ROOT, "hack/images/podman");

export const COMPONENTS = ["control-plane", "gateway", "operator", "webhook"] as const;
export type Component = (typeof COMPONENTS)[number];

/** The tag build.sh gives by default: the CLI's version, which `atrium run --release` defaults to. */
export const DEFAULT_TAG: string = JSON.parse(readFileSync(join(REPO_ROOT, "cli/package.json"), "utf8")).version;

/** The name build.sh gives an image. */
export function imageName(component: Component, tag = DEFAULT_TAG): string {
  return `localhost/atrium/${component}:${tag}`;
}

/** `podman <args>`; its stdout, or an error carrying its stderr. */
export async function podman(args: string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await run(PODMAN, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failed = error as Error & { stderr?: string };
    throw new Error(`podman ${args.slice(0, 2).join(" ")} failed: ${failed.stderr?.trim() || failed.message}`);
  }
}

/** `podman logs`: what a container wrote, standard output then standard error; podman's error if it cannot. */
async function containerLogs(name: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(PODMAN, ["logs", name], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    return stdout + stderr;
  } catch (error) {
    return (error as Error & { stderr?: string }).stderr?.trim() || (error as Error).message;
  }
}

/**
 * Under a test run, keeps the logs of containers about to be removed in the run's logs, for the
 * end-of-run secrets scan (the test tears down or restarts what wrote them); nothing otherwise.
 */
export async function keepContainerLogs(names: string[]): Promise<void> {
  if (!testRunDir()) return;
  for (const name of names) appendToLog(`container-${name}`, await containerLogs(name));
}

/** hack/images/build.sh without the measurements: unchanged sources reuse every cached layer. */
export function buildImages(components: readonly Component[] = COMPONENTS, tag = DEFAULT_TAG): void {
  execFileSync("bash", [join(REPO_ROOT, "hack/images/build.sh"), "--no-measure", "--tag", tag, ...components], {
    stdio: ["ignore", "inherit", "inherit"],
  });
}

export interface ImageInfo {
  size: number;
  user: string;
  labels: Record<string, string>;
  entrypoint: string[];
}

export async function inspectImage(image: string): Promise<ImageInfo> {
  const [info] = JSON.parse(await podman(["image", "inspect", image])) as {
    Size: number;
    Config: { User?: string; Labels?: Record<string, string>; Entrypoint?: string[] };
  }[];
  if (!info) throw new Error(`no image ${image}: build it with hack/images/build.sh`);
  return {
    size: info.Size,
    user: info.Config.User ?? "",
    labels: info.Config.Labels ?? {},
    entrypoint: info.Config.Entrypoint ?? [],
  };
}

export interface ContainerOptions {
  image: string;
  env?: Record<string, string>;
  /** Writable, empty folders owned by the container's user (podman's `U` option). */
  tmpfs?: string[];
  /** host path → container path, read-only. */
  files?: Record<string, string>;
}

export interface Container {
  name: string;
  /** When `podman run` was called (performance.now()). */
  startedAt: number;
  logs(): Promise<string>;
  /** Process state: exit code once it has exited. */
  state(): Promise<{ running: boolean; exitCode: number }>;
  /** CPU time (user + system, ms) its main process has used so far: a cost that does not depend on the machine's load. */
  cpuMs(): Promise<number>;
  /** SIGTERM, then SIGKILL after `graceSeconds`; how long it took and how the process ended. */
  stop(graceSeconds?: number): Promise<{ ms: number; exitCode: number }>;
  /** Removes the container (after a stop, or forced). Idempotent. */
  remove(): Promise<void>;
}

let counter = 0;

/**
 * `podman run -d` as the tests and measurements use it: host network (the caller picks free
 * loopback ports), read-only root filesystem, uid 1000, no anonymous volumes or /tmp tmpfs beyond
 * what is asked: the image must run with only the writable folders its documentation names.
 */
export async function startContainer(options: ContainerOptions): Promise<Container> {
  const name = `atrium-image-test-${process.pid}-${++counter}`;
  const args = ["run", "-d", "--name", name, "--network=host", "--read-only", "--read-only-tmpfs=false"];
  args.push("--user", "1000:1000");
  for (const path of options.tmpfs ?? []) args.push("--tmpfs", `${path}:rw,U,mode=0700`);
  for (const [host, path] of Object.entries(options.files ?? {})) args.push("-v", `${host}:${path}:ro`);
  for (const [key, value] of Object.entries(options.env ?? {})) args.push("-e", `${key}=${value}`);
  args.push(options.image);
  const startedAt = performance.now();
  await podman(args);
  const state = async () => {
    const text = await podman(["inspect", "--format", "{{.State.Running}} {{.State.ExitCode}}", name]);
    const [running, exitCode] = text.trim().split(" ");
    return { running: running === "true", exitCode: Number(exitCode) };
  };
  let removed = false;
  return {
    name,
    startedAt,
    logs: () => containerLogs(name),
    state,
    async cpuMs() {
      const pid = (await podman(["inspect", "--format", "{{.State.Pid}}", name])).trim();
      // /proc/<pid>/stat: utime and stime are fields 14 and 15 (after the parenthesised name), in ticks of 1/100 s.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async stop(graceSeconds = 10) {
      const began = performance.now();
      await podman(["stop", "--time", String(graceSeconds), name], (graceSeconds + 30) * 1000);
      return { ms: performance.now() - began, exitCode: (await state()).exitCode };
    },
    async remove() {
      if (removed) return;
      removed = true;
      await keepContainerLogs([name]);
      await podman(["rm", "--force", "--ignore", name]).catch(() => {});
    },
  };
}

export interface HttpCheck {
  url: string;
  /** PEM of the CA that signed an https server's certificate. */
  ca?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET; the status, headers and body, or undefined when nothing answers. */
export async function httpGet(check: HttpCheck): Promise<HttpAnswer | undefined> {
  const dispatcher = check.ca ? new Agent({ connect: { ca: check.ca } }) : undefined;
  try {
    const response = await request(check.url, { ...(dispatcher ? { dispatcher } : {}), headersTimeout: 2_000 });
    return { status: response.statusCode, headers: response.headers, body: await response.body.text() };
  } catch {
    return undefined;
  } finally {
    await dispatcher?.close();
  }
}

/**
 * Polls until the URL answers 200; the time from `podman run` to that answer (ms). Fails early,
 * with the container's log, when the container exits first.
 */
export async function waitReady(container: Container, check: HttpCheck, timeoutMs = 60_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = "no answer";
  let nextStateCheck = performance.now() + 500;
  for (;;) {
    const answer = await httpGet(check);
    if (answer?.status === 200) return performance.now() - container.startedAt;
    if (answer) last = `${answer.status} ${answer.body.slice(0, 200)}`;
    // Asking podman costs a process: twice a second is enough to fail fast, and keeps the timing fine.
    if (performance.now() > nextStateCheck) {
      const { running, exitCode } = await state(container);
      if (!running) {
        throw new Error(
          `${container.name} exited (${exitCode}) before ${check.url} answered:\n${await container.logs()}`,
        );
      }
      nextStateCheck = performance.now() + 500;
    }
    if (performance.now() > deadline) {
      throw new Error(`${check.url} not ready after ${timeoutMs} ms (last: ${last}):\n${await container.logs()}`);
    }
    await sleep(20);
  }
}

async function state(container: Container) {
  return container.state().catch(() => ({ running: false, exitCode: -1 }));
}
