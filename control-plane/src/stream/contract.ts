/**
 * The change stream's payload: an Exposition compiled with everything a gateway needs to
 * serve it (operations, plan settings with the backend secret resolved, extra tools,
 * resources, prompts), the sessions clients ended, and what a gateway registers with and
 * reports. Gateways validate what they receive with these schemas; the REST routes build their
 * bodies from them. Nothing here touches storage, so a gateway importing it loads no database code.
 */
import {
  backendSecretFields,
  configurationPlanSpec,
  customTool,
  exactlyOneOf,
  labelMap,
  mcpPrompt,
  mcpResource,
  mcpResourceTemplate,
} from "@atrium/crds";
import { z } from "zod";
import { NormalizedOperation } from "../openapi/operation.ts";

/** The CR's backend secret, with a stored secret's id where the CR names a SecretSource. */
export const planBackendSecret = exactlyOneOf(
  z.object({
    secretId: z.uuid().optional().describe("A backend secret stored in the control plane."),
    ...backendSecretFields,
  }),
  ["secretId", "env", "elicit"],
);
export const planSettings = configurationPlanSpec
  .omit({ serviceRef: true, apiKey: true, backendSecret: true, backendEndpoint: true })
  .extend({ backendSecret: planBackendSecret.optional() });
export type PlanSettings = z.output<typeof planSettings>;

export const gatewayId = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, { message: "must be lowercase letters, digits, '-' or '.'" });
/** A host name or IP address, optionally with a port: where clients reach the gateway. */
export const fqdn = z
  .string()
  .max(260)
  .regex(/^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*(:\d{1,5})?$/, {
    message: "must be a lowercase host name such as gw1.example.com, optionally with :port",
  });
export const instanceId = z.string().min(8).max(128).describe("Random per gateway process; kept across its restarts.");

export const registration = z.object({
  id: gatewayId,
  instanceId,
  fqdns: z.array(fqdn).min(1).max(32),
  labels: labelMap.default({}),
  version: z.string().max(64).optional(),
});

/** The backend secret as the gateway uses it: a value, an environment variable, or elicitation. */
export const resolvedBackendSecret = z.object({
  source: z.enum(["value", "env", "elicit"]),
  /** The decrypted value (source "value"), sent only to gateways of the organization. */
  value: z.string().optional(),
  /** The variable name (source "env"). */
  variable: z.string().optional(),
  description: z.string().optional(),
  in: backendSecretFields.in,
  name: backendSecretFields.name,
  prefix: backendSecretFields.prefix,
});

export const compiledExposition = z.object({
  id: z.string(),
  name: z.string(),
  organization: z.object({ id: z.string(), name: z.string() }),
  gatewayGroupId: z.number(),
  plan: planSettings.omit({ backendSecret: true }).extend({
    id: z.string(),
    name: z.string(),
    backendEndpoint: z.string(),
    /** SHA-256 (hex) of the client API key; null when the endpoint has none. */
    apiKeyHash: z.string().nullable(),
    backendSecret: resolvedBackendSecret.optional(),
  }),
  service: z.object({
    id: z.string(),
    name: z.string(),
    version: z.string(),
    /** The included operations, in document order. */
    operations: z.array(NormalizedOperation),
  }),
  customTools: z.array(customTool),
  resources: z.array(mcpResource),
  resourceTemplates: z.array(mcpResourceTemplate),
  prompts: z.array(mcpPrompt),
});
export type CompiledExposition = z.output<typeof compiledExposition>;

/** 2025-era sessions last a day after they are issued; an ended one needs refusing no longer. */
export const SESSION_TTL_SECONDS = 24 * 3600;

/** SHA-256 of a 2025-era session id: the id itself is a bearer credential and never leaves the gateway. */
export const sessionHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { message: "must be the SHA-256 of the session id, as 64 lowercase hex digits" });

/** A session a client ended (DELETE): every gateway serving its Exposition refuses it until it expires. */
export const endedSession = z.object({
  expositionId: z.uuid({ message: "must be an Exposition id (a UUID)" }),
  sessionHash,
  expiresAt: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z" }),
});
export type EndedSession = z.output<typeof endedSession>;
/**
 * At most this many sessions per Exposition and minute are recorded: past it, a flood of
 * (initialize, DELETE) cannot grow every gateway's memory and the outbox. What is dropped stays
 * refused by the gateway that ended it, and expires with the session anyway.
 */
export const ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE = 120;
export const ENDED_SESSIONS_REPORT_MAX = 100;
/** What a gateway reports at once (gateways that predate batches send one bare `endedSession`). */
export const endedSessionsReport = z.object({
  endedSessions: z.array(endedSession).min(1).max(ENDED_SESSIONS_REPORT_MAX),
});
/** Absent from control planes that predate ended sessions. */
const endedSessions = z.array(endedSession).default([]);

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
});

/** The control plane's answer to a registration; fields added later are optional for older control planes. */
export const registrationAnswer = z.object({
  id: z.string(),
  healthIntervalSeconds: z.number(),
  staleAfterSeconds: z.number(),
  /** The change stream sends a heartbeat this often: a gateway hearing nothing for three of them reconnects. */
  heartbeatSeconds: z.number().positive().optional(),
  /** The organization the token belongs to: the gateway's cache is bound to it. */
  organization: z.object({ id: z.string(), name: z.string() }).optional(),
});

export const PROBLEM_MESSAGE_MAX = 500;
/** An Exposition a gateway received but does not serve, and why. */
export const expositionProblem = z.object({
  expositionId: z.uuid({ message: "must be an Exposition id (a UUID)" }),
  message: z.string().min(1).max(PROBLEM_MESSAGE_MAX),
});
export type ExpositionProblem = z.output<typeof expositionProblem>;
/** PUT /gateways/:id/problems: the whole current set, replacing what the gateway reported before. */
export const gatewayProblemsReport = z.object({
  instanceId,
  problems: z.array(expositionProblem).max(10_000),
});

/** What a gateway sends to register (id, FQDNs, labels): gateways validate their own configuration with it. */
export { registration as gatewayRegistration };
