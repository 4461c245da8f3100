/**
 * A configuration plan as its form edits it: every field the REST API accepts, as the text people
 * type (lists, `name: value` lines, numbers), read from a plan and turned back into the request
 * body. The body's type is the generated one, so a field the API lacks does not compile.
 */
// Only the generated types: the module is read by node tests too (no DOM, no session).
import type { components, paths } from "../api/generated/schema.d.ts";

export type PlanBody = paths["/api/v1/configuration-plans"]["post"]["requestBody"]["content"]["application/json"];
export type PlanView =
  paths["/api/v1/configuration-plans/{id}"]["get"]["responses"][200]["content"]["application/json"];
/** A saved plan, with the new API key when this answer made one (shown once). */
export type SavedPlan = paths["/api/v1/configuration-plans"]["post"]["responses"][201]["content"]["application/json"];
export type FieldError = NonNullable<components["schemas"]["Problem"]["errors"]>[number];

export type ClientAuth = "none" | "apiKey" | "oauth";
type BackendSecret = NonNullable<PlanBody["backendSecret"]>;
/** The sources kept as saved: the form shows them, but has no inputs for them yet. */
export type KeptSource = "tokenExchange" | "oauth2AuthorizationCode";
export type SecretSource = "none" | "secretId" | "env" | "oauth2ClientCredentials" | "elicit" | KeptSource;
/** A saved backend credential of a kept source: that source alone. */
export type KeptSecret = Pick<BackendSecret, KeptSource>;

export interface PlanForm {
  name: string;
  serviceId: string;
  backendEndpoint: string;
  backendTimeoutMs: string;
  toolExposureMode: NonNullable<PlanBody["toolExposureMode"]>;
  includedOperations: string;
  excludedOperations: string;
  clientAuth: ClientAuth;
  oauthIssuer: string;
  oauthAudience: string;
  oauthJwksUri: string;
  oauthResource: string;
  oauthRequiredScopes: string;
  oauthToolScopes: string;
  forwardRequestHeaders: string;
  forwardResponseHeaders: string;
  renameRequestHeaders: string;
  setRequestHeaders: string;
  secretSource: SecretSource;
  secretId: string;
  secretEnv: string;
  secretIn: "header" | "query";
  secretName: string;
  secretPrefix: string;
  tokenUrl: string;
  clientId: string;
  clientSecretSource: "secretId" | "env";
  clientSecretId: string;
  clientSecretEnv: string;
  tokenAudience: string;
  tokenResource: string;
  tokenScopes: string;
  tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post";
  elicitDescription: string;
  elicitSignInClientId: string;
  limitsPer: "plan" | "caller";
  requestsPerSecond: string;
  burst: string;
  concurrentCalls: string;
  toolLimits: string;
  breakerEnabled: boolean;
  consecutiveFailures: string;
  coolDownSeconds: string;
  audit: boolean;
  elicitMissingArguments: boolean;
  /** Kept as saved: the form has no inputs for them yet, and saving the form must not drop them. */
  toolOverrides: PlanBody["toolOverrides"];
  maxResultBytes: PlanBody["maxResultBytes"];
  /** Kept as saved: the form has no inputs for them yet, and saving the form must not drop them. */
  toolOutputFilters: PlanBody["toolOutputFilters"];
  /** Kept as saved: the form has no inputs for it yet, and saving the form must not drop it. */
  backendTls: PlanBody["backendTls"];
  /** A saved backend credential of a kept source, kept as it is while that source stays chosen. */
  keptSecret: KeptSecret | undefined;
}

export type TextField = { [K in keyof PlanForm]: PlanForm[K] extends string ? K : never }[keyof PlanForm];

