/**
 * The plan form's reading and writing of a plan (ui/src/app/plan-fields.ts): a plan with every
 * field set comes back out of the form as the same body, which the control plane's own schema
 * accepts; text the form cannot read is refused on the field it belongs to; a server error's
 * field finds its input.
 */
import { planBody } from "@atrium/contract/rest";
import { describe, expect, it } from "vitest";
import { emptyPlanForm, fieldOf, keptSecretText, type PlanView, planBodyOf, planFormOf } from "./app/plan-fields.ts";

const SAVED = {
  id: "3c7f0a9e-4f3b-4d2a-9a57-7a2f5d9d1b10",
  serviceId: "0b0f8f4e-1d7e-4c61-8d45-3f4b9a3f2a11",
  hasApiKey: false,
  createdAt: "2026-11-24T06:00:00.000Z",
  updatedAt: "2026-11-24T06:00:00.000Z",
};

/** Every field of the body, OAuth-protected, the backend credential from client credentials, mutual TLS. */
const WITH_OAUTH = {
  name: "petstore",
  serviceId: SAVED.serviceId,
  backendEndpoint: "https://petstore.example.com/v1",
  backendTimeoutMs: 5000,
  toolExposureMode: "PerOperation",
  includedOperations: ["listPets", "getPet"],
  excludedOperations: ["deletePet"],
  apiKey: false,
  oauth: {
    issuer: "https://issuer.example.com",
    audience: "petstore",
    jwksUri: "https://issuer.example.com/jwks",
    resource: "https://mcp.example.com/petstore",
    requiredScopes: ["pets.read"],
    toolScopes: { getPet: ["pets.read", "pets.detail"] },
  },
  headerPolicy: {
    forwardRequestHeaders: ["x-tenant", "x-trace"],
    forwardResponseHeaders: ["x-rate-remaining"],
    renameRequestHeaders: { "x-tenant": "x-backend-tenant" },
    setRequestHeaders: { "x-source": "atrium: ui" },
  },
  backendSecret: {
    oauth2ClientCredentials: {
      tokenUrl: "https://auth.example.com/token",
      clientId: "gateway",
      clientSecret: { secretId: "6f1d2c3b-0a9e-4e8d-8c7b-6a5f4e3d2c1b" },
      audience: "https://petstore.example.com",
      resource: "https://petstore.example.com/v1",
      scopes: ["read", "write"],
      tokenEndpointAuthMethod: "client_secret_post",
    },
  },
  limits: {
    per: "caller",
    requestsPerSecond: 0.5,
    burst: 3,
    concurrentCalls: 4,
    tools: { getPet: { requestsPerSecond: 2, concurrentCalls: 1 } },
  },
  circuitBreaker: { enabled: false, consecutiveFailures: 7, coolDownSeconds: 45 },
  audit: true,
  elicitMissingArguments: true,
  // No inputs for it yet: carried through the form as saved.
  backendTls: {
    clientCertificate: { secretId: "7a2e3d4c-1b0f-4f9e-9d8c-7b6a5f4e3d2c" },
    clientKey: { secretId: "8b3f4e5d-2c1a-4a0f-8e9d-8c7b6a5f4e3d" },
    serverName: "petstore.internal",
  },
} as const;

/** An API key, the backend credential from the gateway's environment, Discovery. */
const WITH_KEY = {
  name: "petstore-key",
  serviceId: SAVED.serviceId,
  backendEndpoint: "https://petstore.example.com",
  backendTimeoutMs: 30000,
  toolExposureMode: "Discovery",
  apiKey: true,
  backendSecret: { env: "${env:PETSTORE_TOKEN}", in: "query", name: "token", prefix: "Bearer " },
  circuitBreaker: { enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 },
  audit: false,
  elicitMissingArguments: false,
} as const;

/** Asking each user, with sign-in (which needs OAuth). */
const WITH_ELICIT = {
  ...WITH_KEY,
  name: "petstore-elicit",
  apiKey: false,
  oauth: { issuer: "https://issuer.example.com" },
  backendSecret: {
    elicit: { description: "Your Pet Store token", signIn: { clientId: "elicitation-page" } },
    in: "header",
    name: "Authorization",
    prefix: "Bearer ",
  },
} as const;

/** Each caller's token exchanged (no inputs for it yet: carried through the form as saved). */
const WITH_TOKEN_EXCHANGE = {
  ...WITH_KEY,
  name: "petstore-exchange",
  apiKey: false,
  oauth: { issuer: "https://issuer.example.com" },
  backendSecret: {
    tokenExchange: {
      issuer: "https://auth.example.com/",
      clientId: "atrium-gateway",
      clientSecret: { secretId: "6f1d2c3b-0a9e-4e8d-8c7b-6a5f4e3d2c1b" },
      tokenEndpointAuthMethod: "private_key_jwt",
      audience: "https://petstore.example.com",
      scopes: ["pets:read"],
    },
  },
} as const;

