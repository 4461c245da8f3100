/**
 * Starts a real etcd + kube-apiserver and checks what later tests rely on: the pinned version,
 * TLS verified against the test CA, the admin token through @kubernetes/client-node, rejection of
 * a wrong token, and a clean stop that closes the port.
 */
import { existsSync } from "node:fs";
import { request } from "node:https";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KubeTestEnv, portAccepts, startKubeTestEnv } from "./index.ts";

function get(env: KubeTestEnv, path: string, token = env.token) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    // `ca` and no rejectUnauthorized override: the serving certificate must verify.
    const req = request(
      `${env.server}${path}`,
      { ca: env.caPem, agent: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("kube-testenv", () => {
  let env: KubeTestEnv;

  beforeAll(async () => {
    env = await startKubeTestEnv();
  }, 120_000);

  afterAll(async () => {
    await env?.stop();
  }, 60_000);

  it("serves the pinned version over TLS verified by the test CA", async () => {
    const version = await get(env, "/version");
    expect(version.status).toBe(200);
    expect(JSON.parse(version.body).gitVersion).toBe("v1.36.3");
    const readyz = await get(env, "/readyz");
    expect(readyz).toEqual({ status: 200, body: "ok" });
  });

  it("creates a Namespace through @kubernetes/client-node", async () => {
    const core = env.kubeConfig.makeApiClient(CoreV1Api);
    const created = await core.createNamespace({
      body: { metadata: { name: "kube-testenv-smoke" } },
    });
    expect(created.metadata?.uid).toBeTruthy();
    const read = await core.readNamespace({ name: "kube-testenv-smoke" });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
  });

  it("rejects a wrong token with 401", async () => {
    const response = await get(env, "/api/v1/namespaces", "not-the-token");
    expect(response.status).toBe(401);
  });

  it("stops idempotently, closes the port and removes the temp dir", async () => {
    const port = Number(new URL(env.server).port);
    expect(await portAccepts(port)).toBe(true);
    await env.stop();
    await env.stop();
    expect(await portAccepts(port)).toBe(false);
    expect(existsSync(env.kubeconfigPath)).toBe(false);
  }, 60_000);
});