/** Where each form field is in the request body: a server error on that path is shown beside it. */
export const FIELD_PATHS: Partial<Record<keyof PlanForm, string>> = {
  name: "name",
  serviceId: "serviceId",
  backendEndpoint: "backendEndpoint",
  backendTimeoutMs: "backendTimeoutMs",
  toolExposureMode: "toolExposureMode",
  includedOperations: "includedOperations",
  excludedOperations: "excludedOperations",
  clientAuth: "apiKey",
  oauthIssuer: "oauth.issuer",
  oauthAudience: "oauth.audience",
  oauthJwksUri: "oauth.jwksUri",
  oauthResource: "oauth.resource",
  oauthRequiredScopes: "oauth.requiredScopes",
  oauthToolScopes: "oauth.toolScopes",
  forwardRequestHeaders: "headerPolicy.forwardRequestHeaders",
  forwardResponseHeaders: "headerPolicy.forwardResponseHeaders",
  renameRequestHeaders: "headerPolicy.renameRequestHeaders",
  setRequestHeaders: "headerPolicy.setRequestHeaders",
  secretSource: "backendSecret",
  secretId: "backendSecret.secretId",
  secretEnv: "backendSecret.env",
  secretIn: "backendSecret.in",
  secretName: "backendSecret.name",
  secretPrefix: "backendSecret.prefix",
  tokenUrl: "backendSecret.oauth2ClientCredentials.tokenUrl",
  clientId: "backendSecret.oauth2ClientCredentials.clientId",
  clientSecretSource: "backendSecret.oauth2ClientCredentials.clientSecret",
  clientSecretId: "backendSecret.oauth2ClientCredentials.clientSecret.secretId",
  clientSecretEnv: "backendSecret.oauth2ClientCredentials.clientSecret.env",
  tokenAudience: "backendSecret.oauth2ClientCredentials.audience",
  tokenResource: "backendSecret.oauth2ClientCredentials.resource",
  tokenScopes: "backendSecret.oauth2ClientCredentials.scopes",
  tokenEndpointAuthMethod: "backendSecret.oauth2ClientCredentials.tokenEndpointAuthMethod",
  elicitDescription: "backendSecret.elicit.description",
  elicitSignInClientId: "backendSecret.elicit.signIn",
  limitsPer: "limits.per",
  requestsPerSecond: "limits.requestsPerSecond",
  burst: "limits.burst",
  concurrentCalls: "limits.concurrentCalls",
  toolLimits: "limits.tools",
  breakerEnabled: "circuitBreaker.enabled",
  consecutiveFailures: "circuitBreaker.consecutiveFailures",
  coolDownSeconds: "circuitBreaker.coolDownSeconds",
  audit: "audit",
  elicitMissingArguments: "elicitMissingArguments",
};

/**
 * The form field a server error belongs to: the one whose body path is the longest prefix of the
 * error's (`body.backendSecret.oauth2ClientCredentials.tokenUrl` → tokenUrl), else none.
 */
export function fieldOf(error: FieldError): keyof PlanForm | undefined {
  const path = error.field.replace(/^body\.?/, "");
  let best: { key: keyof PlanForm; length: number } | undefined;
  for (const [key, prefix] of Object.entries(FIELD_PATHS) as [keyof PlanForm, string][]) {
    const matches = path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
    if (matches && (!best || prefix.length > best.length)) best = { key, length: prefix.length };
  }
  return best?.key;
}

export function emptyPlanForm(serviceId = ""): PlanForm {
  return {
    name: "",
    serviceId,
    backendEndpoint: "",
    backendTimeoutMs: "30000",
    toolExposureMode: "PerOperation",
    includedOperations: "",
    excludedOperations: "",
    clientAuth: "none",
    oauthIssuer: "",
    oauthAudience: "",
    oauthJwksUri: "",
    oauthResource: "",
    oauthRequiredScopes: "",
    oauthToolScopes: "",
    forwardRequestHeaders: "",
    forwardResponseHeaders: "",
    renameRequestHeaders: "",
    setRequestHeaders: "",
    secretSource: "none",
    secretId: "",
    secretEnv: "",
    secretIn: "header",
    secretName: "Authorization",
    secretPrefix: "",
    tokenUrl: "",
    clientId: "",
    clientSecretSource: "secretId",
    clientSecretId: "",
    clientSecretEnv: "",
    tokenAudience: "",
    tokenResource: "",
    tokenScopes: "",
    tokenEndpointAuthMethod: "client_secret_basic",
    elicitDescription: "",
    elicitSignInClientId: "",
    limitsPer: "plan",
    requestsPerSecond: "",
    burst: "",
    concurrentCalls: "",
    toolLimits: "",
    breakerEnabled: true,
    consecutiveFailures: "5",
    coolDownSeconds: "30",
    audit: false,
    elicitMissingArguments: false,
    toolOverrides: undefined,
    maxResultBytes: undefined,
    toolOutputFilters: undefined,
    backendTls: undefined,
    keptSecret: undefined,
  };
}

