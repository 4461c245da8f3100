/**
 * The change stream's payload: an Exposition compiled with everything a gateway needs to
 * serve it (operations, plan settings with the backend secret resolved, extra tools,
 * resources, prompts), and the snapshot and change events that carry it with the sessions
 * clients ended. Gateways validate what they receive with these schemas; the control plane
 * builds its events and plan bodies from them.
 */
import {
  authorizationCodeFields,
  backendSecretFields,
  backendSecretSources,
  backendTls,
  bearerPlacementRule,
  configurationPlanSpec,
  elicitSignIn,
  exactlyOneOf,
  exchangedBearerPlacementRule,
  grantedBearerPlacementRule,
  mcpPrompt,
  mcpResource,
  mcpResourceTemplate,
  oauth2AuthorizationCode,
  oauth2ClientCredentials,
  storedCustomTool,
  tokenExchange,
  tokenExchangeFields,
} from "@atrium/crds";
import { z } from "zod";
import { endedSession } from "./ended-sessions.ts";
import { NormalizedOperation } from "./operation.ts";

/** The CR's backend secret, with a stored secret's id where the CR names a SecretSource. */
const storedSecretId = z.uuid().describe("A backend secret stored in the control plane.");
export const planBackendSecret = exactlyOneOf(
  z.object({
    secretId: storedSecretId.optional(),
    oauth2ClientCredentials: oauth2ClientCredentials("secretId", storedSecretId).optional(),
    tokenExchange: tokenExchange("secretId", storedSecretId).optional(),
    oauth2AuthorizationCode: oauth2AuthorizationCode("secretId", storedSecretId).optional(),
    ...backendSecretFields,
  }),
  backendSecretSources("secretId"),
  [bearerPlacementRule, exchangedBearerPlacementRule, grantedBearerPlacementRule],
);
/** The CR's backend TLS, with a stored secret's id where the CR names a SecretSource. */
export const planBackendTls = backendTls("secretId", storedSecretId);
export const planSettings = configurationPlanSpec
  .omit({ serviceRef: true, apiKey: true, backendSecret: true, backendTls: true, backendEndpoint: true })
  .extend({ backendSecret: planBackendSecret.optional(), backendTls: planBackendTls.optional() });
export type PlanSettings = z.output<typeof planSettings>;

/**
 * A plan's settings as stored, with the defaults of fields added since they were written (a plan
 * stored before the circuit breaker existed has no `circuitBreaker`); as stored when they no
 * longer parse, so one old record never fails a listing.
 */
export function storedPlanSettings(stored: unknown): PlanSettings {
  const parsed = planSettings.safeParse(stored);
  return parsed.success ? parsed.data : (stored as PlanSettings);
}

/** A secret as the gateway reads it: its decrypted value, or the environment variable holding it. */
const resolvedValue = {
  /** The decrypted value (source "value"), sent only to gateways of the organization. */
  value: z.string().optional(),
  /** The variable name (source "env"). */
  variable: z.string().optional(),
};

/**
 * The backend secret as the gateway uses it: a value, an environment variable, elicitation, or
 * OAuth 2.0 client credentials or token exchange (with their client secret resolved like a value
 * or a variable).
 */
const resolvedClientSecret = z.object({ source: z.enum(["value", "env"]), ...resolvedValue });
export const resolvedBackendSecret = z.object({
  source: z.enum(["value", "env", "elicit", "oauth2ClientCredentials", "tokenExchange", "oauth2AuthorizationCode"]),
  ...resolvedValue,
  /** The stored secret's id (source "value"), for audit events; absent from older control planes. */
  secretId: z.string().optional(),
  description: z.string().optional(),
  /** Source "elicit": the page signs the user in before it takes a credential. */
  signIn: elicitSignIn.optional(),
  clientCredentials: oauth2ClientCredentials("value", z.string())
    .omit({ clientSecret: true })
    .extend({ clientSecret: resolvedClientSecret })
    .optional(),
  tokenExchange: z.object({ ...tokenExchangeFields, clientSecret: resolvedClientSecret }).optional(),
  /** Source "oauth2AuthorizationCode": each user's grant; no clientSecret for a public client. */
  authorizationCode: z.object({ ...authorizationCodeFields, clientSecret: resolvedClientSecret.optional() }).optional(),
  in: backendSecretFields.in,
  name: backendSecretFields.name,
  prefix: backendSecretFields.prefix,
});

