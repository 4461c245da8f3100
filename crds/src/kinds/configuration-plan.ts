/**
 * ConfigurationPlan: binds a Service to a backend and holds every setting of an MCP endpoint.
 */
import { z } from "zod";
import { envReference, httpUrl, objectName, objectRef, reconcileStatusWithConditions, stringSet } from "../common.ts";
import { defineKind } from "../kind.ts";
import { exactlyOneOf, type ObjectRule, withRules } from "../rules.ts";
import { backendTls, backendTlsNeedsHttpsRule } from "./backend-tls.ts";
import { circuitBreaker } from "./circuit-breaker.ts";
import { toolName } from "./custom-tools.ts";
import { graphqlPlanSettings } from "./graphql-plan.ts";
import { grpcPlanSettings } from "./grpc-plan.ts";
import { toolOutputFilters } from "./output-filters.ts";
import { contractUrl } from "./service.ts";
import { maxResultBytes, toolOverrideRules, toolOverrides } from "./tool-overrides.ts";

export const toolExposureMode = z
  .enum(["PerOperation", "Discovery"])
  .describe(
    "PerOperation lists one tool per included operation; Discovery offers three tools (search, describe, " +
      "invoke) for APIs too large to list.",
  );

const headerName = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { message: "must be an HTTP header name" });

export const headerPolicy = z
  .object({
    forwardRequestHeaders: stringSet(headerName)
      .optional()
      .describe("Client request headers passed on to the backend (case-insensitive); none by default."),
    forwardResponseHeaders: stringSet(headerName)
      .optional()
      .describe("Backend response headers copied into the tool result; none by default."),
    renameRequestHeaders: z
      .record(headerName, headerName)
      .optional()
      .describe("Forwarded client headers to send under another name: client name → backend name."),
    setRequestHeaders: z
      .record(
        headerName,
        z
          .string()
          .max(8192)
          // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is refused here.
          .regex(/^[^\r\n\x00]*$/, { message: "must not contain CR, LF or NUL (a header value is one line)" }),
      )
      .optional()
      .describe("Fixed headers added to every backend request."),
  })
  .describe("Which headers cross the gateway, in each direction, and under what name.");

/** An OAuth scope token (RFC 6749 section 3.3): printable ASCII without space, '"' or '\\'. */
const scopeToken = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { message: "must be an OAuth scope: printable ASCII, no space, '\"' or '\\'" });

export const oauthSettings = z
  .object({
    issuer: httpUrl.describe("Issuer (iss) that tokens must carry, compared exactly."),
    jwksUri: httpUrl
      .optional()
      .describe(
        "Where the issuer's signing keys are; when absent, read from the issuer's RFC 8414 or OpenID Connect metadata.",
      ),
    audience: z
      .string()
      .min(1)
      .max(2048)
      .optional()
      .describe("Audience (aud) that tokens must carry; the endpoint's resource URL when absent."),
    resource: httpUrl
      .optional()
      .describe(
        "Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728), published in its metadata; " +
          "the URL clients call when absent. A token's resource claim, when present, must equal it.",
      ),
    requiredScopes: stringSet(scopeToken)
      .optional()
      .describe("Scopes every token must carry (scope or scp claim); a token without one is refused with 403."),
    toolScopes: z
      .record(toolName, stringSet(scopeToken).min(1))
      .optional()
      .describe(
        "Scopes a token needs for one tool, beyond requiredScopes: tool name → scopes. tools/list shows a caller " +
          "only the tools their scopes allow; a call to another tool is refused with 403 insufficient_scope.",
      ),
  })
  .describe(
    "OAuth 2.0 bearer-token protection of the MCP endpoint, enforced by the gateway: every request needs a valid " +
      "token from this issuer (Authorization: Bearer).",
  );

/** The lowest rate: one call every 1000 s. */
const MIN_RATE = 0.001;

