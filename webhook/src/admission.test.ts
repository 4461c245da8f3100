import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validSamples } from "@atrium/crds";
import { testLogging } from "@atrium/reliability/secrets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewAdmission } from "./admission.ts";
import { WebhookError } from "./errors.ts";
import { WebhookMetrics } from "./metrics.ts";
import { buildWebhookServer, type WebhookServer } from "./server.ts";
import { createTestCa } from "./testing.ts";
import { checkTlsPair } from "./tls.ts";

const plan = validSamples().find((s) => s.document.kind === "ConfigurationPlan")?.document as unknown as {
  metadata: Record<string, unknown>;
  spec: Record<string, unknown>;
};
const badPlan = { ...plan, spec: { ...plan.spec, backendEndpoint: "https://user:pass@x.example.com" } };

function review(request: Record<string, unknown>) {
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      kind: { group: "atrium.dev", version: "v1alpha1", kind: "ConfigurationPlan" },
      resource: { group: "atrium.dev", version: "v1alpha1", resource: "configurationplans" },
      name: "petstore-plan",
      namespace: "default",
      operation: "CREATE",
      userInfo: { username: "admin" },
      object: plan,
      oldObject: null,
      dryRun: false,
      ...request,
    },
  };
}

function malformed(body: unknown): WebhookError {
  try {
    reviewAdmission(body);
  } catch (error) {
    if (error instanceof WebhookError) return error;
    throw error;
  }
  throw new Error("answered");
}

