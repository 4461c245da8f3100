/**
 * The rules a CRD schema cannot express (or expresses only in part), checked on top of the kinds'
 * Zod schemas. They read the raw object defensively, so they also run when the schema already
 * failed and a refusal lists every problem at once.
 *
 * On purpose there is no rule about other resources: references may name resources that do not
 * exist yet, since manifests are applied in any order and the operator waits for dependencies.
 */
import type { AtriumKind } from "@atrium/crds";
import { fieldPath, type Violation } from "./violations.ts";

export interface Findings {
  violations: Violation[];
  warnings: string[];
}

type Json = Record<string, unknown>;
type Rule = (spec: Json, findings: Findings) => void;

function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asStrings(value: unknown): string[] {
  return asArray(value).filter((item): item is string => typeof item === "string");
}

// --- URLs -----------------------------------------------------------------------------------------

/**
 * Why `value` is not an acceptable http(s) URL, or undefined when it is. The CRD pattern only
 * checks the scheme; this parses the URL as the gateway and control plane will (WHATWG `URL`).
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

function checkUrl(value: unknown, path: readonly PropertyKey[], findings: Findings): void {
  if (typeof value !== "string") return;
  const problem = urlProblem(value);
  if (problem) findings.violations.push({ field: fieldPath(path), message: problem });
}

const serviceUrl: Rule = (spec, findings) => {
  checkUrl(asObject(spec.openapi)?.url, ["spec", "openapi", "url"], findings);
};

const planUrls: Rule = (spec, findings) => {
  checkUrl(spec.backendEndpoint, ["spec", "backendEndpoint"], findings);
  const oauth = asObject(spec.oauth);
  for (const field of ["issuer", "jwksUri", "resource"] as const) {
    checkUrl(oauth?.[field], ["spec", "oauth", field], findings);
  }
};

// --- ConfigurationPlan ------------------------------------------------------------------------

const operationsOverlap: Rule = (spec, findings) => {
  if (spec.includedOperations === undefined || spec.excludedOperations === undefined) return;
  const included = new Set(asStrings(spec.includedOperations));
  const both = asStrings(spec.excludedOperations).filter((id) => included.has(id));
  if (both.length > 0) {
    findings.violations.push({
      field: "spec.excludedOperations",
      message: `must not name operations also in spec.includedOperations: ${both.join(", ")}`,
    });
  } else if (included.size > 0 && asStrings(spec.excludedOperations).length > 0) {
    findings.warnings.push(
      "spec.excludedOperations has no effect: with spec.includedOperations set, only those are exposed",
    );
  }
};

const elicitNeedsOAuth: Rule = (spec, findings) => {
  if (asObject(spec.backendSecret)?.elicit !== undefined && spec.oauth === undefined) {
    findings.violations.push({
      field: "spec.backendSecret.elicit",
      message: "needs an OAuth-protected plan (set spec.oauth): each user's credential is tied to their token",
    });
  }
};

// --- GatewayGroup -----------------------------------------------------------------------------

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
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

const labelKeys: Rule = (spec, findings) => {
  for (const key of Object.keys(asObject(spec.labels) ?? {})) {
    const problem = labelKeyProblem(key);
    if (problem) findings.violations.push({ field: fieldPath(["spec", "labels", key], true), message: problem });
  }
  asArray(spec.matchExpressions).forEach((expression, index) => {
    const key = asObject(expression)?.key;
    const problem = typeof key === "string" ? labelKeyProblem(key) : undefined;
    if (problem) findings.violations.push({ field: `spec.matchExpressions[${index}].key`, message: problem });
  });
};

/** As in Kubernetes label selectors: In / NotIn need values, Exists / DoesNotExist take none. */
const selectorValues: Rule = (spec, findings) => {
  asArray(spec.matchExpressions).forEach((item, index) => {
    const expression = asObject(item);
    const count = asArray(expression?.values).length;
    const operator = expression?.operator;
    const field = `spec.matchExpressions[${index}].values`;
    if ((operator === "In" || operator === "NotIn") && count === 0) {
      findings.violations.push({ field, message: `must be non-empty when operator is ${operator}` });
    } else if ((operator === "Exists" || operator === "DoesNotExist") && count > 0) {
      findings.violations.push({ field, message: `must be empty when operator is ${operator}` });
    }
  });
};

// --- SecretSource -----------------------------------------------------------------------------

/** A key identifies one value (ConfigurationPlan backendSecret.secretSourceRef.key), so two Secrets cannot share it. */
const keysReadOnce: Rule = (spec, findings) => {
  const readFrom = new Map<string, { index: number; secret: unknown }>();
  asArray(spec.secretRefs).forEach((item, index) => {
    const ref = asObject(item);
    asStrings(ref?.keys).forEach((key, keyIndex) => {
      const first = readFrom.get(key);
      if (first === undefined) {
        readFrom.set(key, { index, secret: ref?.name });
      } else if (first.index !== index) {
        findings.violations.push({
          field: `spec.secretRefs[${index}].keys[${keyIndex}]`,
          message:
            `key ${JSON.stringify(key)} is already read from Secret ${JSON.stringify(first.secret)} ` +
            `(spec.secretRefs[${first.index}]): a key names one value of the SecretSource`,
        });
      }
    });
  });
};

// --- CustomTools ------------------------------------------------------------------------------

/** MCP tool arguments are a JSON object; the gateway forces `type: object`, so another type would be ignored. */
const toolInputSchemas: Rule = (spec, findings) => {
  asArray(spec.tools).forEach((tool, index) => {
    const schema = asObject(asObject(tool)?.inputSchema);
    if (schema && schema.type !== undefined && schema.type !== "object") {
      findings.violations.push({
        field: `spec.tools[${index}].inputSchema.type`,
        message: 'must be "object": MCP tool arguments are a JSON object',
      });
    }
  });
};

const rulesByKind: Record<AtriumKind, Rule[]> = {
  Service: [serviceUrl],
  GatewayGroup: [labelKeys, selectorValues],
  SecretSource: [keysReadOnce],
  ConfigurationPlan: [planUrls, operationsOverlap, elicitNeedsOAuth],
  Exposition: [],
  CustomTools: [toolInputSchemas],
  Resources: [],
  Prompts: [],
};

/** Applies `kind`'s rules to `spec` (whatever its shape). */
export function checkRules(kind: AtriumKind, spec: unknown): Findings {
  const findings: Findings = { violations: [], warnings: [] };
  const object = asObject(spec);
  if (object) for (const rule of rulesByKind[kind]) rule(object, findings);
  return findings;
}