/** One budget: a request rate (token bucket) and a cap on calls in progress, each optional. */
const budgetFields = {
  requestsPerSecond: z
    .number()
    .min(MIN_RATE)
    .max(100_000)
    .optional()
    .describe(
      "Average calls admitted per second by each gateway replica (a token bucket refilled at this rate; 0.5 is one " +
        "call every 2 s); no rate limit when absent.",
    ),
  burst: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe(
      "Calls admitted back to back before the rate applies (the bucket's size); requestsPerSecond rounded up when " +
        "absent. Needs requestsPerSecond.",
    ),
  concurrentCalls: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe("Calls waiting for the backend at once on each gateway replica; no cap when absent."),
};

const burstNeedsRate: ObjectRule = {
  message: "burst needs requestsPerSecond: it is the size of the rate's bucket",
  path: ["burst"],
  cel: "!has(self.burst) || has(self.requestsPerSecond)",
  holds: (budget) => budget.burst === undefined || budget.requestsPerSecond !== undefined,
};

/** Said in CEL too: the API server checks a whole number against the minimum cut to an integer, so 0 would pass. */
const rateAtLeastMinimum: ObjectRule = {
  message: `Too small: expected number to be >=${MIN_RATE}`,
  path: ["requestsPerSecond"],
  cel: `!has(self.requestsPerSecond) || self.requestsPerSecond >= ${MIN_RATE}`,
  // Zod's own .min(MIN_RATE) says it, in the same words: here only the API server needs telling.
  holds: () => true,
};

export const toolLimits = withRules(z.object(budgetFields), [
  {
    message: "set requestsPerSecond, concurrentCalls or both: an empty tool limit limits nothing",
    path: [],
    cel: "has(self.requestsPerSecond) || has(self.concurrentCalls)",
    holds: (budget) => budget.requestsPerSecond !== undefined || budget.concurrentCalls !== undefined,
  },
  burstNeedsRate,
  rateAtLeastMinimum,
]).describe(
  "The limits of one tool, on top of the plan's: past them the call's result is an error (isError) saying when to " +
    "retry.",
);

export const planLimits = withRules(
  z.object({
    ...budgetFields,
    per: z
      .enum(["plan", "caller"])
      .default("plan")
      .describe(
        "Whose budget a call spends: plan, one budget for all callers; caller, one per OAuth token subject " +
          "(issuer and subject), for the plan's limits and each tool's (OAuth-protected plans only).",
      ),
    tools: z
      .record(toolName, toolLimits)
      .optional()
      .describe("Limits of single tools, by tool name (PerOperation plans only)."),
  }),
  [
    {
      message: "set requestsPerSecond, concurrentCalls or tools: empty limits limit nothing",
      path: [],
      cel: "has(self.requestsPerSecond) || has(self.concurrentCalls) || has(self.tools)",
      holds: (limits) =>
        limits.requestsPerSecond !== undefined || limits.concurrentCalls !== undefined || limits.tools !== undefined,
    },
    burstNeedsRate,
    rateAtLeastMinimum,
  ],
).describe(
  "Overload protection, enforced by each gateway replica on its own (with N replicas an endpoint admits up to N " +
    "times these figures): tools/call and backend-read resources/read past the plan's rate or concurrency get HTTP " +
    "429 with Retry-After; past a tool's, an isError result.",
);

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
}

/**
 * The plan-level rules. They read the custom resource's shape and the REST body's alike: there
 * `apiKey` is a boolean that defaults to false, here an object; `backendSecret` names a stored
 * secret there, a SecretSource here.
 */
/** The backend-secret sources that call the backend as the user with a token of their own: the user's token must not go too. */
const actsAsTheUser = ["tokenExchange", "oauth2AuthorizationCode"] as const;

