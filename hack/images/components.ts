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
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@atrium/control-plane/testing";
import { createTestCa, type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import { installCrds } from "@atrium/operator/testing";
import { recordSecret, recordSecretFields } from "@atrium/reliability/secrets";
import { IMAGE_UI_DIR } from "@atrium/ui";
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
  /** CPU time its process had used by then (ms): the start's cost whatever the machine's load. */
  readyCpuMs: number;
  /** The URL that answers while it runs (liveness). */
  live: HttpCheck;
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

/** Waits for `<health>/ready`; the started component. `ca` verifies an https server. */
async function whenReady(
  component: Component,
  container: Container,
  health: string,
  ca?: string,
  timeoutMs?: number,
): Promise<Started> {
  const ready = { url: `${health}/ready`, ...(ca ? { ca } : {}) };
  const live = { url: `${health}/live`, ...(ca ? { ca } : {}) };
  const readyMs = await waitReady(container, ready, timeoutMs);
  return { component, container, ready, live, readyMs, readyCpuMs: await container.cpuMs() };
}

/** The control plane on its embedded database, with a known admin password, serving the web UI. */
export async function startControlPlane(fixture: Fixture): Promise<NonNullable<Fixture["controlPlane"]>> {
  const port = await freePort();
  const adminPassword = randomBytes(12).toString("base64url");
  recordSecret("admin password", adminPassword);
  const container = await start(fixture, {
    image: imageName("control-plane", fixture.tag),
    tmpfs: ["/var/lib/atrium"],
    env: {
      ATRIUM_PORT: String(port),
      ATRIUM_HOST: "127.0.0.1",
      ATRIUM_ADMIN_PASSWORD: adminPassword,
      ATRIUM_UI_DIR: IMAGE_UI_DIR,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  // A first start creates the database, migrates it and hashes the admin's password: slow on a busy machine.
  const health = await whenReady("control-plane", container, `${url}/q/health`, undefined, 120_000);
  fixture.controlPlane = { ...health, url, adminPassword };
  return fixture.controlPlane;
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
    recordSecretFields(answer, path); // the login token, the API token: for the secrets scan of the containers' logs
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
  return whenReady("gateway", container, `http://127.0.0.1:${managementPort}/q/health`);
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
  return whenReady("operator", container, `http://127.0.0.1:${port}/q/health`);
}

/** The admission webhook serving a certificate signed by a test CA (as a mounted kubernetes.io/tls Secret). */
export async function startWebhook(fixture: Fixture): Promise<Started> {
  const ca = await createTestCa(fixture.dir, "atrium-images-test-ca");
  const serving = await ca.issueServingCert("webhook");
  await mkdir(join(fixture.dir, "webhook-tls"), { mode: 0o755 });
  const cert = await mountableFile(fixture, "webhook-tls/tls.crt", await readFile(serving.cert, "utf8"));
  const keyPem = await readFile(serving.key, "utf8");
  recordSecret("TLS private key", keyPem);
  const key = await mountableFile(fixture, "webhook-tls/tls.key", keyPem);
  const port = await freePort();
  const container = await start(fixture, {
    image: imageName("webhook", fixture.tag),
    files: { [cert]: "/etc/atrium/webhook/tls/tls.crt", [key]: "/etc/atrium/webhook/tls/tls.key" },
    env: { ATRIUM_WEBHOOK_HOST: "127.0.0.1", ATRIUM_WEBHOOK_PORT: String(port) },
  });
  return whenReady("webhook", container, `https://127.0.0.1:${port}/q/health`, ca.caPem);
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
