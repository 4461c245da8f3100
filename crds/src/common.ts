/**
 * Building blocks shared by the kinds: references, syntax rules and the two status shapes.
 *
 * Each syntax rule is declared once here: a Zod check (what the webhook, REST API, CLI and
 * operator enforce) plus what the CRD can say of it (a pattern, or CEL through rules.ts).
 */
import { z } from "zod";

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The one object-name schema: a Kubernetes object name (RFC 1123 subdomain), as carried by
 * `metadata.name`, and the name of every control-plane record a custom resource becomes.
 */
export const objectName = z.string().min(1).max(253).regex(dnsSubdomain, {
  message: "must be lowercase letters, digits, '-' or '.', starting and ending with a letter or digit",
});

/** A reference, by name, to another Atrium resource in the same namespace. */
export function objectRef(kind: string) {
  return z
    .object({ name: objectName.describe(`Name of the ${kind} in the same namespace.`) })
    .describe(`Reference to a ${kind} in the same namespace.`);
}

/**
 * Why `value` is not an acceptable http(s) URL, or undefined when it is: parsed as the gateway
 * and control plane will (WHATWG `URL`). Zod only: CEL cannot parse a URL this way, so on a
 * cluster the API server checks the scheme (the CRD's pattern) and the webhook the rest.
 */
export function urlProblem(value: string): string | undefined {
  // WHATWG URL silently strips tabs and newlines and reads `\` as `/`: other parsers do not.
  if (/[\s\p{Cc}]/u.test(value)) return "must not contain whitespace or control characters";
  if (value.includes("\\")) return "must not contain '\\'";
  // Also refuses `https:host`, which WHATWG URL would read as https://host.
  if (!/^https?:\/\//i.test(value)) return "must be an absolute http:// or https:// URL";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute http:// or https:// URL";
  }
  const authority = value.slice(value.indexOf("//") + 2).split(/[/?#]/, 1)[0] ?? "";
  if (url.username !== "" || url.password !== "" || authority.includes("@")) {
    return "must not contain credentials (user:password@): keep them in a Secret";
  }
  if (value.includes("#")) return "must not have a fragment (#...)";
  if (authority === "" || url.hostname === "") return "must name a host";
  return undefined;
}

/** Reports `problem(value)` as the one issue of a string, when there is one. */
function checkedBy(problem: (value: string) => string | undefined) {
  return (value: string, ctx: z.core.$RefinementCtx<string>) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: "custom", message });
  };
}

/** An http(s) URL: the API server checks the scheme (pattern), Zod the whole syntax (`urlProblem`). */
export const httpUrl = z
  .string()
  .max(2048)
  .superRefine(checkedBy(urlProblem))
  .meta({ pattern: "^https?://[^\\s/?#]+[^\\s]*$" });

/** `${env:VARIABLE}`: a value the gateway reads from its own environment at start-up. */
export const envReference = z
  .string()
  .regex(/^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/, { message: "must look like ${env:VARIABLE_NAME}" });

const labelKeyPattern =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValuePattern = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
const labelName = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Why `key` is not a Kubernetes label key (a qualified name), or undefined when it is. */
export function labelKeyProblem(key: string): string | undefined {
  const parts = key.split("/");
  if (parts.length > 2) return "must be a label key: an optional prefix, one '/', and a name";
  const name = parts.at(-1) ?? "";
  const prefix = parts.length === 2 ? (parts[0] ?? "") : undefined;
  if (prefix !== undefined && (prefix === "" || prefix.length > 253 || !dnsSubdomain.test(prefix))) {
    return "must be a label key: the prefix before '/' must be a lowercase DNS subdomain of at most 253 characters";
  }
  if (name === "" || name.length > 63 || !labelName.test(name)) {
    return (
      "must be a label key: the name must be 1-63 letters, digits, '-', '_' or '.', " +
      "starting and ending with a letter or digit"
    );
  }
  return undefined;
}

/**
 * A Kubernetes label key: optional DNS-subdomain prefix and '/', then a name of up to 63
 * characters. Zod says precisely what is wrong (`labelKeyProblem`); the API server checks the
 * pattern where the key is a value (a selector's `key`), and not at all where it is a map key
 * (a structural schema cannot constrain map keys; CEL over an unbounded map exceeds the cost
 * limit): there the webhook checks it.
 */