export const configurationPlanRules: readonly ObjectRule[] = [
  {
    message: "a plan has one client authentication mode: set apiKey or oauth, not both",
    path: ["oauth"],
    cel: "!(has(self.apiKey) && has(self.oauth))",
    holds: (plan) => !(plan.apiKey && plan.oauth !== undefined),
  },
  {
    message: "oauth.toolScopes needs toolExposureMode PerOperation: Discovery mode has no per-tool list to filter",
    path: ["oauth", "toolScopes"],
    cel: "!has(self.oauth) || !has(self.oauth.toolScopes) || !has(self.toolExposureMode) || self.toolExposureMode != 'Discovery'",
    holds: (plan) => field(plan.oauth, "toolScopes") === undefined || plan.toolExposureMode !== "Discovery",
  },
  {
    message:
      "limits.per caller needs an OAuth-protected plan (set oauth): callers are told apart by their token's " +
      "subject, and an API key is one caller",
    path: ["limits", "per"],
    cel: "!has(self.limits) || !has(self.limits.per) || self.limits.per != 'caller' || has(self.oauth)",
    holds: (plan) => field(plan.limits, "per") !== "caller" || plan.oauth !== undefined,
  },
  {
    message:
      "limits.tools needs toolExposureMode PerOperation: Discovery mode calls its operations through invoke_tool",
    path: ["limits", "tools"],
    cel: "!has(self.limits) || !has(self.limits.tools) || !has(self.toolExposureMode) || self.toolExposureMode != 'Discovery'",
    holds: (plan) => field(plan.limits, "tools") === undefined || plan.toolExposureMode !== "Discovery",
  },
  {
    message:
      "elicitMissingArguments cannot be combined with backendSecret.elicit or oauth2AuthorizationCode: both " +
      "answer input_required with a requestState of their own, and a call has one",
    path: ["elicitMissingArguments"],
    cel:
      "!has(self.elicitMissingArguments) || !self.elicitMissingArguments || !has(self.backendSecret) || " +
      "(!has(self.backendSecret.elicit) && !has(self.backendSecret.oauth2AuthorizationCode))",
    holds: (plan) =>
      plan.elicitMissingArguments !== true ||
      (field(plan.backendSecret, "elicit") === undefined &&
        field(plan.backendSecret, "oauth2AuthorizationCode") === undefined),
  },
  {
    message:
      "backendSecret.elicit.signIn needs oauth: the page signs the user in at the plan's oauth issuer and compares " +
      "them with the user the agent's token named",
    path: ["backendSecret", "elicit", "signIn"],
    cel: "!has(self.backendSecret) || !has(self.backendSecret.elicit) || !has(self.backendSecret.elicit.signIn) || has(self.oauth)",
    holds: (plan) => field(field(plan.backendSecret, "elicit"), "signIn") === undefined || plan.oauth !== undefined,
  },
  {
    message:
      "backendSecret.tokenExchange needs oauth: the gateway exchanges the caller's validated access token, which " +
      "only an OAuth-protected endpoint has",
    path: ["backendSecret", "tokenExchange"],
    cel: "!has(self.backendSecret) || !has(self.backendSecret.tokenExchange) || has(self.oauth)",
    holds: (plan) => field(plan.backendSecret, "tokenExchange") === undefined || plan.oauth !== undefined,
  },
  {
    whyNotCel: "a scan of a list without a size limit exceeds the API server's CEL cost limit",
    violations: (plan) => {
      const source = actsAsTheUser.find((name) => field(plan.backendSecret, name) !== undefined);
      return source !== undefined &&
        strings(field(plan.headerPolicy, "forwardRequestHeaders")).some((h) => h.toLowerCase() === "authorization")
        ? [
            {
              path: ["headerPolicy", "forwardRequestHeaders"],
              message:
                `must not name Authorization with backendSecret.${source}: the caller's own token must never ` +
                "reach the backend",
            },
          ]
        : [];
    },
  },
  backendTlsNeedsHttpsRule,
  {
    whyNotCel: "comparing two lists without a size limit exceeds the API server's CEL cost limit",
    violations: (plan) => {
      const included = new Set(strings(plan.includedOperations));
      const both = strings(plan.excludedOperations).filter((id) => included.has(id));
      if (both.length === 0) return [];
      return [
        {
          path: ["excludedOperations"],
          message: `must not name operations also in includedOperations: ${both.join(", ")}`,
        },
      ];
    },
  },
  ...toolOverrideRules,
];

/** What a valid plan may get wrong without being refused; `at` prefixes field names (`spec.`). */
export function configurationPlanWarnings(plan: Record<string, unknown>, at = ""): string[] {
  if (strings(plan.includedOperations).length > 0 && strings(plan.excludedOperations).length > 0) {
    return [`${at}excludedOperations has no effect: with ${at}includedOperations set, only those are exposed`];
  }
  return [];
}

