/**
 * `validateResource`: the whole verdict on one atrium.dev custom resource — its kind's Zod schema
 * (the same one the CRD is generated from) plus the rules in rules.ts — as one message listing
 * every violation with its Kubernetes field path.
 */
import { GROUP_VERSION, kindNamed, kinds } from "@atrium/crds";
import type { z } from "zod";
import { checkRules } from "./rules.ts";
import { describeViolations, fieldPath, type Violation } from "./violations.ts";

export type Verdict =
  | { allowed: true; warnings?: string[] }
  | { allowed: false; message: string; fields: string[]; violations: Violation[] };

/** Kubernetes' wording for a missing field, instead of Zod's "expected string, received undefined". */
const errorMap: z.core.$ZodErrorMap = (issue) => (issue.input === undefined ? "Required value" : undefined);

function zodViolations(issues: readonly z.core.$ZodIssue[]): Violation[] {
  return issues.map((issue) => {
    if (issue.code === "invalid_key") {
      // A map key is wrong: the useful message is the key schema's, not "Invalid key in record".
      return { field: fieldPath(issue.path, true), message: issue.issues.map((inner) => inner.message).join(", ") };
    }
    return { field: fieldPath(issue.path), message: issue.message };
  });
}

function refuse(violations: Violation[]): Verdict {
  return {
    allowed: false,
    message: describeViolations(violations),
    fields: [...new Set(violations.map((v) => v.field))],
    violations,
  };
}

function unsupportedKind(kind: unknown, apiVersion: unknown): Verdict {
  const name = typeof kind === "string" ? kind : JSON.stringify(kind ?? null);
  const known = kinds.map((k) => k.kind);
  // `Resource` (singular) belonged to early controllers; the kind is `Resources` now.
  const meant = known.find(
    (k) => k.toLowerCase() === name.toLowerCase() || k.toLowerCase() === `${name}s`.toLowerCase(),
  );
  let hint: string;
  if (meant && meant !== name) hint = `use kind ${meant}`;
  else if (meant) hint = `use apiVersion ${GROUP_VERSION}, not ${JSON.stringify(apiVersion ?? null)}`;
  else hint = `kinds: ${known.join(", ")}`;
  const message = `Unsupported artifact kind and version: ${name} (${hint})`;
  return { allowed: false, message, fields: ["kind"], violations: [{ field: "kind", message }] };
}

/** Validates a whole custom resource (apiVersion, kind, metadata, spec, status). */
export function validateResource(object: unknown): Verdict {
  const {
    apiVersion,
    kind: kindName,
    spec,
  } = (object ?? {}) as { apiVersion?: unknown; kind?: unknown; spec?: unknown };
  const kind = typeof kindName === "string" ? kindNamed(kindName) : undefined;
  if (!kind || apiVersion !== GROUP_VERSION) return unsupportedKind(kindName, apiVersion);

  const parsed = kind.resource.safeParse(object, { error: errorMap });
  const fromSchema = parsed.success ? [] : zodViolations(parsed.error.issues);
  const rules = checkRules(kind.kind, spec);
  // Where both report the same field, the rule's message is the more precise one.
  const ruled = new Set(rules.violations.map((v) => v.field));
  const violations = [...fromSchema.filter((v) => !ruled.has(v.field)), ...rules.violations];
  if (violations.length > 0) return refuse(violations);
  return rules.warnings.length > 0 ? { allowed: true, warnings: rules.warnings } : { allowed: true };
}