/** Each user's own authorization, a public client (no inputs for it yet: carried through the form as saved). */
const WITH_AUTHORIZATION_CODE = {
  ...WITH_KEY,
  name: "petstore-granted",
  apiKey: false,
  backendSecret: {
    oauth2AuthorizationCode: {
      authorizationUrl: "https://auth.example.com/authorize",
      tokenUrl: "https://auth.example.com/token",
      revocationUrl: "https://auth.example.com/revoke",
      clientId: "atrium-public",
      scopes: ["offline_access", "pets:read"],
      resource: "https://petstore.example.com",
      description: "Let the agent see your pets",
    },
  },
} as const;

/** The plan the REST API would answer for `body`. */
function viewOf(body: Record<string, unknown>): PlanView {
  const { apiKey, ...settings } = body;
  return { ...SAVED, ...settings, hasApiKey: apiKey === true } as unknown as PlanView;
}

describe("the plan form", () => {
  it.each([
    ["OAuth and client credentials", WITH_OAUTH],
    ["an API key and an environment variable", WITH_KEY],
    ["elicitation with sign-in", WITH_ELICIT],
    ["token exchange", WITH_TOKEN_EXCHANGE],
    ["each user's authorization code grant", WITH_AUTHORIZATION_CODE],
  ])("gives back every field of a plan with %s, as a body the control plane accepts", (_, body) => {
    const read = planBodyOf(planFormOf(viewOf(body)));
    if (!("body" in read)) throw new Error(`refused: ${JSON.stringify(read.errors)}`);
    const defined = JSON.parse(JSON.stringify(read.body));
    expect(defined).toEqual(body);
    const parsed = planBody.safeParse(defined);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it("keeps a source it has no inputs for only while it stays chosen, and says what it does", () => {
    const form = planFormOf(viewOf(WITH_AUTHORIZATION_CODE));
    expect(form.secretSource).toBe("oauth2AuthorizationCode");
    const switched = planBodyOf({ ...form, secretSource: "none" });
    if (!("body" in switched)) throw new Error("refused");
    expect(switched.body.backendSecret).toBeUndefined();
    if (!form.keptSecret) throw new Error("not kept");
    expect(keptSecretText(form.keptSecret)).toBe(
      "Each user authorizes the backend once at https://auth.example.com/authorize, client atrium-public " +
        "(public: no secret), scopes offline_access pets:read; its redirect URI is " +
        "<gateway origin>/elicitations/authorized.",
    );
    const exchange = planFormOf(viewOf(WITH_TOKEN_EXCHANGE)).keptSecret;
    if (!exchange) throw new Error("not kept");
    expect(keptSecretText(exchange)).toBe(
      "Each caller's token is exchanged at the token endpoint of https://auth.example.com/, client atrium-gateway, " +
        "scopes pets:read.",
    );
  });

  it("leaves the optional parts out when they are empty, so the control plane's defaults apply", () => {
    const form = { ...emptyPlanForm(SAVED.serviceId), name: "bare", backendEndpoint: "https://api.example.com" };
    const read = planBodyOf(form);
    if (!("body" in read)) throw new Error("refused");
    expect(JSON.parse(JSON.stringify(read.body))).toEqual({
      name: "bare",
      serviceId: SAVED.serviceId,
      backendEndpoint: "https://api.example.com",
      backendTimeoutMs: 30000,
      toolExposureMode: "PerOperation",
      apiKey: false,
      circuitBreaker: { enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 },
      audit: false,
      elicitMissingArguments: false,
    });
  });

  it("refuses what it cannot read, on the field it belongs to", () => {
    const form = {
      ...emptyPlanForm(SAVED.serviceId),
      requestsPerSecond: "fast",
      setRequestHeaders: "x-source atrium",
      toolLimits: "{ getPet: 2 }",
    };
    const read = planBodyOf(form);
    if (!("errors" in read)) throw new Error("accepted");
    expect(read.errors.map((error) => [fieldOf(error), error.message])).toEqual([
      ["setRequestHeaders", '"x-source atrium" is not name: value'],
      ["requestsPerSecond", '"fast" is not a number'],
      ["toolLimits", expect.stringContaining("is not JSON")],
    ]);
  });

  it("finds the input of a server error's field: the longest known path that leads to it", () => {
    const field = (path: string) => fieldOf({ field: path, message: "" });
    expect(field("body.backendSecret.oauth2ClientCredentials.clientSecret.secretId")).toBe("clientSecretId");
    expect(field("body.backendSecret.oauth2ClientCredentials.clientSecret")).toBe("clientSecretSource");
    expect(field("body.backendSecret")).toBe("secretSource");
    expect(field("body.oauth.toolScopes.getPet")).toBe("oauthToolScopes");
    expect(field("body.limits.tools.getPet.burst")).toBe("toolLimits");
    expect(field("body.includedOperations[0]")).toBe("includedOperations");
    expect(field("body.apiKey")).toBe("clientAuth");
    expect(field("body")).toBeUndefined();
    expect(field("body.oauthx")).toBeUndefined();
  });
});
