/**
 * The rulebook, table-driven: every sample of crds/samples through the four entry points that
 * judge a resource — the real kube-apiserver with the generated CRDs (structural schema and CEL),
 * the webhook's admission handler, the REST API (a real control plane on PGlite) and the CLI's
 * `atrium validate` — and, on top, the API server with the webhook registered, as on a cluster.
 *
 * Each invalid sample names its field, its message and what refuses it first on a cluster
 * (crds/src/samples.ts). Every Zod entry point must answer with exactly that field and message;
 * the API server with that field, and with that message where a CEL rule refused it (its
 * structural schema words its own). A rule CEL cannot say is accepted by the API server alone,
 * which proves the sample's `refused-by: webhook` honest, and refused once the webhook is on.
 * Valid samples pass everywhere.
 */

import { randomUUID } from "node:crypto";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiClient, startTestControlPlane, type TestControlPlane } from "@atrium/control-plane/testing";
import {
  API_GROUP,
  GROUP_VERSION,
  type InvalidSample,
  invalidSamples,
  kindNamed,
  kinds,
  type Sample,
  samplesDir,
  validSamples,
} from "@atrium/crds";
import { createTestCa, type KubeTestEnv, startKubeTestEnv } from "@atrium/kube-testenv";
import { testLogging } from "@atrium/reliability/secrets";
import { CERT_FILE, KEY_FILE, reviewAdmission, startWebhook, type Webhook } from "@atrium/webhook";
import {
  type KubeAnswer as Answer,
  installCrds,
  type KubeRequest,
  kubeRequest,
  registerWebhook,
  WEBHOOK_NAME,
  waitFor,
} from "@atrium/webhook/testing";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentVerdict } from "./commands/validate.ts";
import { runAtrium, testEnv } from "./testing.ts";

/** CRDs only: what the API server refuses by itself. */
const CRDS_ONLY = "rulebook-crds";
/** CRDs and the webhook, as the controllers chart installs them. */
const WITH_WEBHOOK = "rulebook-webhook";

let env: KubeTestEnv;
let agent: Agent;
let kube: KubeRequest;
let webhook: Webhook;
let controlPlane: TestControlPlane;
let admin: ApiClient;
let dir: string;
let cliEnv: NodeJS.ProcessEnv;
/** The REST answers to creating the valid samples (beforeAll), by file. */
const created = new Map<string, Answer>();

interface Cause {
  field: string;
  message: string;
  reason?: string;
}

/** Creates `document` in `namespace` without storing it (dryRun: admission and validation run, nothing is kept). */
function dryRunCreate(document: Sample["document"], namespace: string): Promise<Answer> {
  const path =
    document.apiVersion === "v1"
      ? `/api/v1/namespaces/${namespace}/${document.kind.toLowerCase()}s`
      : `/apis/${GROUP_VERSION}/namespaces/${namespace}/${kindNamed(document.kind)?.plural}`;
  return kube("POST", `${path}?dryRun=All`, { ...document, metadata: { ...document.metadata, namespace } });
}

/**
 * The causes of a refusal that name a field. Beside a structural-schema error the API server adds
 * one without a field ("<nil>"), saying that it skipped the CEL rules of an invalid object.
 */
function fieldCauses(answer: Answer): Cause[] {
  return (answer.body.details.causes as Cause[]).filter((cause) => cause.field !== "<nil>");
}

/**
 * One spelling for comparing field paths: Kubernetes writes `a[0].b` and `m[key]` (the webhook,
 * CEL) or `m.key` (structural-schema errors on map values); the REST API writes `a.0.b`.
 */
function dotted(field: string): string {
  return field.replace(/\[([^\]]*)\]/g, ".$1");
}

/** The REST field a custom resource's field becomes: references by name are record ids there. */
function restField(field: string): string {
  const renamed: Record<string, string> = {
    "metadata.name": "body.name",
    "spec.serviceRef": "body.serviceId",
    "spec.configurationPlanRef": "body.configurationPlanId",
    "spec.gatewayGroupRef": "body.gatewayGroupId",
  };
  return renamed[field] ?? dotted(field).replace(/^spec\./, "body.");
}

