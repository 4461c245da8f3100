/**
 * The webhook behind a real kube-apiserver + etcd: the eight CRDs, the webhook running in-process
 * on 127.0.0.1 with a certificate from a test CA, and a ValidatingWebhookConfiguration pointing
 * at it by URL. What the CRDs let through but the rules CEL cannot say refuse (URL syntax, label
 * keys in maps, list comparisons) is refused with the webhook's message, on CREATE and UPDATE;
 * valid samples pass, and the webhook keeps answering across a certificate rotation.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GROUP_VERSION, kindNamed, validSamples } from "@atrium/crds";
import { type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import { testLogging } from "@atrium/reliability/secrets";
import { Agent, fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhook, type Webhook } from "./server.ts";
import {
  type KubeAnswer as ApiAnswer,
  createTestCa,
  installCrds,
  type KubeRequest,
  kubeRequest,
  registerWebhook,
  servedFingerprint,
  type TestCa,
  WEBHOOK_NAME,
  waitFor,
  writeSecretVolume,
} from "./testing.ts";

const namespace = "webhook";
let env: KubeTestEnv;
let agent: Agent;
let api: KubeRequest;
let dir: string;
let ca: TestCa;
let webhook: Webhook;

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [field: string]: unknown };
  [field: string]: unknown;
}

function collection(object: Manifest): string {
  if (object.apiVersion === "v1") return `/api/v1/namespaces/${namespace}/${object.kind.toLowerCase()}s`;
  return `/apis/${GROUP_VERSION}/namespaces/${namespace}/${kindNamed(object.kind)?.plural}`;
}

function create(object: Manifest, dryRun = false): Promise<ApiAnswer> {
  const withNamespace = { ...object, metadata: { ...object.metadata, namespace } };
  return api("POST", `${collection(object)}${dryRun ? "?dryRun=All" : ""}`, withNamespace);
}

const sample = (kind: string) => {
  const found = validSamples().find((s) => s.document.kind === kind);
  if (!found) throw new Error(`no valid sample of ${kind}`);
  return found.document as Manifest & { spec: Record<string, unknown> };
};

/** A valid sample of `kind` under another name, its spec fields replaced. */
function variant(kind: string, name: string, spec: Record<string, unknown>): Manifest {
  const base = sample(kind);
  return { ...base, metadata: { name }, spec: { ...base.spec, ...spec } };
}

/** Refused by the webhook (not by the CRD schema), with its message. */
function expectRefusedByWebhook(answer: ApiAnswer, field: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(422);
  expect(answer.body.message).toContain(`admission webhook "${WEBHOOK_NAME}" denied the request: `);
  expect(answer.body.message).toContain(`${field}: `);
  expect(answer.body.details.causes).toContainEqual(expect.objectContaining({ field }));
}

const overlapping = () =>
  variant("ConfigurationPlan", "overlapping-operations", {
    includedOperations: ["listPets", "deletePet"],
    excludedOperations: ["deletePet"],
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-webhook-apiserver-"));
  [env, ca] = await Promise.all([startKubeTestEnv(), createTestCa(dir)]);
  agent = new Agent({ connect: { ca: env.caPem } });
  api = kubeRequest(env, agent);
  await writeSecretVolume(join(dir, "tls"), await ca.issueServingCert());
  webhook = await startWebhook({
    host: "127.0.0.1",
    port: 0,
    tlsDir: join(dir, "tls"),
    tlsReloadIntervalMs: 100,
    ...testLogging("webhook"),
  });

  await installCrds(api);
  expect((await api("POST", "/api/v1/namespaces", { metadata: { name: namespace } })).status).toBe(201);

  await registerWebhook(api, {
    name: "atrium-webhook",
    url: `https://127.0.0.1:${webhook.port}/validate`,
    caPem: ca.caPem,
  });
  // The API server picks a new configuration up asynchronously: until then requests pass unchecked.
  await waitFor("the webhook to be called", async () => {
    const answer = await create(overlapping(), true);
    return answer.status === 422 ? answer : undefined;
  });
});

