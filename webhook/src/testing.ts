/**
 * Test helpers (`@atrium/webhook/testing`, for tests only): a throwaway CA made with the `openssl`
 * CLI that issues serving certificates for 127.0.0.1, a folder laid out like a mounted Kubernetes
 * Secret, updated the way the kubelet does it (a `..data` symlink swap), and a real API server
 * with the eight CRDs and this webhook registered.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connect } from "node:tls";
import { API_GROUP, customResourceDefinition, kinds } from "@atrium/crds";
import { createTestCa as createKubeTestCa, type KubeTestEnv } from "@atrium/kube-testenv";
import { recordSecret } from "@atrium/reliability/secrets";
import { type Agent, fetch } from "undici";
import { CERT_FILE, KEY_FILE } from "./tls.ts";

/** The name the tests register the webhook under; the API server quotes it in refusals. */
export const WEBHOOK_NAME = "validate.atrium.dev";

export interface PemPair {
  cert: string;
  key: string;
}

export interface TestCa {
  caPem: string;
  /** A new key and a certificate for IP:127.0.0.1 / DNS:localhost, with a random serial. */
  issueServingCert(): Promise<PemPair>;
}

/** A CA in `dir` (which must exist), from the test cluster's PKI helper; certificates as PEM text. */
export async function createTestCa(dir: string): Promise<TestCa> {
  const ca = await createKubeTestCa(dir, "atrium-webhook-test-ca");
  let issued = 0;
  return {
    caPem: ca.caPem,
    async issueServingCert() {
      const files = await ca.issueServingCert(`serving-${++issued}`, "atrium-webhook");
      const key = await readFile(files.key, "utf8");
      recordSecret("TLS private key", key);
      return { cert: await readFile(files.cert, "utf8"), key };
    },
  };
}

/**
 * Writes `pair` into `dir` as the kubelet writes a Secret volume: the files in a fresh timestamped
 * folder, `..data` pointing at it (replaced atomically by a rename), and `tls.crt` / `tls.key`
 * symlinks through `..data`.
 */
export async function writeSecretVolume(dir: string, pair: PemPair): Promise<void> {
  await mkdir(dir, { recursive: true });
  const version = `..${new Date().toISOString().replaceAll(":", "_")}.${randomBytes(4).toString("hex")}`;
  await mkdir(join(dir, version));
  await writeFile(join(dir, version, CERT_FILE), pair.cert);
  await writeFile(join(dir, version, KEY_FILE), pair.key, { mode: 0o600 });
  await rm(join(dir, "..data_tmp"), { force: true });
  await symlink(version, join(dir, "..data_tmp"));
  await rename(join(dir, "..data_tmp"), join(dir, "..data"));
  for (const file of [CERT_FILE, KEY_FILE]) {
    await symlink(join("..data", file), join(dir, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
}

/** The SHA-256 fingerprint of the certificate 127.0.0.1:`port` serves, verified against `ca`. */
export function servedFingerprint(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, ca }, () => {
      const fingerprint = socket.getPeerX509Certificate()?.fingerprint256;
      socket.end();
      if (fingerprint) resolve(fingerprint);
      else reject(new Error("no peer certificate"));
    });
    socket.on("error", reject);
  });
}

export interface KubeAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: API server answers are read field by field in assertions.
  body: any;
}
export type KubeRequest = (method: string, path: string, body?: unknown, contentType?: string) => Promise<KubeAnswer>;

/** Raw requests to `env`'s API server as the admin (raw JSON: client-node's models drop CRD schema keys). */
export function kubeRequest(env: Pick<KubeTestEnv, "server" | "token">, agent: Agent): KubeRequest {
  return async (method, path, body, contentType = "application/json") => {
    const response = await fetch(`${env.server}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: { authorization: `Bearer ${env.token}`, "content-type": contentType },
      dispatcher: agent,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

/** Polls `attempt` every 100 ms until it returns something. */
export async function waitFor<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Creates the eight generated CRDs and waits until each is Established. */
export async function installCrds(api: KubeRequest): Promise<void> {
  for (const kind of kinds) {
    const created = await api(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      customResourceDefinition(kind),
    );
    if (created.status !== 201)
      throw new Error(`CRD ${kind.plural}: ${created.status} ${JSON.stringify(created.body)}`);
  }
  for (const kind of kinds) {
    await waitFor(`${kind.plural} Established`, async () => {
      const crd = await api(
        "GET",
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${kind.plural}.${API_GROUP}`,
      );
      const established = crd.body?.status?.conditions?.some(
        (c: { type: string; status: string }) => c.type === "Established" && c.status === "True",
      );
      return established ? true : undefined;
    });
  }
}

/**
 * Registers the webhook at `url` for CREATE and UPDATE of the eight kinds, as the controllers chart
 * does; with `namespaceLabels`, only in namespaces carrying them. The API server picks the
 * configuration up asynchronously: wait for a refusal before relying on it.
 */
export async function registerWebhook(
  api: KubeRequest,
  options: { name: string; url: string; caPem: string; namespaceLabels?: Record<string, string> },
): Promise<void> {
  const registered = await api("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", {
    apiVersion: "admissionregistration.k8s.io/v1",
    kind: "ValidatingWebhookConfiguration",
    metadata: { name: options.name },
    webhooks: [
      {
        name: WEBHOOK_NAME,
        clientConfig: { url: options.url, caBundle: Buffer.from(options.caPem).toString("base64") },
        rules: [
          {
            apiGroups: [API_GROUP],
            apiVersions: ["v1alpha1"],
            operations: ["CREATE", "UPDATE"],
            resources: kinds.map((kind) => kind.plural),
            scope: "Namespaced",
          },
        ],
        ...(options.namespaceLabels ? { namespaceSelector: { matchLabels: options.namespaceLabels } } : {}),
        failurePolicy: "Fail",
        sideEffects: "None",
        admissionReviewVersions: ["v1"],
        timeoutSeconds: 5,
      },
    ],
  });
  if (registered.status !== 201) throw new Error(`webhook configuration: ${JSON.stringify(registered.body)}`);
}
