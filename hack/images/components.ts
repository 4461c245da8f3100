/**
 * Starting each component image with what it needs to become ready, as a deployment would: the
 * control plane on its embedded database (a tmpfs at /var/lib/atrium), a gateway registered with
 * that control plane through an API token, the operator watching a real kube-apiserver (the
 * repository's kube-testenv, CRDs installed) and the webhook serving a certificate from a test CA.
 * Every container runs read-only as uid 1000 on loopback ports picked free; files it reads are
 * mounted from a temp folder. Shared by hack/images/measure.ts and images.test.ts.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestCa, type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import { installCrds } from "@atrium/operator/testing";
import { request } from "undici";
import {
  type Component,
  type Container,
  type ContainerOptions,
  type HttpCheck,
  imageName,
  startContainer,
  waitReady,
} from "./containers.ts";

/** A started component: its container, the URL that says it is ready, and how long that took. */
export interface Started {
  component: Component;
  container: Container;
  ready: HttpCheck;
  /** From `podman run` to the first 200 of `ready` (ms). */
  readyMs: number;
  /** Another URL that answers while it runs (liveness), when it has one apart from `ready`. */
  live?: HttpCheck;
}

/** What several components share (the control plane, the API server); stopped by `close()`. */
export interface Fixture {
  tag: string;
  dir: string;
  /** Every container started for this fixture, removed by `close()`. */
  containers: Container[];
  controlPlane?: Started & { url: string; adminPassword: string };
  kube?: KubeTestEnv;
  close(): Promise<void>;
}