/** A PEM the gateway reads: decrypted by the control plane (a stored secret), or a file on the gateway. */
const resolvedPem = z.object({
  source: z.enum(["value", "file"]),
  /** The PEM (source "value"), sent only to gateways of the organization. */
  value: z.string().optional(),
  /** The absolute path (source "file"). */
  path: z.string().optional(),
});

/** The backend TLS as the gateway uses it: every stored secret resolved to its value. */
export const resolvedBackendTls = z.object({
  caBundle: z.string().optional(),
  caFile: z.string().optional(),
  trustSystemCAs: z.boolean().optional(),
  clientCertificate: resolvedPem.optional(),
  clientKey: resolvedPem.optional(),
  serverName: z.string().optional(),
});
export type ResolvedBackendTls = z.output<typeof resolvedBackendTls>;

export const compiledExposition = z.object({
  id: z.string(),
  name: z.string(),
  organization: z.object({ id: z.string(), name: z.string() }),
  gatewayGroupId: z.number(),
  plan: planSettings.omit({ backendSecret: true, backendTls: true }).extend({
    id: z.string(),
    name: z.string(),
    backendEndpoint: z.string(),
    /** SHA-256 (hex) of the client API key; null when the endpoint has none. */
    apiKeyHash: z.string().nullable(),
    backendSecret: resolvedBackendSecret.optional(),
    backendTls: resolvedBackendTls.optional(),
  }),
  service: z.object({
    id: z.string(),
    name: z.string(),
    version: z.string(),
    /**
     * The Service's kind (openapi, graphql, grpc). Any text here, so a kind this gateway does not
     * know still parses: the gateway refuses that one Exposition (registry.ts) and serves the rest.
     * Absent from control planes that predate it, which sent OpenAPI and GraphQL Services only.
     */
    kind: z.string().default("openapi"),
    /** The included operations, in document order. */
    operations: z.array(NormalizedOperation),
  }),
  customTools: z.array(storedCustomTool),
  resources: z.array(mcpResource),
  resourceTemplates: z.array(mcpResourceTemplate),
  prompts: z.array(mcpPrompt),
});
export type CompiledExposition = z.output<typeof compiledExposition>;

/** Absent from control planes that predate ended sessions. */
const endedSessions = z.array(endedSession).default([]);

/**
 * The W3C traceparent of the write that made the change (the control plane's `publish changes`
 * span), when the control plane traces: the gateway's `apply changes` span continues it. Absent
 * otherwise and from older control planes; older gateways ignore it (unknown fields are dropped).
 */
const traceparent = z.string().optional().catch(undefined);

/**
 * When the control plane recorded the oldest change of a live message (ms since the epoch, the
 * writing transaction's time in the database): the gateway observes its change lag from it.
 * Absent from messages a resuming stream catches up with, and from older control planes.
 */
const committedAt = z.number().optional().catch(undefined);

/** First event of a stream without a usable `since`: the whole set, replacing what the gateway had. */
export const snapshotEvent = z.object({
  revision: z.number(),
  expositions: z.array(compiledExposition),
  /** The unexpired ended sessions of those Expositions (added to what the gateway knows, not replacing it). */
  endedSessions,
});
/** Later events: what changed at `revision`, applied as one unit. */
export const changesEvent = z.object({
  revision: z.number(),
  upserts: z.array(compiledExposition),
  deletes: z.array(z.string()),
  endedSessions,
  traceparent,
  committedAt,
});

/**
 * The same events read leniently, as gateways read them: the envelope is checked, then each
 * Exposition (and ended session) on its own, so one record a gateway cannot serve never holds
 * up the others.
 */
export const snapshotEnvelope = z.object({
  revision: z.number(),
  expositions: z.array(z.unknown()),
  endedSessions: z.array(z.unknown()).default([]),
});
export const changesEnvelope = z.object({
  revision: z.number(),
  upserts: z.array(z.unknown()),
  deletes: z.array(z.string()),
  endedSessions: z.array(z.unknown()).default([]),
  traceparent,
  committedAt,
});
