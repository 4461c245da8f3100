/**
 * Rules across the fields of one object, declared once beside the shape they belong to and
 * enforced everywhere that shape is parsed: by Zod (webhook, REST API, CLI, operator) and, when
 * the rule has CEL, by the API server through the CRD's `x-kubernetes-validations`, with the same
 * message and field path.
 *
 * A rule without CEL says why (`whyNotCel`): on a cluster it is enforced by the webhook (and by
 * the operator, which parses every spec before reconciling it).
 */
import type { z } from "zod";

type Json = Record<string, unknown>;

/** A rule the API server checks too: `cel` is written for the custom resource's shape of the object. */
export interface CelRule {
  message: string;
  /** Where the violation is reported, relative to the object; empty for the object itself. */
  path: readonly string[];
  cel: string;
  holds: (value: Json) => boolean;
}

/** A rule only Zod checks: reports each violation with its own path and message. */
export interface ZodOnlyRule {
  /** Why CEL cannot say it (for readers of the rule and of docs/upgrades.md). */
  whyNotCel: string;
  violations: (value: Json) => { path: readonly PropertyKey[]; message: string }[];
}

export type ObjectRule = CelRule | ZodOnlyRule;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Adds rules to an object schema; apply it last, since Zod cannot extend or pick from a refined
 * object. The rules run even when a field already failed, so one answer lists every problem:
 * they read the object defensively.
 */
export function withRules<T extends z.ZodType>(schema: T, rules: readonly ObjectRule[]): T {
  const refined = schema.superRefine(
    (value, ctx) => {
      const object = value as Json;
      for (const rule of rules) {
        const found =
          "cel" in rule
            ? rule.holds(object)
              ? []
              : [{ path: rule.path, message: rule.message }]
            : rule.violations(object);
        for (const { path, message } of found) ctx.addIssue({ code: "custom", path: [...path], message });
      }
    },
    // Beside the fields' own issues too, not only once they all passed; never on a non-object.
    { when: (payload) => isObject(payload.value) },
  );
  const cel = rules.filter((rule): rule is CelRule => "cel" in rule);
  if (cel.length === 0) return refined as unknown as T;
  return refined.meta({
    "x-kubernetes-validations": cel.map(({ cel: rule, message, path }) => ({
      rule,
      message,
      ...(path.length > 0 ? { fieldPath: `.${path.join(".")}` } : {}),
    })),
  }) as unknown as T;
}

/**
 * Makes exactly one of `keys` required on an object: checked by Zod and, through CEL, by the
 * API server, with the same message. `more` rules of the object go with it (a second withRules
 * would replace its CEL).
 */
export function exactlyOneOf<T extends z.ZodObject>(
  schema: T,
  keys: readonly (keyof T["shape"] & string)[],
  more: readonly ObjectRule[] = [],
): T {
  return withRules(schema, [
    {
      message: `exactly one of ${keys.join(", ")} must be set`,
      path: [],
      cel: `[${keys.map((k) => `has(self.${k})`).join(", ")}].filter(x, x).size() == 1`,
      holds: (value) => keys.filter((k) => value[k] !== undefined).length === 1,
    },
    ...more,
  ]);
}