const words = (list: string[] | undefined) => (list ?? []).join(", ");
const lines = (map: Record<string, string> | undefined) =>
  Object.entries(map ?? {})
    .map(([key, value]) => `${key}: ${value}`)
    .join("\n");
const text = (value: number | string | undefined) => (value === undefined ? "" : String(value));

/** The form filled from a saved plan. */
export function planFormOf(plan: PlanView): PlanForm {
  const secret = plan.backendSecret;
  const credentials = secret?.oauth2ClientCredentials;
  const base = emptyPlanForm(plan.serviceId);
  const secretSource: SecretSource = !secret
    ? "none"
    : secret.secretId
      ? "secretId"
      : secret.env
        ? "env"
        : credentials
          ? "oauth2ClientCredentials"
          : secret.elicit
            ? "elicit"
            : secret.tokenExchange
              ? "tokenExchange"
              : secret.oauth2AuthorizationCode
                ? "oauth2AuthorizationCode"
                : "none";
  return {
    ...base,
    name: plan.name,
    backendEndpoint: plan.backendEndpoint,
    backendTimeoutMs: text(plan.backendTimeoutMs),
    toolExposureMode: plan.toolExposureMode,
    includedOperations: words(plan.includedOperations),
    excludedOperations: words(plan.excludedOperations),
    clientAuth: plan.oauth ? "oauth" : plan.hasApiKey ? "apiKey" : "none",
    oauthIssuer: plan.oauth?.issuer ?? "",
    oauthAudience: plan.oauth?.audience ?? "",
    oauthJwksUri: plan.oauth?.jwksUri ?? "",
    oauthResource: plan.oauth?.resource ?? "",
    oauthRequiredScopes: (plan.oauth?.requiredScopes ?? []).join(" "),
    oauthToolScopes: Object.entries(plan.oauth?.toolScopes ?? {})
      .map(([tool, scopes]) => `${tool}: ${scopes.join(" ")}`)
      .join("\n"),
    forwardRequestHeaders: words(plan.headerPolicy?.forwardRequestHeaders),
    forwardResponseHeaders: words(plan.headerPolicy?.forwardResponseHeaders),
    renameRequestHeaders: lines(plan.headerPolicy?.renameRequestHeaders),
    setRequestHeaders: lines(plan.headerPolicy?.setRequestHeaders),
    secretSource,
    secretId: secret?.secretId ?? "",
    secretEnv: secret?.env ?? "",
    secretIn: secret?.in ?? base.secretIn,
    secretName: secret?.name ?? base.secretName,
    secretPrefix: secret?.prefix ?? "",
    tokenUrl: credentials?.tokenUrl ?? "",
    clientId: credentials?.clientId ?? "",
    clientSecretSource: credentials?.clientSecret.env ? "env" : "secretId",
    clientSecretId: credentials?.clientSecret.secretId ?? "",
    clientSecretEnv: credentials?.clientSecret.env ?? "",
    tokenAudience: credentials?.audience ?? "",
    tokenResource: credentials?.resource ?? "",
    tokenScopes: (credentials?.scopes ?? []).join(" "),
    tokenEndpointAuthMethod: credentials?.tokenEndpointAuthMethod ?? base.tokenEndpointAuthMethod,
    elicitDescription: secret?.elicit?.description ?? "",
    elicitSignInClientId: secret?.elicit?.signIn?.clientId ?? "",
    limitsPer: plan.limits?.per ?? "plan",
    requestsPerSecond: text(plan.limits?.requestsPerSecond),
    burst: text(plan.limits?.burst),
    concurrentCalls: text(plan.limits?.concurrentCalls),
    toolLimits: plan.limits?.tools ? JSON.stringify(plan.limits.tools, null, 2) : "",
    breakerEnabled: plan.circuitBreaker.enabled,
    consecutiveFailures: text(plan.circuitBreaker.consecutiveFailures),
    coolDownSeconds: text(plan.circuitBreaker.coolDownSeconds),
    audit: plan.audit,
    elicitMissingArguments: plan.elicitMissingArguments,
    toolOverrides: plan.toolOverrides,
    maxResultBytes: plan.maxResultBytes,
    toolOutputFilters: plan.toolOutputFilters,
    backendTls: plan.backendTls,
    keptSecret: keptSecretOf(secret),
  };
}