export const secretSourceKeyRef = z
  .object({
    name: objectName.describe("Name of the SecretSource in the same namespace."),
    key: z.string().min(1).describe("Key, among those the SecretSource reads, holding the value."),
  })
  .describe("A value read from a Kubernetes Secret through a SecretSource.");

/** An OAuth client id (RFC 6749 section 2.2): printable ASCII. */
const oauthClientId = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[\x20-\x7E]+$/, { message: "must be printable ASCII (RFC 6749 client_id)" });

/** The elicitation page's sign-in: the gateways enforce it, so older gateways must not be sent it (docs/upgrades.md). */
export const elicitSignIn = z
  .object({
    clientId: oauthClientId.describe(
      "The elicitation page's client id at the plan's oauth issuer: a public client (no secret) using " +
        "authorization code with PKCE S256 and scope openid, whose redirect URI is " +
        "<gateway origin>/elicitations/callback for every origin users reach the gateways by.",
    ),
  })
  .describe(
    "Sign the user in at the plan's oauth issuer (OpenID Connect, authorization code + PKCE) before the page " +
      "accepts a credential, and accept it only when the signed-in issuer and subject are the user the agent's " +
      "token named. Needs oauth.",
  );

/** How a backend secret reaches the backend, and the sources other than a stored secret. */
export const backendSecretFields = {
  env: envReference
    .optional()
    .describe("A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime."),
  elicit: z
    .object({
      description: z.string().min(1).describe("What the user is asked for."),
      signIn: elicitSignIn.optional(),
    })
    .optional()
    .describe(
      "Ask each user for the credential through MCP URL elicitation. With oauth it belongs to the token's user " +
        "(every protocol version); without, to the 2025 MCP session (2026-07-28 calls are then refused).",
    ),
  in: z.enum(["header", "query"]).default("header").describe("Where the secret goes in the backend request."),
  name: z.string().min(1).default("Authorization").describe("Header or query parameter name carrying the secret."),
  prefix: z.string().optional().describe("Text put before the secret, for example 'Bearer '."),
};

/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4) for the backend: what the CRD and the REST
 * API share. Each builds `clientSecret` from its own way of naming a stored secret.
 */
export const clientCredentialsFields = {
  tokenUrl: httpUrl.describe(
    "Token endpoint of the backend's authorization server, called by each gateway replica (POST, no redirects).",
  ),
  clientId: oauthClientId.describe("The gateway's client id at that authorization server."),
  tokenEndpointAuthMethod: z
    .enum(["client_secret_basic", "client_secret_post"])
    .default("client_secret_basic")
    .describe(
      "How the client authenticates: client_secret_basic (HTTP Basic) or client_secret_post (in the form body).",
    ),
  scopes: stringSet(scopeToken).optional().describe("Scopes asked for (the form's scope); none when absent."),
  audience: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe("Sent as the form's audience parameter (Auth0, Okta style); not sent when absent."),
  resource: httpUrl
    .optional()
    .describe("Sent as the form's resource parameter (RFC 8707 resource indicator); not sent when absent."),
};

const clientSecretEnv = envReference
  .optional()
  .describe("The client secret as a ${env:VARIABLE} of the gateway's environment, fixed for the process lifetime.");

/** `clientSecret`: exactly one of `stored` (a stored secret, named the way the surface names one) or `env`. */
export function clientSecretSource<K extends string, S extends z.ZodType>(key: K, stored: S) {
  const shape = { [key]: stored.optional(), env: clientSecretEnv } as { [P in K]: z.ZodOptional<S> } & {
    env: typeof clientSecretEnv;
  };
  return exactlyOneOf(z.object(shape), [key, "env"]).describe(
    `The client secret: exactly one of ${key}, env. Sent only to the token endpoint.`,
  );
}