describe("reviewAdmission", () => {
  it("allows a valid CREATE, echoing the uid", () => {
    expect(reviewAdmission(review({})).answer).toEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid: "705ab4f5-6393-11e8-b7cc-42010a800002", allowed: true },
    });
  });

  it("refuses an invalid object with 422 Invalid and one cause per field", () => {
    const { answer, message } = reviewAdmission(review({ object: badPlan }));
    const text = "spec.backendEndpoint: must not contain credentials (user:password@): keep them in a Secret";
    expect(message).toBe(text);
    expect(answer.response).toEqual({
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      allowed: false,
      status: {
        status: "Failure",
        code: 422,
        reason: "Invalid",
        message: text,
        details: {
          name: "petstore-plan",
          group: "atrium.dev",
          kind: "ConfigurationPlan",
          causes: [
            {
              reason: "FieldValueInvalid",
              field: "spec.backendEndpoint",
              message: "must not contain credentials (user:password@): keep them in a Secret",
            },
          ],
        },
      },
    });
  });

  it("allows Prompts with image and embedded-resource messages, and refuses data that is not base64 at its field", () => {
    const prompts = validSamples().find((s) => s.document.kind === "Prompts")?.document as unknown as {
      metadata: Record<string, unknown>;
      spec: { prompts: { messages: Record<string, unknown>[] }[] };
    };
    const kind = { group: "atrium.dev", version: "v1alpha1", kind: "Prompts" };
    const resource = { group: "atrium.dev", version: "v1alpha1", resource: "prompts" };
    const rich = prompts.spec.prompts.flatMap((p) => p.messages).filter((m) => m.image || m.resource);
    expect(rich.length).toBeGreaterThanOrEqual(2);
    expect(reviewAdmission(review({ kind, resource, object: prompts })).answer.response.allowed).toBe(true);

    const spoiled = structuredClone(prompts);
    const photo = spoiled.spec.prompts.findIndex((p) => p.messages.some((m) => m.image));
    const message = spoiled.spec.prompts[photo]?.messages.findIndex((m) => m.image) ?? -1;
    const image = spoiled.spec.prompts[photo]?.messages[message]?.image as { data: string } | undefined;
    if (!image) throw new Error("the sample has no image message");
    image.data = "not base64!";
    const { answer } = reviewAdmission(review({ kind, resource, object: spoiled }));
    expect(answer.response.status?.details.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: `spec.prompts[${photo}].messages[${message}].image.data`,
        message: "must be base64 (standard alphabet, padded)",
      },
    ]);
  });

  it("marks missing fields FieldValueRequired", () => {
    const { backendEndpoint: _, ...spec } = plan.spec;
    const { answer } = reviewAdmission(review({ object: { ...plan, spec } }));
    expect(answer.response.status?.details.causes).toEqual([
      { reason: "FieldValueRequired", field: "spec.backendEndpoint", message: "Required value" },
    ]);
  });

  it("refuses an UPDATE that makes the spec invalid", () => {
    const { answer } = reviewAdmission(review({ operation: "UPDATE", object: badPlan, oldObject: plan }));
    expect(answer.response.allowed).toBe(false);
  });

  it("lets an UPDATE that keeps an already invalid spec through, with warnings", () => {
    const labelled = { ...badPlan, metadata: { ...plan.metadata, labels: { team: "pets" } } };
    const { answer } = reviewAdmission(review({ operation: "UPDATE", object: labelled, oldObject: badPlan }));
    expect(answer.response).toMatchObject({
      allowed: true,
      warnings: [expect.stringMatching(/^spec\.backendEndpoint: must not contain credentials.*not enforced\)$/)],
    });
  });

  it("never blocks the UPDATE of a resource being deleted (finalizer removal)", () => {
    const deleting = { ...badPlan, metadata: { ...plan.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } };
    const { backendEndpoint: _, ...spec } = plan.spec;
    const { answer } = reviewAdmission(
      review({ operation: "UPDATE", object: { ...deleting, spec }, oldObject: deleting }),
    );
    expect(answer.response.allowed).toBe(true);
  });

  it("allows DELETE and CONNECT without an object", () => {
    for (const operation of ["DELETE", "CONNECT"]) {
      expect(reviewAdmission(review({ operation, object: null, oldObject: badPlan })).answer.response.allowed).toBe(
        true,
      );
    }
  });

  it("passes warnings on", () => {
    const object = { ...plan, spec: { ...plan.spec, includedOperations: ["listPets"] } };
    expect(reviewAdmission(review({ object })).answer.response.warnings).toEqual([
      expect.stringMatching(/^spec\.excludedOperations has no effect/),
    ]);
  });

  it("refuses the singular kind Resource", () => {
    const object = { apiVersion: "atrium.dev/v1alpha1", kind: "Resource", metadata: { name: "x" }, spec: {} };
    const { answer } = reviewAdmission(
      review({ object, kind: { group: "atrium.dev", version: "v1alpha1", kind: "Resource" } }),
    );
    expect(answer.response.status?.message).toBe(
      "Unsupported artifact kind and version: Resource (use kind Resources)",
    );
  });

  it.each([
    ["not an object", [1, 2], "the body must be a JSON object"],
    ["another kind", { ...review({}), kind: "Review" }, "kind: Invalid input"],
    ["no request", { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview" }, "request: Required value"],
    ["no uid", review({ uid: undefined }), "request.uid: Required value"],
    ["an unknown operation", review({ operation: "PATCH" }), "request.operation: Invalid option"],
    ["a CREATE without object", review({ object: null }), "request.object: must be the object being created"],
  ])("throws MALFORMED_REVIEW (400) for %s", (_, body, reason) => {
    const error = malformed(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe("MALFORMED_REVIEW");
    expect(error.message).toContain(reason);
  });

  it("names the supported version for a v1beta1 review", () => {
    const error = malformed({ ...review({}), apiVersion: "admission.k8s.io/v1beta1" });
    expect(error.status).toBe(400);
    expect(error.message).toContain('admissionReviewVersions: ["v1"]');
  });
});

describe("the /validate endpoint", () => {
  let dir: string;
  let app: WebhookServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "atrium-webhook-"));
    const pair = await (await createTestCa(dir)).issueServingCert();
    app = buildWebhookServer(checkTlsPair(dir, pair.cert, pair.key), new WebhookMetrics(), testLogging("webhook"));
  });

  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (payload: string, contentType = "application/json") =>
    app.inject({ method: "POST", url: "/validate", payload, headers: { "content-type": contentType } });

  it("answers a review with HTTP 200, allowed or not", async () => {
    const allowed = await post(JSON.stringify(review({})));
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().response.allowed).toBe(true);
    const refused = await post(JSON.stringify(review({ object: badPlan })));
    expect(refused.statusCode).toBe(200);
    expect(refused.json().response.status.code).toBe(422);
  });

  it("answers 400 with a code and message to a malformed review, unparsable JSON or an empty body", async () => {
    const noUid = await post(JSON.stringify(review({ uid: undefined })));
    expect(noUid.statusCode).toBe(400);
    expect(noUid.json()).toEqual({
      code: "MALFORMED_REVIEW",
      message: "Not an admission.k8s.io/v1 AdmissionReview request: request.uid: Required value",
    });
    const broken = await post("{");
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe("FST_ERR_CTP_INVALID_JSON_BODY");
    expect((await post("")).statusCode).toBe(400);
    expect((await post("<x/>", "application/xml")).statusCode).toBe(415);
  });

  it("counts reviews by kind, operation and verdict, and malformed ones", async () => {
    const metrics = (await app.inject({ method: "GET", url: "/q/metrics" })).body;
    expect(metrics).toContain(
      'atrium_webhook_reviews_total{kind="ConfigurationPlan",operation="CREATE",allowed="true"} 1',
    );
    expect(metrics).toContain(
      'atrium_webhook_reviews_total{kind="ConfigurationPlan",operation="CREATE",allowed="false"} 1',
    );
    expect(metrics).toMatch(/atrium_webhook_malformed_reviews_total [1-9]/);
  });

  it("serves liveness and readiness, and 404 elsewhere", async () => {
    expect((await app.inject({ method: "GET", url: "/q/health/live" })).json()).toEqual({ status: "UP" });
    expect((await app.inject({ method: "GET", url: "/q/health/ready" })).statusCode).toBe(200);
    const missing = await app.inject({ method: "POST", url: "/mutate" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("ROUTE_NOT_FOUND");
  });
});