function keptSecretOf(secret: PlanView["backendSecret"]): KeptSecret | undefined {
  if (secret?.tokenExchange) return { tokenExchange: secret.tokenExchange };
  if (secret?.oauth2AuthorizationCode) return { oauth2AuthorizationCode: secret.oauth2AuthorizationCode };
  return undefined;
}

/** What a kept backend credential does, in a sentence: the form has no inputs to show it with. */
export function keptSecretText(kept: KeptSecret): string {
  const scopes = (list: string[] | undefined) => (list?.length ? `, scopes ${list.join(" ")}` : "");
  const client = (settings: { clientId: string; clientSecret?: unknown }) =>
    `client ${settings.clientId}${settings.clientSecret ? "" : " (public: no secret)"}`;
  if (kept.tokenExchange) {
    const exchange = kept.tokenExchange;
    return (
      `Each caller's token is exchanged at ${exchange.tokenUrl ?? `the token endpoint of ${exchange.issuer}`}, ` +
      `${client(exchange)}${scopes(exchange.scopes)}.`
    );
  }
  const code = kept.oauth2AuthorizationCode;
  if (!code) return "";
  return (
    `Each user authorizes the backend once at ${code.authorizationUrl ?? code.issuer}, ${client(code)}` +
    `${scopes(code.scopes)}; its redirect URI is <gateway origin>/elicitations/authorized.`
  );
}

/** Reads the form's text; what cannot be read becomes a field error, in the server's shape. */
class Reader {
  readonly errors: FieldError[] = [];
  private readonly form: PlanForm;
  constructor(form: PlanForm) {
    this.form = form;
  }

  private fail(key: keyof PlanForm, message: string): undefined {
    this.errors.push({ field: `body.${FIELD_PATHS[key]}`, message });
    return undefined;
  }
  string(key: TextField): string | undefined {
    const value = this.form[key].trim();
    return value === "" ? undefined : value;
  }
  /** A list separated by commas, spaces or lines; absent when empty. */
  list(key: TextField): string[] | undefined {
    const items = this.form[key].split(/[\s,]+/).filter(Boolean);
    return items.length > 0 ? items : undefined;
  }
  number(key: TextField): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    const number = Number(value);
    return Number.isFinite(number) ? number : this.fail(key, `"${value}" is not a number`);
  }
  /** `name: value` a line; absent when empty. */
  map(key: TextField): Record<string, string> | undefined {
    const entries: [string, string][] = [];
    for (const line of this.form[key].split("\n")) {
      if (line.trim() === "") continue;
      const at = line.indexOf(":");
      if (at <= 0) return this.fail(key, `"${line.trim()}" is not name: value`);
      entries.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  json<T>(key: TextField): T | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    try {
      return JSON.parse(value) as T;
    } catch {
      return this.fail(key, 'is not JSON: write an object such as { "getPet": { "requestsPerSecond": 2 } }');
    }
  }
}

/** Drops the members left undefined, and the object itself when nothing is left. */
function some<T extends object>(value: T): T | undefined {
  const defined = Object.entries(value).filter(([, member]) => member !== undefined);
  return defined.length > 0 ? (Object.fromEntries(defined) as T) : undefined;
}

