/**
 * Building blocks shared by the kinds: references, syntax rules and the two status shapes.
 *
 * Rules that must hold in Zod (control plane, webhook, CLI) and in the API server alike are
 * declared once here: a Zod check plus, where the schema language cannot say it, the same rule
 * as a CEL `x-kubernetes-validations` entry in the schema's metadata.
 */
import { z } from "zod";

/** A Kubernetes object name (RFC 1123 subdomain), as carried by `metadata.name`. */
export const objectName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, {
    message: "must be lowercase letters, digits, '-' or '.', starting and ending with a letter or digit",
  });

/** A reference, by name, to another Atrium resource in the same namespace. */
export function objectRef(kind: string) {
  return z
    .object({ name: objectName.describe(`Name of the ${kind} in the same namespace.`) })
    .describe(`Reference to a ${kind} in the same namespace.`);
}

/** An http(s) URL; the API server checks the scheme, the webhook the full syntax. */
export const httpUrl = z
  .string()
  .max(2048)
  .regex(/^https?:\/\/[^\s/?#]+[^\s]*$/, { message: "must be an absolute http:// or https:// URL" });

/** `${env:VARIABLE}`: a value the gateway reads from its own environment at start-up. */
export const envReference = z
  .string()
  .regex(/^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/, { message: "must look like ${env:VARIABLE_NAME}" });

const labelKeyPattern =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValuePattern = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;

/** A Kubernetes label key: optional DNS-subdomain prefix and '/', then a name of up to 63 characters. */
export const labelKey = z
  .string()
  .max(317)
  .regex(labelKeyPattern, { message: "must be a label key like 'tier' or 'atrium.dev/zone'" });
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

/**
 * Makes exactly one of `keys` required on an object: checked by Zod and, through CEL, by the
 * API server, with the same message.
 */
export function exactlyOneOf<T extends z.ZodObject>(schema: T, keys: readonly (keyof T["shape"] & string)[]) {
  const message = `exactly one of ${keys.join(", ")} must be set`;
  const rule = `[${keys.map((k) => `has(self.${k})`).join(", ")}].filter(x, x).size() == 1`;
  return schema
    .refine((value) => keys.filter((k) => (value as Record<string, unknown>)[k] !== undefined).length === 1, {
      message,
    })
    .meta({ "x-kubernetes-validations": [{ rule, message }] });
}

/**
 * A rule across several fields of one object: checked by Zod (`holds`) and, through CEL, by the
 * API server, with the same message. `cel` is written for the custom resource's shape.
 */
export interface CrossFieldRule {
  message: string;
  /** Where Zod reports a violation. */
  path: string[];
  cel: string;
  holds: (value: Record<string, unknown>) => boolean;
}

/** Adds cross-field rules to an object schema; apply it last, since Zod cannot extend a refined object. */
export function withRules<T extends z.ZodType>(schema: T, rules: readonly CrossFieldRule[]) {
  let refined: z.ZodType = schema;
  for (const rule of rules) {
    refined = refined.refine((value) => rule.holds(value as Record<string, unknown>), {
      message: rule.message,
      path: rule.path,
    });
  }
  return refined.meta({
    "x-kubernetes-validations": rules.map(({ cel, message, path }) => ({
      rule: cel,
      message,
      fieldPath: `.${path.join(".")}`,
    })),
  }) as unknown as T;
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

/** `status` of the five reconciled kinds, as the functional specification lists it. */
export const reconcileStatus = z
  .object({
    status: reconcileState,
    observedGeneration: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("metadata.generation of the spec that was last reconciled."),
    message: z.string().optional().describe("Why the resource is IN_PROGRESS or ERROR."),
    id: controlPlaneId.optional(),
  })
  .describe("Observed state, written by the operator through the status subresource.");

/** `status` of CustomTools, Resources and Prompts: `state` rather than `status`. */
export const artifactStatus = z
  .object({
    state: reconcileState,
    message: z.string().optional().describe("Why the resource is IN_PROGRESS or ERROR."),
    id: controlPlaneId.optional(),
  })
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
      .describe("Condition type; for SecretSource `secret.atrium.dev/<secret name>`, one per referenced Secret."),
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