/** Set only in the Authorization header as a bearer: a placement the token would not follow is refused. */
function bearerPlacement(source: "oauth2ClientCredentials" | "tokenExchange" | "oauth2AuthorizationCode"): ObjectRule {
  return {
    message:
      `with ${source} the token is always sent as 'Authorization: Bearer <token>': leave in, name and ` +
      "prefix unset",
    path: [source],
    cel:
      `!has(self.${source}) || ((!has(self.__in__) || self.__in__ == 'header') && ` +
      "(!has(self.name) || self.name.lowerAscii() == 'authorization') && !has(self.prefix))",
    holds: (secret) =>
      secret[source] === undefined ||
      ((secret.in === undefined || secret.in === "header") &&
        (secret.name === undefined || String(secret.name).toLowerCase() === "authorization") &&
        secret.prefix === undefined),
  };
}
export const bearerPlacementRule = bearerPlacement("oauth2ClientCredentials");
export const exchangedBearerPlacementRule = bearerPlacement("tokenExchange");
export const grantedBearerPlacementRule = bearerPlacement("oauth2AuthorizationCode");

/** The `oauth2ClientCredentials` source, with its client secret named the way the surface names a stored secret. */
export function oauth2ClientCredentials<K extends string, S extends z.ZodType>(key: K, stored: S) {
  return z
    .object({ ...clientCredentialsFields, clientSecret: clientSecretSource(key, stored) })
    .describe(
      "Get a token from the backend's authorization server (client credentials grant) and send it as " +
        "'Authorization: Bearer <token>'; each gateway replica caches it until shortly before it expires.",
    );
}

/** RFC 8693 token types the gateway can send on as a bearer. */
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const bearerTokenType = z.enum([ACCESS_TOKEN_TYPE, "urn:ietf:params:oauth:token-type:jwt"]);

/**
 * OAuth 2.0 token exchange (RFC 8693) for the backend: what the CRD and the REST API share. Each
 * builds `clientSecret` from its own way of naming a stored secret.
 */
export const tokenExchangeFields = {
  tokenUrl: clientCredentialsFields.tokenUrl.optional(),
  issuer: httpUrl
    .optional()
    .describe(
      "Issuer of the backend's authorization server, whose token endpoint is read from its RFC 8414 metadata " +
        "(/.well-known/oauth-authorization-server, then openid-configuration) when tokenUrl is not set.",
    ),
  clientId: clientCredentialsFields.clientId,
  tokenEndpointAuthMethod: z
    .enum(["client_secret_basic", "client_secret_post", "private_key_jwt"])
    .default("client_secret_basic")
    .describe(
      "How the client authenticates: client_secret_basic (HTTP Basic), client_secret_post (in the form body) or " +
        "private_key_jwt (RFC 7523: a JWT signed with clientSecret's PEM private key, RSA RS256, EC P-256 ES256 " +
        "or Ed25519 EdDSA).",
    ),
  scopes: clientCredentialsFields.scopes,
  audience: clientCredentialsFields.audience,
  resource: clientCredentialsFields.resource,
  requestedTokenType: bearerTokenType
    .default(ACCESS_TOKEN_TYPE)
    .describe("The requested_token_type: an access token or a JWT, sent to the backend as a bearer."),
  actorToken: z
    .enum(["clientCredentials"])
    .optional()
    .describe(
      "Delegation (RFC 8693 section 1.1): clientCredentials makes the gateway first get an access token of its " +
        "own at the same token endpoint (client credentials grant, the same client and client authentication; " +
        "no scope, audience or resource), kept per plan on each replica until shortly before it expires, and " +
        "send it with each exchange as actor_token (actor_token_type access_token). None is sent when absent.",
    ),
};

/** The `tokenExchange` source, with its client credential named the way the surface names a stored secret. */
export function tokenExchange<K extends string, S extends z.ZodType>(key: K, stored: S) {
  return exactlyOneOf(
    z.object({
      ...tokenExchangeFields,
      clientSecret: clientSecretSource(key, stored).describe(
        `The client secret, or for private_key_jwt the PEM (PKCS#8) private key: exactly one of ${key}, env. ` +
          "Sent only to the token endpoint (a private key never leaves the gateway).",
      ),
    }),
    ["tokenUrl", "issuer"],
  ).describe(
    "Exchange each caller's validated access token (RFC 8693, subject_token_type access_token) at the backend's " +
      "authorization server for a token of their own, sent as 'Authorization: Bearer <token>'; the caller's " +
      "token itself never reaches the backend. Each gateway replica caches the result per caller (issuer, " +
      "subject) until shortly before it expires. Needs oauth. An actor_token is sent only with actorToken.",
  );
}