export async function createFixture(tag: string): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), "atrium-images-"));
  // Containers run as uid 1000: the files mounted into them must be readable by it.
  await chmod(dir, 0o755);
  const fixture: Fixture = {
    tag,
    dir,
    containers: [],
    async close() {
      for (const container of fixture.containers.reverse()) await container.remove();
      await fixture.kube?.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** A file to mount: readable by the container's uid 1000 (the temp folder is this fixture's alone). */
async function mountableFile(fixture: Fixture, name: string, content: string): Promise<string> {
  const path = join(fixture.dir, name);
  await writeFile(path, content, { mode: 0o644 });
  return path;
}

async function start(fixture: Fixture, options: ContainerOptions): Promise<Container> {
  const container = await startContainer(options);
  fixture.containers.push(container);
  return container;
}

/** The control plane on its embedded database, with a known admin password. */
export async function startControlPlane(fixture: Fixture): Promise<NonNullable<Fixture["controlPlane"]>> {
  const port = await freePort();
  const adminPassword = randomBytes(12).toString("base64url");
  const container = await start(fixture, {
    image: imageName("control-plane", fixture.tag),
    tmpfs: ["/var/lib/atrium"],
    env: { ATRIUM_PORT: String(port), ATRIUM_HOST: "127.0.0.1", ATRIUM_ADMIN_PASSWORD: adminPassword },
  });
  const url = `http://127.0.0.1:${port}`;
  const ready = { url: `${url}/q/health/ready` };
  const readyMs = await waitReady(container, ready, 120_000);
  const started = {
    component: "control-plane" as const,
    container,
    ready,
    readyMs,
    live: { url: `${url}/q/health/live` },
    url,
    adminPassword,
  };
  fixture.controlPlane = started;
  return started;
}

/** An API token of the control plane's default organization, written to a file a container can mount. */
async function apiTokenFile(fixture: Fixture, role: "gateway" | "operator"): Promise<string> {
  const controlPlane = fixture.controlPlane ?? (await startControlPlane(fixture));
  const call = async (path: string, body: unknown, token?: string) => {
    const response = await request(`${controlPlane.url}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const answer = (await response.body.json()) as Record<string, string>;
    if (response.statusCode >= 300) throw new Error(`POST ${path}: ${response.statusCode} ${JSON.stringify(answer)}`);
    return answer;
  };
  const login = await call("/login", {
    organization: "default",
    username: "admin",
    password: controlPlane.adminPassword,
  });
  const created = await call(
    "/api-tokens",
    { name: `${role}-${randomBytes(3).toString("hex")}`, validityDays: 1, role },
    login.token,
  );
  return mountableFile(fixture, `${role}-token`, `${created.token}\n`);
}

/** A gateway registered with the fixture's control plane; ready once it has its first snapshot. */
export async function startGateway(fixture: Fixture): Promise<Started> {
  const token = await apiTokenFile(fixture, "gateway");
  const [port, managementPort] = [await freePort(), await freePort()];
  const container = await start(fixture, {
    image: imageName("gateway", fixture.tag),
    tmpfs: ["/var/lib/atrium"],
    files: { [token]: "/run/atrium/token" },
    env: {
      ATRIUM_CONTROL_PLANE_URL: fixture.controlPlane?.url ?? "",
      ATRIUM_CONTROL_PLANE_TOKEN_FILE: "/run/atrium/token",
      ATRIUM_GATEWAY_ID: "image-test",
      ATRIUM_GATEWAY_FQDNS: `localhost:${port}`,
      ATRIUM_GATEWAY_HOST: "127.0.0.1",
      ATRIUM_GATEWAY_PORT: String(port),
      ATRIUM_GATEWAY_MANAGEMENT_PORT: String(managementPort),
    },
  });
  const ready = { url: `http://127.0.0.1:${managementPort}/q/health/ready` };
  return {
    component: "gateway",
    container,
    ready,
    readyMs: await waitReady(container, ready),
    live: { url: `http://127.0.0.1:${managementPort}/q/health/live` },
  };
}

/** The operator against a real kube-apiserver with the CRDs installed; ready once its caches synced. */
export async function startOperator(fixture: Fixture): Promise<Started> {
  const token = await apiTokenFile(fixture, "operator");
  if (!fixture.kube) {
    fixture.kube = await startKubeTestEnv();
    await installCrds(fixture.kube);
  }
  const kubeconfig = await mountableFile(fixture, "kubeconfig", await readFile(fixture.kube.kubeconfigPath, "utf8"));
  const port = await freePort();
  const container = await start(fixture, {
    image: imageName("operator", fixture.tag),
    files: { [token]: "/run/atrium/token", [kubeconfig]: "/run/atrium/kubeconfig" },
    env: {
      KUBECONFIG: "/run/atrium/kubeconfig",
      ATRIUM_CONTROL_PLANE_URL: fixture.controlPlane?.url ?? "",
      ATRIUM_CONTROL_PLANE_TOKEN_FILE: "/run/atrium/token",
      ATRIUM_OPERATOR_HOST: "127.0.0.1",
      ATRIUM_OPERATOR_PORT: String(port),
      ATRIUM_LEADER_ELECTION_NAMESPACE: "default",
    },
  });
  const ready = { url: `http://127.0.0.1:${port}/q/health/ready` };
  return {
    component: "operator",
    container,
    ready,
    readyMs: await waitReady(container, ready),
    live: { url: `http://127.0.0.1:${port}/q/health/live` },
  };
}

/** The admission webhook serving a certificate signed by a test CA (as a mounted kubernetes.io/tls Secret). */
export async function startWebhook(fixture: Fixture): Promise<Started> {
  const ca = await createTestCa(fixture.dir, "atrium-images-test-ca");
  const serving = await ca.issueServingCert("webhook");
  await mkdir(join(fixture.dir, "webhook-tls"), { mode: 0o755 });
  const cert = await mountableFile(fixture, "webhook-tls/tls.crt", await readFile(serving.cert, "utf8"));
  const key = await mountableFile(fixture, "webhook-tls/tls.key", await readFile(serving.key, "utf8"));
  const port = await freePort();
  const container = await start(fixture, {
    image: imageName("webhook", fixture.tag),
    files: { [cert]: "/etc/atrium/webhook/tls/tls.crt", [key]: "/etc/atrium/webhook/tls/tls.key" },
    env: { ATRIUM_WEBHOOK_HOST: "127.0.0.1", ATRIUM_WEBHOOK_PORT: String(port) },
  });
  const ready = { url: `https://127.0.0.1:${port}/q/health/ready`, ca: ca.caPem };
  return {
    component: "webhook",
    container,
    ready,
    readyMs: await waitReady(container, ready),
    live: { url: `https://127.0.0.1:${port}/q/health/live`, ca: ca.caPem },
  };
}

/** Starts one component (and what it depends on, once per fixture). */
export function startComponent(fixture: Fixture, component: Component): Promise<Started> {
  switch (component) {
    case "control-plane":
      return startControlPlane(fixture);
    case "gateway":
      return startGateway(fixture);
    case "operator":
      return startOperator(fixture);
    case "webhook":
      return startWebhook(fixture);
  }
}