const collections: Record<string, string | undefined> = {
  Service: "/services",
  GatewayGroup: "/gateway-groups",
  ConfigurationPlan: "/configuration-plans",
  Exposition: "/expositions",
  CustomTools: "/custom-tools",
  Resources: "/resources",
  Prompts: "/prompts",
  // SecretSource has no REST body: the operator turns each key it reads into a /secrets record.
};

/** Record ids the REST bodies refer to, created from the valid samples. */
const ids: { service?: string; group?: number; plan?: string; secret?: string } = {};
/** Each created Service's id by its name: a reference names one Service among several samples (openapi, grpc…). */
const serviceIds = new Map<string, string>();
const serviceIdOf = (ref: unknown): string | undefined =>
  serviceIds.get(String((ref as { name?: unknown }).name)) ?? ids.service;

/**
 * The REST request the operator would send for `document` (operator/src/reconcile/kinds): the
 * spec with references replaced by record ids, `apiKey` as a boolean, `keepOnDelete` left out.
 */
function restRequest(document: Sample["document"]): { path: string; body: Record<string, unknown> } | undefined {
  const path = collections[document.kind];
  if (!path) return undefined;
  const { keepOnDelete: _keep, ...spec } = (document.spec ?? {}) as Record<string, unknown>;
  const name = document.metadata.name;
  switch (document.kind) {
    case "ConfigurationPlan": {
      const { serviceRef, apiKey, backendSecret, backendTls, ...settings } = spec;
      // backendTls's client certificate and key read through a SecretSource become stored secrets.
      const tls = backendTls as Record<string, Record<string, unknown> | undefined> | undefined;
      const tlsBody =
        tls &&
        Object.fromEntries(
          Object.entries(tls).map(([field, value]) =>
            value && typeof value === "object" && "secretSourceRef" in value
              ? [field, { secretId: ids.secret }]
              : [field, value],
          ),
        );
      const secret = backendSecret as Record<string, unknown> | undefined;
      const { secretSourceRef, ...secretRest } = secret ?? {};
      for (const source of ["oauth2ClientCredentials", "tokenExchange", "oauth2AuthorizationCode"]) {
        const credentials = secretRest[source] as { clientSecret?: Record<string, unknown> } | undefined;
        if (credentials?.clientSecret?.secretSourceRef) {
          const { secretSourceRef: _ref, ...clientSecret } = credentials.clientSecret;
          secretRest[source] = { ...credentials, clientSecret: { ...clientSecret, secretId: ids.secret } };
        }
      }
      return {
        path,
        body: {
          name,
          ...(serviceRef ? { serviceId: serviceIdOf(serviceRef) } : {}),
          ...settings,
          apiKey: apiKey !== undefined,
          ...(tlsBody ? { backendTls: tlsBody } : {}),
          ...(secret ? { backendSecret: { ...secretRest, ...(secretSourceRef ? { secretId: ids.secret } : {}) } } : {}),
        },
      };
    }
    case "Exposition": {
      const { configurationPlanRef, gatewayGroupRef } = spec;
      return {
        path,
        body: {
          name,
          ...(configurationPlanRef ? { configurationPlanId: ids.plan } : {}),
          ...(gatewayGroupRef ? { gatewayGroupId: ids.group } : {}),
        },
      };
    }
    case "GatewayGroup":
    case "Service":
      return { path, body: { name, ...spec } };
    default: {
      const { serviceRef, ...fields } = spec;
      return { path, body: { name, ...(serviceRef ? { serviceId: serviceIdOf(serviceRef) } : {}), ...fields } };
    }
  }
}

function review(document: Sample["document"]) {
  return reviewAdmission({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: randomUUID(),
      kind: { group: API_GROUP, version: "v1alpha1", kind: document.kind },
      operation: "CREATE",
      name: document.metadata.name,
      namespace: CRDS_ONLY,
      object: document,
    },
  }).answer.response;
}