/** The backend secret's sources, exactly one of which a plan sets; `stored` names a stored secret. */
export const backendSecretSources = <K extends string>(stored: K) =>
  [stored, "env", "elicit", "oauth2ClientCredentials", "tokenExchange", "oauth2AuthorizationCode"] as const;

/** Where the backend's authorization server sends the user back, under the gateway's origin. */
export const AUTHORIZATION_CALLBACK_PATH = "/elicitations/authorized";

/**
 * OAuth 2.0 authorization code with PKCE (RFC 6749 section 4.1, RFC 7636) for the backend, each
 * user's own grant: what the CRD and the REST API share. Each builds `clientSecret` from its own
 * way of naming a stored secret.
 */
export const authorizationCodeFields = {
  issuer: tokenExchangeFields.issuer,
  authorizationUrl: httpUrl
    .optional()
    .describe(
      "Authorization endpoint of the backend's authorization server, where the user's browser is sent; with " +
        "tokenUrl, instead of issuer.",
    ),
  tokenUrl: clientCredentialsFields.tokenUrl.optional(),
  revocationUrl: httpUrl
    .optional()
    .describe(
      "RFC 7009 revocation endpoint: a grant the user revokes on the page is also revoked there. With issuer, " +
        "read from its metadata when not set; none: the grant is only forgotten.",
    ),
  clientId: clientCredentialsFields.clientId,
  tokenEndpointAuthMethod: z
    .enum(["client_secret_basic", "client_secret_post", "none"])
    .optional()
    .describe(
      "How the client authenticates at the token endpoint: client_secret_basic (HTTP Basic, the default with a " +
        "clientSecret), client_secret_post, or none (a public client, the default without one; PKCE protects " +
        "the code either way).",
    ),
  scopes: stringSet(scopeToken).optional().describe("Scopes asked for (the authorization request's scope)."),
  resource: clientCredentialsFields.resource,
  description: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .describe("What the user is told the authorization is for (the elicitation's message)."),
};

/** The `oauth2AuthorizationCode` source, with its client secret named the way the surface names a stored secret. */
export function oauth2AuthorizationCode<K extends string, S extends z.ZodType>(key: K, stored: S) {
  return withRules(
    z.object({
      ...authorizationCodeFields,
      clientSecret: clientSecretSource(key, stored)
        .optional()
        .describe(
          `The client secret: exactly one of ${key}, env; none for a public client. Sent only to the token endpoint.`,
        ),
    }),
    [
      {
        message: "set exactly one of issuer (RFC 8414 discovery) or authorizationUrl with tokenUrl",
        path: ["issuer"],
        cel:
          "has(self.issuer) ? (!has(self.authorizationUrl) && !has(self.tokenUrl)) : " +
          "(has(self.authorizationUrl) && has(self.tokenUrl))",
        holds: (code) =>
          code.issuer !== undefined
            ? code.authorizationUrl === undefined && code.tokenUrl === undefined
            : code.authorizationUrl !== undefined && code.tokenUrl !== undefined,
      },
      {
        message: "a client authentication method other than none needs a clientSecret, and none takes no clientSecret",
        path: ["tokenEndpointAuthMethod"],
        cel: "!has(self.tokenEndpointAuthMethod) || (self.tokenEndpointAuthMethod == 'none') == !has(self.clientSecret)",
        holds: (code) =>
          code.tokenEndpointAuthMethod === undefined ||
          (code.tokenEndpointAuthMethod === "none") === (code.clientSecret === undefined),
      },
    ],
  ).describe(
    "Each user authorizes the backend once, in a browser (authorization code with PKCE S256, through MCP URL " +
      "elicitation, like elicit): the gateway's page sends them to the backend's authorization server, whose " +
      `redirect URI is <gateway origin>${AUTHORIZATION_CALLBACK_PATH}, and keeps their access and refresh tokens ` +
      "sealed in the credential store; calls send 'Authorization: Bearer <their token>', refreshed when it " +
      "expires. A refused refresh or a backend 401 forgets the grant and asks again. With oauth the grant " +
      "belongs to the token's user (every protocol version); without, to the 2025 MCP session. Needs a gateway " +
      "cluster key.",
  );
}

