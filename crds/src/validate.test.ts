import { describe, expect, it } from "vitest";
import { labelKeyProblem, urlProblem } from "./common.ts";
import { customTool, storedCustomTool } from "./kinds/custom-tools.ts";
import { kindNamed } from "./kinds.ts";
import { invalidSamples, validSamples } from "./samples.ts";
import { validateResource } from "./validate.ts";

const samples = validSamples().filter((sample) => kindNamed(sample.document.kind));

/** The valid sample of `kind`, with `spec` fields replaced (undefined removes one). */
function sample(kind: string, spec: Record<string, unknown> = {}) {
  const found = samples.find((s) => s.document.kind === kind);
  if (!found) throw new Error(`no valid sample of ${kind}`);
  const merged = { ...(found.document.spec as Record<string, unknown>), ...spec };
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  return { ...found.document, spec: merged };
}

function refusal(object: unknown) {
  const verdict = validateResource(object);
  if (verdict.allowed) throw new Error(`accepted: ${JSON.stringify(object)}`);
  return verdict;
}

describe("validateResource", () => {
  it.each(samples.map((s) => [s.file, s] as const))("accepts %s", (_, { document }) => {
    expect(validateResource(document)).toEqual({ allowed: true });
  });

  it.each(invalidSamples().map((s) => [s.file, s] as const))("refuses %s naming its field", (_, invalid) => {
    expect(refusal(invalid.document).violations).toEqual([
      { field: invalid.expectedError, message: invalid.expectedMessage },
    ]);
  });

  it("refuses the singular kind Resource with the message of the early controllers", () => {
    const verdict = refusal({ apiVersion: "atrium.dev/v1alpha1", kind: "Resource", metadata: { name: "x" }, spec: {} });
    expect(verdict.message).toBe("Unsupported artifact kind and version: Resource (use kind Resources)");
    expect(verdict.fields).toEqual(["kind"]);
  });

  it("refuses another version or an unknown kind, saying what is supported", () => {
    expect(refusal({ ...sample("Service"), apiVersion: "atrium.dev/v1" }).message).toBe(
      'Unsupported artifact kind and version: Service (use apiVersion atrium.dev/v1alpha1, not "atrium.dev/v1")',
    );
    expect(refusal({ ...sample("Service"), kind: "Gadget" }).message).toMatch(
      /^Unsupported artifact kind and version: Gadget \(kinds: Service, GatewayGroup, .*Prompts\)$/,
    );
    expect(refusal(null).message).toMatch(/^Unsupported artifact kind and version: null/);
  });

  it("names missing fields the Kubernetes way and lists every violation in one message", () => {
    const verdict = refusal({
      ...sample("ConfigurationPlan", {
        backendEndpoint: undefined,
        includedOperations: ["a", "b"],
        excludedOperations: ["b"],
        backendTimeoutMs: 0,
      }),
      metadata: { name: "Not_A_Name" },
    });
    expect(verdict.fields).toEqual([
      "metadata.name",
      "spec.backendEndpoint",
      "spec.backendTimeoutMs",
      "spec.excludedOperations",
    ]);
    expect(verdict.message).toContain("spec.backendEndpoint: Required value; ");
    expect(verdict.message).toContain(
      "spec.excludedOperations: must not name operations also in includedOperations: b",
    );
    expect(verdict.violations).toHaveLength(4);
  });

  it("warns when excludedOperations cannot have an effect", () => {
    expect(validateResource(sample("ConfigurationPlan", { includedOperations: ["listPets"] }))).toEqual({
      allowed: true,
      warnings: ["spec.excludedOperations has no effect: with spec.includedOperations set, only those are exposed"],
    });
  });

  it("parses every URL: backend, OAuth and OpenAPI", () => {
    const verdict = refusal(
      sample("ConfigurationPlan", {
        backendEndpoint: "https://user:pass@x.example.com",
        apiKey: undefined,
        oauth: {
          issuer: "https://id.example.com/#top",
          jwksUri: "https://id.example.com\\@evil.example.com/keys",
          resource: "https://mcp.example.com/petstore",
        },
      }),
    );
    expect(verdict.violations).toEqual([
      {
        field: "spec.backendEndpoint",
        message: "must not contain credentials (user:password@): keep them in a Secret",
      },
      { field: "spec.oauth.issuer", message: "must not have a fragment (#...)" },
      { field: "spec.oauth.jwksUri", message: "must not contain '\\'" },
    ]);
    const service = sample("Service", { openapi: { url: "https://@docs.example.com/openapi.json" } });
    expect(refusal(service).message).toBe(
      "spec.openapi.url: must not contain credentials (user:password@): keep them in a Secret",
    );
  });

  it("reports a field once when the schema and a rule both refuse it", () => {
    const verdict = refusal(sample("ConfigurationPlan", { backendEndpoint: "ftp://x.example.com" }));
    expect(verdict.violations).toEqual([
      { field: "spec.backendEndpoint", message: "must be an absolute http:// or https:// URL" },
    ]);
  });

  it("accepts elicited backend credentials with OAuth (the user's) and without (the 2025 session's)", () => {
    const withoutOAuth = sample("ConfigurationPlan", { backendSecret: { elicit: { description: "Your token" } } });
    expect(validateResource(withoutOAuth).allowed).toBe(true);
    const withOAuth = sample("ConfigurationPlan", {
      backendSecret: { elicit: { description: "Your token" } },
      apiKey: undefined,
      oauth: { issuer: "https://id.example.com" },
    });
    expect(validateResource(withOAuth).allowed).toBe(true);
    const empty = refusal(sample("ConfigurationPlan", { backendSecret: { elicit: { description: "" } } }));
    expect(empty.fields).toEqual(["spec.backendSecret.elicit.description"]);
  });

  it("allows one client authentication mode, and per-tool scopes only with one tool per operation", () => {
    const both = refusal(sample("ConfigurationPlan", { oauth: { issuer: "https://id.example.com" } }));
    expect(both.violations).toEqual([
      { field: "spec.oauth", message: "a plan has one client authentication mode: set apiKey or oauth, not both" },
    ]);
    const discovery = refusal(
      sample("ConfigurationPlan", {
        apiKey: undefined,
        limits: undefined,
        toolExposureMode: "Discovery",
        oauth: { issuer: "https://id.example.com", toolScopes: { listPets: ["pets:read"] } },
      }),
    );
    expect(discovery.fields).toEqual(["spec.oauth.toolScopes"]);
  });

  it("checks ${env:VAR} references", () => {
    const verdict = refusal(sample("ConfigurationPlan", { backendSecret: { env: "$ENV_TOKEN" } }));
    expect(verdict.message).toBe("spec.backendSecret.env: must look like ${env:VARIABLE_NAME}");
    expect(validateResource(sample("ConfigurationPlan", { backendSecret: { env: "${env:TOKEN_1}" } })).allowed).toBe(
      true,
    );
  });

  it("checks label keys and selector values of a GatewayGroup", () => {
    const verdict = refusal(
      sample("GatewayGroup", {
        labels: { "bad key!": "x", [`${"a".repeat(254)}/zone`]: "x", "atrium.dev/zone": "eu" },
        matchExpressions: [
          { key: "env", operator: "In", values: [] },
          { key: "tier", operator: "Exists", values: ["edge"] },
          { key: "a/b/c", operator: "DoesNotExist" },
        ],
      }),
    );
    expect(verdict.fields).toEqual([
      "spec.labels[bad key!]",
      `spec.labels[${"a".repeat(254)}/zone]`,
      "spec.matchExpressions[0].values",
      "spec.matchExpressions[1].values",
      "spec.matchExpressions[2].key",
    ]);
    expect(verdict.message).toContain("spec.labels[bad key!]: must be a label key: the name must be 1-63 letters");
    expect(verdict.message).toContain(
      "spec.matchExpressions[0].values: must be non-empty when operator is In or NotIn",
    );
    expect(verdict.message).toContain(
      "spec.matchExpressions[1].values: must be empty when operator is Exists or DoesNotExist",
    );
  });

  it("refuses a SecretSource reading one key from two Secrets", () => {
    const verdict = refusal(
      sample("SecretSource", {
        secretRefs: [
          { name: "a", keys: ["token", "user"] },
          { name: "b", keys: ["password", "token"] },
        ],
      }),
    );
    expect(verdict.message).toBe(
      'spec.secretRefs[1].keys[1]: key "token" is already read from Secret "a" (secretRefs[0]): ' +
        "a key names one value of the SecretSource",
    );
  });

  it("refuses a custom tool whose inputSchema is not an object schema", () => {
    const tools = (sample("CustomTools").spec.tools as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      inputSchema: { type: "array" },
    }));
    expect(refusal(sample("CustomTools", { tools })).fields).toEqual(["spec.tools[0].inputSchema.type"]);
  });

  it("refuses a custom tool whose inputSchema has a pattern ECMAScript's Unicode mode cannot compile, as strict clients compile it", () => {
    const inputSchema = {
      type: "object",
      properties: {
        code: { type: "string", pattern: "^a\\_b$" },
        tags: { type: "object", patternProperties: { "^[\\w-.]+$": {} } },
        fine: { type: "string", pattern: "^\\p{L}+$", examples: [{ pattern: "\\_" }] },
      },
    };
    const tools = (sample("CustomTools").spec.tools as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      inputSchema,
    }));
    const refused = refusal(sample("CustomTools", { tools }));
    expect(refused.fields).toEqual([
      "spec.tools[0].inputSchema.properties.code.pattern",
      "spec.tools[0].inputSchema.properties.tags.patternProperties[^[\\w-.]+$]",
    ]);
    expect(refused.message).toContain(
      '"^a\\\\_b$" is no ECMAScript regular expression in Unicode mode, as JSON Schema validators compile patterns (Invalid escape)',
    );
    // A record stored before the rule still reaches the gateways, which compile it without its patterns.
    expect(storedCustomTool.safeParse(tools[0]).success).toBe(true);
    expect(customTool.safeParse(tools[0]).success).toBe(false);
  });

  it("finds a bad pattern nested thousands deep, as the webhook may be passed, without overflowing its stack", () => {
    // The API server passes objects nested up to 10,000 deep; the walk recursed and threw a RangeError (a 500).
    let nested: Record<string, unknown> = { type: "string", pattern: "^a\\_b$" };
    for (let level = 0; level < 10_000; level++) nested = { type: "object", properties: { a: nested } };
    const tools = (sample("CustomTools").spec.tools as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      inputSchema: { type: "object", allOf: [[nested]] },
    }));
    const refused = refusal(sample("CustomTools", { tools }));
    expect(refused.fields).toEqual([`spec.tools[0].inputSchema.allOf[0][0]${".properties.a".repeat(10_000)}.pattern`]);
  });

  it("refuses a custom tool whose inputSchema names a format strict validators do not know, at its path", () => {
    const inputSchema = {
      type: "object",
      properties: {
        phone: { type: "string", format: "phone" },
        when: { type: "string", format: "date-time" },
        size: { type: "integer", format: "int64", examples: [{ format: "odd" }] },
      },
    };
    const tools = (sample("CustomTools").spec.tools as Record<string, unknown>[]).map((tool) => ({
      ...tool,
      inputSchema,
    }));
    const refused = refusal(sample("CustomTools", { tools }));
    expect(refused.fields).toEqual(["spec.tools[0].inputSchema.properties.phone.format"]);
    expect(refused.message).toContain('know no format "phone" and refuse the whole schema');
    // A record stored before the rule still reaches the gateways, which ignore a format they do not know.
    expect(storedCustomTool.safeParse(tools[0]).success).toBe(true);
    expect(customTool.safeParse(tools[0]).success).toBe(false);
  });

  it("does not look for the resources a spec refers to", () => {
    const plan = sample("ConfigurationPlan", { serviceRef: { name: "not-created-yet" } });
    expect(validateResource(plan).allowed).toBe(true);
  });

  it("refuses malformed references", () => {
    expect(refusal(sample("Exposition", { gatewayGroupRef: { name: "Dev Gateways" } })).fields).toEqual([
      "spec.gatewayGroupRef.name",
    ]);
  });

  it("runs the rules even when the spec has the wrong shape", () => {
    expect(refusal(sample("SecretSource", { secretRefs: "token" })).fields).toEqual(["spec.secretRefs"]);
    expect(refusal({ ...sample("GatewayGroup"), spec: 7 }).fields).toEqual(["spec"]);
  });
});