/** The request body of the form, or the fields it could not read. */
export function planBodyOf(form: PlanForm): { body: PlanBody } | { errors: FieldError[] } {
  const read = new Reader(form);
  const body: PlanBody = {
    name: form.name.trim(),
    serviceId: form.serviceId,
    backendEndpoint: form.backendEndpoint.trim(),
    backendTimeoutMs: read.number("backendTimeoutMs"),
    toolExposureMode: form.toolExposureMode,
    includedOperations: read.list("includedOperations"),
    excludedOperations: read.list("excludedOperations"),
    apiKey: form.clientAuth === "apiKey",
    oauth: form.clientAuth === "oauth" ? oauthOf(form, read) : undefined,
    headerPolicy: some({
      forwardRequestHeaders: read.list("forwardRequestHeaders"),
      forwardResponseHeaders: read.list("forwardResponseHeaders"),
      renameRequestHeaders: read.map("renameRequestHeaders"),
      setRequestHeaders: read.map("setRequestHeaders"),
    }),
    backendSecret: backendSecretOf(form, read),
    limits: limitsOf(form, read),
    circuitBreaker: {
      enabled: form.breakerEnabled,
      consecutiveFailures: read.number("consecutiveFailures"),
      coolDownSeconds: read.number("coolDownSeconds"),
    },
    audit: form.audit,
    elicitMissingArguments: form.elicitMissingArguments,
    toolOverrides: form.toolOverrides,
    maxResultBytes: form.maxResultBytes,
    toolOutputFilters: form.toolOutputFilters,
    backendTls: form.backendTls,
  };
  return read.errors.length > 0 ? { errors: read.errors } : { body };
}

function oauthOf(form: PlanForm, read: Reader): PlanBody["oauth"] {
  const toolScopes = read.map("oauthToolScopes");
  return {
    issuer: form.oauthIssuer.trim(),
    audience: read.string("oauthAudience"),
    jwksUri: read.string("oauthJwksUri"),
    resource: read.string("oauthResource"),
    requiredScopes: read.list("oauthRequiredScopes"),
    toolScopes: toolScopes
      ? Object.fromEntries(
          Object.entries(toolScopes).map(([tool, scopes]) => [tool, scopes.split(/\s+/).filter(Boolean)]),
        )
      : undefined,
  };
}

function backendSecretOf(form: PlanForm, read: Reader): PlanBody["backendSecret"] {
  // The prefix is kept as typed: its trailing space ("Bearer ") matters. A token from the client
  // credentials grant always goes in Authorization as a bearer: no placement.
  const placement = { in: form.secretIn, name: read.string("secretName"), prefix: form.secretPrefix || undefined };
  switch (form.secretSource) {
    case "none":
      return undefined;
    case "tokenExchange":
    case "oauth2AuthorizationCode":
      return form.keptSecret?.[form.secretSource] ? form.keptSecret : undefined;
    case "secretId":
      return { secretId: form.secretId, ...placement };
    case "env":
      return { env: form.secretEnv.trim(), ...placement };
    case "elicit":
      return {
        elicit: {
          description: form.elicitDescription.trim(),
          signIn: form.elicitSignInClientId.trim() ? { clientId: form.elicitSignInClientId.trim() } : undefined,
        },
        ...placement,
      };
    case "oauth2ClientCredentials":
      return {
        oauth2ClientCredentials: {
          tokenUrl: form.tokenUrl.trim(),
          clientId: form.clientId.trim(),
          clientSecret:
            form.clientSecretSource === "env"
              ? { env: form.clientSecretEnv.trim() }
              : { secretId: form.clientSecretId },
          audience: read.string("tokenAudience"),
          resource: read.string("tokenResource"),
          scopes: read.list("tokenScopes"),
          tokenEndpointAuthMethod: form.tokenEndpointAuthMethod,
        },
      };
  }
}

function limitsOf(form: PlanForm, read: Reader): PlanBody["limits"] {
  type Limits = NonNullable<PlanBody["limits"]>;
  const figures = some({
    requestsPerSecond: read.number("requestsPerSecond"),
    burst: read.number("burst"),
    concurrentCalls: read.number("concurrentCalls"),
    tools: read.json<Limits["tools"]>("toolLimits"),
  });
  if (!figures && form.limitsPer === "plan") return undefined;
  return { per: form.limitsPer, ...figures };
}