export const backendSecret = exactlyOneOf(
  z.object({
    secretSourceRef: secretSourceKeyRef.optional(),
    oauth2ClientCredentials: oauth2ClientCredentials("secretSourceRef", secretSourceKeyRef).optional(),
    tokenExchange: tokenExchange("secretSourceRef", secretSourceKeyRef).optional(),
    oauth2AuthorizationCode: oauth2AuthorizationCode("secretSourceRef", secretSourceKeyRef).optional(),
    ...backendSecretFields,
  }),
  backendSecretSources("secretSourceRef"),
  [bearerPlacementRule, exchangedBearerPlacementRule, grantedBearerPlacementRule],
).describe(
  "The credential the gateway sends to the backend: exactly one of secretSourceRef, env, elicit, " +
    "oauth2ClientCredentials, tokenExchange, oauth2AuthorizationCode.",
);

export const configurationPlanSpec = z
  .object({
    serviceRef: objectRef("Service"),
    backendEndpoint: contractUrl.describe(
      "Base address of the backend; operation paths are appended to it. For a graphql Service, the GraphQL " +
        "endpoint's own URL, which every call is POSTed to (nothing appended). For a grpc Service, " +
        "grpc://host:port (h2c) or grpcs://host:port (TLS), nothing after the port.",
    ),
    apiKey: z
      .object({
        secretName: objectName.describe(
          "Secret (in the same namespace) the operator writes the key to, under `apiKey`.",
        ),
      })
      .optional()
      .describe(
        "Protect the endpoint with a generated API key, sent by clients in the x-atrium-key header (not with oauth).",
      ),
    oauth: oauthSettings.optional(),
    backendSecret: backendSecret.optional(),
    backendTls: backendTls("secretSourceRef", secretSourceKeyRef).optional(),
    includedOperations: stringSet().optional().describe("operationIds to expose as tools; all operations when absent."),
    excludedOperations: stringSet().optional().describe("operationIds never exposed as tools."),
    headerPolicy: headerPolicy.optional(),
    toolExposureMode: toolExposureMode.default("PerOperation"),
    graphql: graphqlPlanSettings.optional(),
    grpc: grpcPlanSettings.optional(),
    backendTimeoutMs: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .default(30_000)
      .describe("Time the backend has to answer; past it the tool result is a gateway-generated 504."),
    circuitBreaker,
    limits: planLimits.optional(),
    elicitMissingArguments: z
      .boolean()
      .default(false)
      .describe(
        "MCP 2026-07-28: a tool call or prompts/get lacking required arguments, from a client that declared " +
          "form-mode elicitation, is answered input_required with a form per missing primitive argument (or object " +
          "of primitive properties); the answers are merged into the arguments. Needs a gateway cluster key.",
      ),
    toolOverrides: toolOverrides.optional(),
    maxResultBytes: maxResultBytes.optional(),
    toolOutputFilters: toolOutputFilters.optional(),
    audit: z
      .boolean()
      .default(false)
      .describe(
        "Emit an audit event (JSON line, and OTLP log when configured) for each authentication decision and tool call.",
      ),
  })
  .describe("The settings of an MCP endpoint over a Service's backend.");

/** The condition type saying what the control plane warned of when it last accepted the plan. */
export const WRITE_WARNINGS_CONDITION = "WriteWarnings";

export const configurationPlanStatus = reconcileStatusWithConditions(
  `${WRITE_WARNINGS_CONDITION}: True when the control plane accepted the plan's last change with warnings (for example a toolOutputFilters patch through which the tool's outputSchema cannot be derived, so the tool lists none); its message quotes them.`,
  "the last write's warnings as a condition.",
);

export const ConfigurationPlan = defineKind({
  kind: "ConfigurationPlan",
  plural: "configurationplans",
  shortNames: ["cfgplan"],
  description: "Binds a Service to a backend with the settings of an MCP endpoint (auth, operations, headers).",
  spec: configurationPlanSpec,
  status: configurationPlanStatus,
  rules: configurationPlanRules,
});
