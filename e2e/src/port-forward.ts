/**
 * `kubectl port-forward` from a test: a local port on 127.0.0.1 that reaches a pod or Service port
 * through the API server and the kubelet. It works the same on every environment (on kind the
 * host cannot route to Service addresses).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { E2eEnvironment } from "./environment.ts";

export interface PortForward {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Whether kubectl still runs (it ends when the pod it forwards to goes away). */
  running(): boolean;
  close(): Promise<void>;
}

/** The kubectl and kubeconfig of an environment. */
export type KubectlAccess = Pick<E2eEnvironment, "kubectlPath" | "kubeconfigPath">;

/** Forwards a free local port to `target` (`service/echo`, `pod/x`) port `remotePort` in `namespace`. */
export async function portForward(
  env: KubectlAccess,
  namespace: string,
  target: string,
  remotePort: number,
  timeoutMs = 30_000,
): Promise<PortForward> {
  const child = spawn(
    env.kubectlPath,
    [
      `--kubeconfig=${env.kubeconfigPath}`,
      "-n",
      namespace,
      "port-forward",
      "--address=127.0.0.1",
      target,
      `:${remotePort}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.once("close", () => {
      running = false;
      resolve();
    }),
  );
  const close = async () => {
    child.kill();
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`port-forward to ${target} not ready after ${timeoutMs} ms`)),
        timeoutMs,
      );
      // "Forwarding from 127.0.0.1:40123 -> 8080"
      createInterface({ input: child.stdout }).on("line", (line) => {
        const match = /^Forwarding from 127\.0\.0\.1:(\d+) ->/.exec(line);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once("close", (code) => {
        clearTimeout(timer);
        reject(new Error(`kubectl port-forward ${target} exited (${code}): ${stderr.trim()}`));
      });
    });
    return { url: `http://127.0.0.1:${port}`, running: () => running, close };
  } catch (error) {
    await close();
    throw error;
  }
}