/** `atrium validate <files> -o json`, in this process. */
async function cliValidate(files: string[]): Promise<{ code: number; verdicts: DocumentVerdict[] }> {
  const run = await runAtrium(["validate", ...files.map((file) => join(samplesDir, file)), "-o", "json"], {
    env: cliEnv,
  });
  return { code: run.code, verdicts: JSON.parse(run.stdout) };
}

const invalid = invalidSamples();
const atriumValid = validSamples().filter((sample) => kindNamed(sample.document.kind));
const webhookOnly = invalid.find((sample) => sample.refusedBy === "webhook");

/** The valid samples as REST records, in the order a working set is created (kinds.ts), so references exist. */
async function createWorkingSet(): Promise<void> {
  const secret = await admin.call("POST", "/api/v1/secrets", { name: "petstore-credentials.token", value: "s3cr3t" });
  expect(secret.status, JSON.stringify(secret.body)).toBe(201);
  ids.secret = secret.body.id;
  for (const kind of kinds) {
    for (const { file, document } of atriumValid.filter((sample) => sample.document.kind === kind.kind)) {
      const request = restRequest(document);
      if (!request) continue;
      const answer = await admin.call("POST", `/api/v1${request.path}`, request.body);
      created.set(file, answer);
      if (answer.status !== 201) continue;
      if (kind.kind === "Service") {
        serviceIds.set(document.metadata.name, answer.body.id);
        ids.service ??= answer.body.id;
      }
      if (kind.kind === "GatewayGroup") ids.group = answer.body.id;
      if (kind.kind === "ConfigurationPlan") ids.plan = answer.body.id;
    }
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-rulebook-"));
  cliEnv = testEnv();
  const ca = await createTestCa(dir, "atrium-rulebook-ca");
  const pair = await ca.issueServingCert("webhook", "atrium-webhook");
  await mkdir(join(dir, "tls"));
  await copyFile(pair.cert, join(dir, "tls", CERT_FILE));
  await copyFile(pair.key, join(dir, "tls", KEY_FILE));
  [env, webhook, controlPlane] = await Promise.all([
    startKubeTestEnv(),
    startWebhook({
      host: "127.0.0.1",
      port: 0,
      tlsDir: join(dir, "tls"),
      tlsReloadIntervalMs: 60_000,
      ...testLogging("webhook"),
    }),
    startTestControlPlane("pglite"),
  ]);
  admin = controlPlane.admin;
  await createWorkingSet();
  agent = new Agent({ connect: { ca: env.caPem } });
  kube = kubeRequest(env, agent);

  await installCrds(kube);
  for (const name of [CRDS_ONLY, WITH_WEBHOOK]) {
    const labels = name === WITH_WEBHOOK ? { "atrium.dev/webhook": "on" } : {};
    expect((await kube("POST", "/api/v1/namespaces", { metadata: { name, labels } })).status).toBe(201);
  }
  await registerWebhook(kube, {
    name: "atrium-rulebook",
    url: `https://127.0.0.1:${webhook.port}/validate`,
    caPem: ca.caPem,
    namespaceLabels: { "atrium.dev/webhook": "on" },
  });
  // The API server picks a new configuration up asynchronously: until then requests pass unchecked.
  if (!webhookOnly) throw new Error("crds/samples/invalid has no sample only the webhook refuses");
  await waitFor("the webhook to be called", async () => {
    const answer = await dryRunCreate(webhookOnly.document, WITH_WEBHOOK);
    return answer.status === 422 ? answer : undefined;
  });
});

