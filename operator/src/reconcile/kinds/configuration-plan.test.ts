/**
 * The ConfigurationPlan reconciler on a real API server and control plane: OAuth (with
 * toolScopes), limits and audit settings carried to the control plane unchanged, updates included; the
 * client secret of oauth2ClientCredentials and oauth2AuthorizationCode resolved from its SecretSource; both
 * client-auth modes refused by CEL at the API server; the API key renewed and written again when
 * the plan's Secret is deleted; the control plane's write warnings as the WriteWarnings condition.
 */
import { recordSecret } from "@atrium/reliability/secrets";
import { ApiException } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { applyPetstore, deleteResource, patchResource, resource, useOperatorHarness, waitFor } from "../../testing.ts";

const testHarness = useOperatorHarness("plans", applyPetstore);

describe("ConfigurationPlan", () => {
  it("carries a plan's oauth (with toolScopes), limits and audit to the control plane unchanged, updates included", async () => {
    const harness = testHarness();
    const { env, namespace } = harness;
    const oauth = {
      issuer: "https://login.example.com/realms/pets",
      jwksUri: "https://login.example.com/realms/pets/certs",
      audience: "atrium-petstore",
      resource: "https://mcp.example.com/mcp/default/oauth-plan",
      requiredScopes: ["mcp:use", "pets:read"],
      toolScopes: { deletePet: ["pets:write", "pets:admin"], createPet: ["pets:write"] },
    };
    const limits = { per: "caller", requestsPerSecond: 5, burst: 10, tools: { createPet: { concurrentCalls: 1 } } };
    await harness.create(
      resource("ConfigurationPlan", "oauth-plan", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://oauth.example.com",
        oauth,
        audit: true,
        limits,
      }),
    );
    const ready = await harness.waitReady("ConfigurationPlan", "oauth-plan");
    const record = await harness.recordNamed("/configuration-plans", "oauth-plan");
    expect(record).toMatchObject({ id: ready.status?.id, hasApiKey: false, audit: true });
    expect(record?.oauth).toEqual(oauth);
    expect(record?.limits).toEqual(limits);

    const changed = { ...oauth, requiredScopes: ["mcp:use"], toolScopes: { getPet: ["pets:read"] } };
    const patched = await patchResource(env.custom, "ConfigurationPlan", namespace, "oauth-plan", [
      { op: "replace", path: "/spec/oauth", value: changed },
      { op: "replace", path: "/spec/audit", value: false },
      { op: "remove", path: "/spec/limits" },
    ]);
    await waitFor("the plan record's new oauth settings", async () => {
      const object = await harness.get("ConfigurationPlan", "oauth-plan");
      return object?.status?.observedGeneration === patched.metadata.generation ? true : undefined;
    });
    const updated = await harness.recordNamed("/configuration-plans", "oauth-plan");
    expect(updated).toMatchObject({ id: ready.status?.id, audit: false });
    expect(updated?.oauth).toEqual(changed);
    expect(updated?.limits).toBeUndefined();

    await deleteResource(env.custom, "ConfigurationPlan", namespace, "oauth-plan");
    await harness.waitGone("ConfigurationPlan", "oauth-plan");
    expect(await harness.recordNamed("/configuration-plans", "oauth-plan")).toBeUndefined();
  });

  it("reports the control plane's write warnings as the WriteWarnings condition, and their end", async () => {
    const harness = testHarness();
    const unshapely = { getPet: { patches: [{ op: "add", path: "/id/0", value: 1 }] } };
    await harness.create(
      resource("ConfigurationPlan", "warned-plan", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://warned.example.com",
        toolOutputFilters: unshapely,
      }),
    );
    const warned = await harness.waitReady("ConfigurationPlan", "warned-plan");
    const [condition] = (warned.status?.conditions ?? []) as Record<string, unknown>[];
    expect(condition).toMatchObject({
      type: "WriteWarnings",
      status: "True",
      reason: "AcceptedWithWarnings",
      observedGeneration: 1,
      message: expect.stringMatching(
        /^The control plane accepted the plan with 1 warning: toolOutputFilters\.getPet: patches\[0\] \(add \/id\/0\)/,
      ),
    });

    await patchResource(harness.env.custom, "ConfigurationPlan", harness.namespace, "warned-plan", [
      { op: "replace", path: "/spec/toolOutputFilters", value: { getPet: { retain: ["/name"] } } },
    ]);
    const clean = await waitFor("the WriteWarnings condition False", async () => {
      const object = await harness.get("ConfigurationPlan", "warned-plan");
      const [next] = (object?.status?.conditions ?? []) as Record<string, unknown>[];
      return next?.status === "False" ? next : undefined;
    });
    expect(clean).toMatchObject({ type: "WriteWarnings", reason: "NoWarnings", observedGeneration: 2 });
  });

  it.each([
    {
      source: "oauth2ClientCredentials",
      name: "cc",
      settings: {
        tokenUrl: "https://auth.example.com/oauth/token",
        clientId: "atrium-gateway",
        scopes: ["pets:read"],
        resource: "https://petstore.example.com/",
      },
      defaults: { tokenEndpointAuthMethod: "client_secret_basic" },
    },
    {
      source: "oauth2AuthorizationCode",
      name: "code",
      settings: {
        issuer: "https://auth.example.com/",
        clientId: "atrium-gateway",
        scopes: ["offline_access", "pets:read"],
        resource: "https://petstore.example.com/",
      },
      defaults: {},
    },
  ])(
    "resolves the client secret of $source from its SecretSource, waiting for it",
    async ({ source, name, settings, defaults }) => {
      const harness = testHarness();
      const { env, namespace } = harness;
      await harness.create(
        resource("ConfigurationPlan", `${name}-plan`, {
          serviceRef: { name: "petstore" },
          backendEndpoint: `https://${name}.example.com`,
          backendSecret: {
            [source]: {
              ...settings,
              clientSecret: { secretSourceRef: { name: `${name}-credentials`, key: "client-secret" } },
            },
          },
        }),
      );
      // Its SecretSource comes after it: the plan waits, then resolves.
      recordSecret("Kubernetes Secret value", `${name}-client-secret`);
      await env.core.createNamespacedSecret({
        namespace,
        body: { metadata: { name: `${name}-backend` }, stringData: { "client-secret": `${name}-client-secret` } },
      });
      await harness.create(
        resource("SecretSource", `${name}-credentials`, {
          secretRefs: [{ name: `${name}-backend`, keys: ["client-secret"] }],
        }),
      );
      await harness.waitReady("ConfigurationPlan", `${name}-plan`);
      const secret = await harness.recordNamed("/secrets", `${name}-credentials.client-secret`);
      const record = await harness.recordNamed("/configuration-plans", `${name}-plan`);
      expect(record?.backendSecret).toEqual({
        in: "header",
        name: "Authorization",
        [source]: { ...settings, ...defaults, clientSecret: { secretId: secret?.id } },
      });
    },
  );

  it("refuses a plan with both apiKey and oauth at the API server (CEL), naming spec.oauth", async () => {
    const harness = testHarness();
    const refusal = await harness
      .create(
        resource("ConfigurationPlan", "two-modes", {
          serviceRef: { name: "petstore" },
          backendEndpoint: "https://two.example.com",
          apiKey: { secretName: "two-modes-key" },
          oauth: { issuer: "https://login.example.com" },
        }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refusal).toBeInstanceOf(ApiException);
    const { code, body } = refusal as ApiException<unknown>;
    const message = (typeof body === "string" ? JSON.parse(body) : body)?.message;
    expect(code).toBe(422);
    expect(message).toContain("spec.oauth");
    expect(message).toContain("a plan has one client authentication mode: set apiKey or oauth, not both");
    expect(await harness.get("ConfigurationPlan", "two-modes")).toBeUndefined();
    expect(await harness.recordNamed("/configuration-plans", "two-modes")).toBeUndefined();
  });

  it("renews the API key and writes it again when the plan's Secret is deleted", async () => {
    const harness = testHarness();
    const { env, namespace } = harness;
    await harness.create(
      resource("ConfigurationPlan", "keyed", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://keyed.example.com",
        apiKey: { secretName: "keyed-api-key" },
      }),
    );
    await harness.waitReady("ConfigurationPlan", "keyed");
    const read = async () => {
      const secret = await env.core.readNamespacedSecret({ namespace, name: "keyed-api-key" }).catch(() => undefined);
      return secret?.data?.apiKey;
    };
    const before = await waitFor("the plan's API key written", read);
    await env.core.deleteNamespacedSecret({ namespace, name: "keyed-api-key" });
    const after = await waitFor("a new API key written", async () => {
      const value = await read();
      return value && value !== before ? value : undefined;
    });
    expect(Buffer.from(after, "base64").toString()).toMatch(/^atr_/);
  });
});