export const labelKey = z
  .string()
  .superRefine(checkedBy(labelKeyProblem))
  .meta({ maxLength: 317, pattern: labelKeyPattern.source });
/** A Kubernetes label value: up to 63 letters, digits, '-', '_' or '.', may be empty. */
export const labelValue = z
  .string()
  .max(63)
  .regex(labelValuePattern, { message: "must be up to 63 letters, digits, '-', '_' or '.'" });
/** A set of labels; keys are checked by Zod (the webhook), values also by the API server. */
export const labelMap = z.record(labelKey, labelValue);

/** Reports the first repeat of each identity in a list, at the repeated item's index. */
function refuseDuplicates<T>(identity: (item: T) => unknown, what: string) {
  return (items: T[], ctx: z.core.$RefinementCtx<T[]>) => {
    const seen = new Set<unknown>();
    items.forEach((item, index) => {
      const id = identity(item);
      if (seen.has(id))
        ctx.addIssue({ code: "custom", path: [index], message: `duplicate ${what} ${JSON.stringify(id)}` });
      seen.add(id);
    });
  };
}

/** Lists whose items are identified by one field: duplicates are refused by Zod and the API server. */
export function listMap<T extends z.ZodObject>(item: T, key: keyof T["shape"] & string) {
  return z
    .array(item)
    .superRefine(refuseDuplicates((value: z.output<T>) => (value as Record<string, unknown>)[key], key))
    .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": [key] });
}

/** Lists of unique strings. */
export function stringSet(item: z.ZodString = z.string().min(1)) {
  return z
    .array(item)
    .superRefine(refuseDuplicates((value: string) => value, "value"))
    .meta({ "x-kubernetes-list-type": "set" });
}

/** Reconciliation states of Service, GatewayGroup, ConfigurationPlan, Exposition and SecretSource. */
export const reconcileState = z
  .enum(["UNKNOWN", "IN_PROGRESS", "READY", "ERROR"])
  .describe(
    "UNKNOWN before the first reconcile; IN_PROGRESS while a dependency is missing in the control plane; " +
      "READY once reconciled to the control plane (it does not prove gateway selection or backend health); " +
      "ERROR with status.message.",
  );

const controlPlaneId = z.string().describe("Identifier of the record in the control plane.");

/** What every kind's status reports beside its state: the generation reconciled, why, and the record id. */
const observedFields = {
  observedGeneration: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("metadata.generation of the spec that was last reconciled."),
  message: z.string().optional().describe("Why the resource is IN_PROGRESS or ERROR."),
  id: controlPlaneId.optional(),
};

/** `status` of the five reconciled kinds, as the functional specification lists it. */
export const reconcileStatus = z
  .object({ status: reconcileState, ...observedFields })
  .describe("Observed state, written by the operator through the status subresource.");

/** `status` of CustomTools, Resources and Prompts: `state` rather than `status`. */
export const artifactStatus = z
  .object({ state: reconcileState, ...observedFields })
  .describe("Observed state, written by the operator through the status subresource.");

/** A Kubernetes Condition (metav1.Condition). */
export const condition = z
  .object({
    type: z
      .string()
      .max(316)
      .regex(
        /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/,
      )
      .describe(
        "Condition type; for SecretSource `secret.atrium.dev/<secret name>`, one per referenced Secret; for Service `ImportWarnings`; for ConfigurationPlan `WriteWarnings`.",
      ),
    status: z.enum(["True", "False", "Unknown"]).describe("Whether the condition holds."),
    observedGeneration: z.number().int().min(0).optional().describe("metadata.generation the condition was set for."),
    lastTransitionTime: z.string().describe("RFC 3339 time of the last change of status."),
    reason: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
      .describe("CamelCase machine-readable reason."),
    message: z.string().max(32768).describe("Human-readable details."),
  })
  .describe("A Kubernetes condition.");

/** `status` of a kind that reports conditions beside its state: each condition type's meaning in `conditions`. */
export function reconcileStatusWithConditions(conditions: string, status: string) {
  return reconcileStatus
    .extend({ conditions: listMap(condition, "type").optional().describe(conditions) })
    .describe(`Observed state, written by the operator through the status subresource; ${status}`);
}