afterAll(async () => {
  await Promise.all([env?.stop(), webhook?.close(), controlPlane?.close(), agent?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
  if (cliEnv?.ATRIUM_CONFIG_DIR) await rm(cliEnv.ATRIUM_CONFIG_DIR, { recursive: true, force: true });
});

describe("valid samples", () => {
  it("pass the API server, with and without the webhook", async () => {
    for (const { file, document } of validSamples()) {
      for (const namespace of [CRDS_ONLY, WITH_WEBHOOK]) {
        const answer = await dryRunCreate(document, namespace);
        expect(answer.status, `${file} in ${namespace}: ${JSON.stringify(answer.body)}`).toBe(201);
      }
    }
  });

  it("pass the webhook's admission handler", () => {
    for (const { file, document } of atriumValid) expect(review(document), file).toMatchObject({ allowed: true });
  });

  it("pass the REST API, created in dependency order", () => {
    const withRest = atriumValid.filter((sample) => collections[sample.document.kind]);
    expect([...created.keys()]).toEqual(expect.arrayContaining(withRest.map((sample) => sample.file)));
    for (const [file, answer] of created) expect(answer.status, `${file}: ${JSON.stringify(answer.body)}`).toBe(201);
    expect(ids).toMatchObject({ service: expect.any(String), group: expect.any(Number), plan: expect.any(String) });
  });

  it("pass `atrium validate`", async () => {
    const { code, verdicts } = await cliValidate(validSamples().map((sample) => sample.file));
    expect(verdicts.filter((verdict) => !verdict.valid)).toEqual([]);
    expect(code).toBe(0);
    // The core Secrets of the working set are left to the API server.
    const secrets = validSamples().filter((sample) => sample.document.kind === "Secret");
    expect(secrets.length).toBeGreaterThan(0);
    expect(verdicts.filter((verdict) => verdict.skipped).map((verdict) => verdict.kind)).toEqual(
      secrets.map(() => "Secret"),
    );
  });
});

describe.each(invalid.map((sample) => [sample.file, sample] as const))("%s", (_, sample: InvalidSample) => {
  const { document, expectedError: field, expectedMessage: message, refusedBy } = sample;

  it(`is ${refusedBy === "webhook" ? "accepted" : "refused"} by the API server with the CRDs alone`, async () => {
    const answer = await dryRunCreate(document, CRDS_ONLY);
    if (refusedBy === "webhook") {
      // CEL cannot say this rule (its doc says why): only the webhook refuses it on a cluster.
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return;
    }
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    const causes = fieldCauses(answer);
    expect(causes.map((cause) => dotted(cause.field))).toEqual([dotted(field)]);
    // The structural schema words its own messages; a CEL rule's message is the rule's.
    if (refusedBy === "cel") expect(causes.map((cause) => cause.message)).toEqual([expect.stringContaining(message)]);
  });

  it("is refused by the API server with the webhook, on that field", async () => {
    const answer = await dryRunCreate(document, WITH_WEBHOOK);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    const causes = fieldCauses(answer);
    expect(causes.map((cause) => dotted(cause.field))).toEqual([dotted(field)]);
    if (refusedBy === "webhook") {
      expect(answer.body.message).toContain(`admission webhook "${WEBHOOK_NAME}" denied the request: `);
      expect(causes).toEqual([{ reason: "FieldValueInvalid", field, message }]);
    }
  });

  it("is refused by the webhook's admission handler with that field and message", () => {
    const response = review(document);
    expect(response.allowed).toBe(false);
    expect(response.status?.details.causes.map(({ field, message }) => ({ field, message }))).toEqual([
      { field, message },
    ]);
  });

  it("is refused by `atrium validate` with that field and message", async () => {
    const { code, verdicts } = await cliValidate([sample.file]);
    expect(code).toBe(1);
    expect(verdicts.map((verdict) => verdict.violations)).toEqual([[{ field, message }]]);
  });

  if (collections[document.kind]) {
    it("is refused by the REST API with that field and message", async () => {
      // Built now that the records it refers to exist (beforeAll), so only the rule can refuse it.
      const { path, body } = restRequest(document) ?? { path: "", body: {} };
      const answer = await admin.call("POST", `/api/v1${path}`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.errors).toEqual([{ field: restField(field), message }]);
    });
  }
});