describe("urlProblem", () => {
  it.each([
    "https://petstore.example.com",
    "http://backend.default.svc.cluster.local:8080/api/v1?tenant=a",
    "https://[::1]:8443/",
    "HTTPS://Example.COM/path",
  ])("accepts %s", (url) => {
    expect(urlProblem(url)).toBeUndefined();
  });

  it.each([
    ["ftp://x.example.com", "absolute http"],
    ["https:x.example.com", "absolute http"],
    ["https:///x.example.com", "must name a host"],
    ["https://x.example.com:99999", "absolute http"],
    ["https://user@x.example.com", "credentials"],
    ["https://x.example.com/a#b", "fragment"],
    ["https://x.example.com/a b", "whitespace"],
    ["https://x.example.com/\tb", "whitespace"],
    ["https://a.example.com\\@b.example.com", "'\\'"],
  ])("refuses %s", (url, problem) => {
    expect(urlProblem(url)).toContain(problem);
  });
});

describe("labelKeyProblem", () => {
  it.each(["env", "atrium.dev/zone", "a.b-c_d", "x".repeat(63), `${"p".repeat(253)}/n`])("accepts %s", (key) => {
    expect(labelKeyProblem(key)).toBeUndefined();
  });

  it.each(["", "bad key!", "-x", "x".repeat(64), "/x", "Atrium.dev/zone", "a/b/c", "atrium.dev/"])(
    "refuses %j",
    (key) => {
      expect(labelKeyProblem(key)).toMatch(/^must be a label key/);
    },
  );
});
