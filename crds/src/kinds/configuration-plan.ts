/**
 * ConfigurationPlan: binds a Service to a backend and holds every setting of an MCP endpoint.
 */
import { z } from "zod";
import { envReference, exactlyOneOf, httpUrl, objectName, objectRef, reconcileStatus, stringSet } from "../common.ts";
import { defineKind } from "../kind.ts";

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
      .record(headerName, z.string().max(8192))
      .optional()
      .describe("Fixed headers added to every backend request."),
  })
  .describe("Which headers cross the gateway, in each direction, and under what name.");

export const oauthSettings = z
  .object({
    issuer: httpUrl.describe("Issuer (iss) that tokens must carry."),
    jwksUri: httpUrl.optional().describe("Where the signing keys are; discovered from the issuer when absent."),
    audience: z.string().min(1).optional().describe("Audience (aud) that tokens must carry."),
    resource: httpUrl.optional().describe("Protected-resource identifier of the MCP endpoint (RFC 8707 / RFC 9728)."),
    requiredScopes: stringSet().optional().describe("Scopes every token must carry."),
  })
  .describe("OAuth 2.0 bearer-token protection of the MCP endpoint, checked by the gateway.");

export const secretSourceKeyRef = z
  .object({
    name: objectName.describe("Name of the SecretSource in the same namespace."),
    key: z.string().min(1).describe("Key, among those the SecretSource reads, holding the value."),
  })
  .describe("A value read from a Kubernetes Secret through a SecretSource.");

/** How a backend secret reaches the backend, and the sources other than a stored secret. */
export const backendSecretFields = {
  env: envReference
    .optional()
    .describe("A ${env:VARIABLE} read from the gateway's environment, fixed for the process lifetime."),
  elicit: z
    .object({ description: z.string().min(1).describe("What the user is asked for.") })
    .optional()
    .describe("Ask each user for the credential through MCP elicitation (OAuth-protected plans only)."),
  in: z.enum(["header", "query"]).default("header").describe("Where the secret goes in the backend request."),
  name: z.string().min(1).default("Authorization").describe("Header or query parameter name carrying the secret."),
  prefix: z.string().optional().describe("Text put before the secret, for example 'Bearer '."),
};

export const backendSecret = exactlyOneOf(
  z.object({ secretSourceRef: secretSourceKeyRef.optional(), ...backendSecretFields }),
  ["secretSourceRef", "env", "elicit"],
).describe("The credential the gateway sends to the backend: exactly one of secretSourceRef, env, elicit.");

export const configurationPlanSpec = z
  .object({
    serviceRef: objectRef("Service"),
    backendEndpoint: httpUrl.describe("Base address of the backend; operation paths are appended to it."),
    apiKey: z
      .object({
        secretName: objectName.describe(
          "Secret (in the same namespace) the operator writes the key to, under `apiKey`.",
        ),
      })
      .optional()
      .describe("Protect the endpoint with a generated API key, sent by clients in the x-atrium-key header."),
    oauth: oauthSettings.optional(),
    backendSecret: backendSecret.optional(),
    includedOperations: stringSet().optional().describe("operationIds to expose as tools; all operations when absent."),
    excludedOperations: stringSet().optional().describe("operationIds never exposed as tools."),
    headerPolicy: headerPolicy.optional(),
    toolExposureMode: toolExposureMode.default("PerOperation"),
    backendTimeoutMs: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .default(30_000)
      .describe("Time the backend has to answer; past it the tool result is a gateway-generated 504."),
    audit: z.boolean().default(false).describe("Emit audit events (authentication and tool calls) for this plan."),
  })
  .describe("The settings of an MCP endpoint over a Service's backend.");

export const ConfigurationPlan = defineKind({
  kind: "ConfigurationPlan",
  plural: "configurationplans",
  shortNames: ["cfgplan"],
  description: "Binds a Service to a backend with the settings of an MCP endpoint (auth, operations, headers).",
  spec: configurationPlanSpec,
  status: reconcileStatus,
});