afterAll(async () => {
  await webhook?.close();
  await env?.stop();
  await agent?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the webhook behind a real API server", () => {
  it("accepts every valid sample", async () => {
    for (const { file, document } of validSamples()) {
      const created = await create(document as Manifest);
      expect(created.status, `${file}: ${JSON.stringify(created.body)}`).toBe(201);
    }
  });

  it.each([
    ["included and excluded operations overlap", overlapping(), "spec.excludedOperations"],
    [
      "credentials in the backend URL",
      variant("ConfigurationPlan", "credentials-in-url", { backendEndpoint: "https://user:pass@x.example.com" }),
      "spec.backendEndpoint",
    ],
    [
      "a label key with a space",
      variant("GatewayGroup", "bad-label-key", { labels: { "bad key!": "x" } }),
      "spec.labels[bad key!]",
    ],
    [
      "one key read from two Secrets",
      variant("SecretSource", "key-twice", {
        secretRefs: [
          { name: "first", keys: ["token"] },
          { name: "second", keys: ["token"] },
        ],
      }),
      "spec.secretRefs[1].keys[0]",
    ],
  ])("refuses %s, naming the field", async (_, object, field) => {
    expectRefusedByWebhook(await create(object), field);
    expect((await api("GET", `${collection(object)}/${object.metadata.name}`)).status).toBe(404);
  });

  it("refuses an UPDATE that makes a valid resource invalid, and accepts a valid one", async () => {
    const path = `${collection(sample("ConfigurationPlan"))}/petstore-plan`;
    const patch = (spec: Record<string, unknown>) => api("PATCH", path, { spec }, "application/merge-patch+json");
    expectRefusedByWebhook(await patch({ backendEndpoint: "https://x.example.com/#frag" }), "spec.backendEndpoint");

    const current = await api("GET", path);
    const replaced = await api("PUT", path, {
      ...current.body,
      spec: { ...current.body.spec, includedOperations: ["deletePet"] },
    });
    expectRefusedByWebhook(replaced, "spec.excludedOperations");

    const accepted = await patch({ backendEndpoint: "https://petstore-v2.example.com/api" });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.spec.backendEndpoint).toBe("https://petstore-v2.example.com/api");
  });

  it("passes the webhook's warnings on to the client", async () => {
    const response = await fetch(`${env.server}${collection(sample("ConfigurationPlan"))}?dryRun=All`, {
      method: "POST",
      body: JSON.stringify({
        ...variant("ConfigurationPlan", "with-warning", { includedOperations: ["listPets"] }),
        metadata: { name: "with-warning", namespace },
      }),
      headers: { authorization: `Bearer ${env.token}`, "content-type": "application/json" },
      dispatcher: agent,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("warning")).toContain("spec.excludedOperations has no effect");
  });

  it("keeps answering the API server after the serving certificate is renewed", async () => {
    const before = await servedFingerprint(webhook.port, ca.caPem);
    const renewed = await ca.issueServingCert();
    await writeSecretVolume(join(dir, "tls"), renewed);
    const after = await waitFor("the renewed certificate to be served", async () => {
      const fingerprint = await servedFingerprint(webhook.port, ca.caPem);
      return fingerprint === before ? undefined : fingerprint;
    });
    expect(after).toBe(webhook.tls().fingerprint256);

    // The API server keeps its connection alive; make it open a new one, which gets the new certificate.
    const handshakes: string[] = [];
    webhook.app.server.on("secureConnection", (socket) => {
      handshakes.push(socket.getX509Certificate()?.fingerprint256 ?? "");
    });
    webhook.app.server.closeIdleConnections();
    expectRefusedByWebhook(await create(overlapping(), true), "spec.excludedOperations");
    expect(await create(variant("Exposition", "after-rotation", {}), true)).toMatchObject({ status: 201 });
    expect(handshakes).toContain(after);
    expect(handshakes).not.toContain(before);
  });

  it("counted the reviews by kind, operation and verdict", async () => {
    const metrics = await webhook.metrics.registry.metrics();
    expect(metrics).toMatch(/atrium_webhook_reviews_total\{kind="SecretSource",operation="CREATE",allowed="false"\} 1/);
    expect(metrics).toMatch(
      /atrium_webhook_reviews_total\{kind="ConfigurationPlan",operation="UPDATE",allowed="false"\} 2/,
    );
    expect(metrics).toMatch(/atrium_webhook_reviews_total\{kind="Prompts",operation="CREATE",allowed="true"\} 1/);
  });
});
