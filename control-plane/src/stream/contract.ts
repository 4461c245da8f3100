/**
 * The change stream's payload: an Exposition compiled with everything a gateway needs to
 * serve it (operations, plan settings with the backend secret resolved, extra tools,
 * resources, prompts). Gateways validate what they receive with these schemas.
 */
import { backendSecretFields, customTool, mcpPrompt, mcpResource, mcpResourceTemplate } from "@atrium/crds";
import { z } from "zod";
import { NormalizedOperation } from "../openapi/operation.ts";
import { planSettings } from "../routes/configuration-plans.ts";

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

/** First event of a stream without a usable `since`: the whole set, replacing what the gateway had. */
export const snapshotEvent = z.object({ revision: z.number(), expositions: z.array(compiledExposition) });
/** Later events: what changed at `revision`, applied as one unit. */
export const changesEvent = z.object({
  revision: z.number(),
  upserts: z.array(compiledExposition),
  deletes: z.array(z.string()),
});

/** What a gateway sends to register (id, FQDNs, labels): gateways validate their own configuration with it. */
export { registration as gatewayRegistration } from "../routes/gateways.ts";
