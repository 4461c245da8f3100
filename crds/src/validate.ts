/**
 * `validateResource`: the whole verdict on one atrium.dev custom resource — its kind's Zod schema
 * with the rules declared beside it (the same one the CRD is generated from) — as one message
 * listing every violation with its Kubernetes field path. The webhook and the CLI's `validate`
 * answer with it; the REST API parses the same schemas and words its errors with `issueMessage`.
 */
import type { z } from "zod";
import { GROUP_VERSION } from "./group.ts";
import { configurationPlanWarnings } from "./kinds/configuration-plan.ts";
import { kindNamed, kinds } from "./kinds.ts";
import { describeViolations, fieldPath, type Violation } from "./violations.ts";

export type Verdict =
  | { allowed: true; warnings?: string[] }
  | { allowed: false; message: string; fields: string[]; violations: Violation[] };

/** Kubernetes' wording for a missing field, instead of Zod's "expected string, received undefined". */
export const kubernetesWording: z.core.$ZodErrorMap = (issue) =>
  issue.input === undefined ? "Required value" : undefined;

/** An issue's message; for a wrong map key, the key schema's own message, not "Invalid key in record". */
export function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_key") return issue.issues.map((inner) => inner.message).join(", ");
  return issue.message;
}

function zodViolations(issues: readonly z.core.$ZodIssue[]): Violation[] {
  return issues.map((issue) => ({
    field: fieldPath(issue.path, issue.code === "invalid_key"),
    message: issueMessage(issue),
  }));
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

function warningsOf(kind: string, spec: unknown): string[] {
  if (kind !== "ConfigurationPlan" || spec === null || typeof spec !== "object") return [];
  return configurationPlanWarnings(spec as Record<string, unknown>, "spec.");
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

  const parsed = kind.resource.safeParse(object, { error: kubernetesWording });
  if (!parsed.success) return refuse(zodViolations(parsed.error.issues));
  const warnings = warningsOf(kind.kind, spec);
  return warnings.length > 0 ? { allowed: true, warnings } : { allowed: true };
}
