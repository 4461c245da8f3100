/**
 * Who references whom. A resource names its dependencies (other Atrium resources, Secrets,
 * ConfigMaps) in its spec, always in its own namespace. The graph serves two ends: resolving a
 * reference to the control-plane id of the record behind it (or waiting for it), and finding
 * the resources to reconcile again when a referenced object changes.
 */
import type { AtriumKind } from "@atrium/crds";
import type { InformerSet } from "../kube/informers.ts";
import { type AtriumObject, objectKey, type WatchedKind } from "../kube/objects.ts";

export interface Reference {
  kind: WatchedKind;
  name: string;
}

function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!current || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function named(kind: WatchedKind, value: unknown): Reference[] {
  return typeof value === "string" && value ? [{ kind, name: value }] : [];
}

/** The objects a resource's spec references (read leniently: the spec may not be valid). */
export function referencesOf(kind: AtriumKind, spec: unknown): Reference[] {
  switch (kind) {
    case "Service":
      return named("ConfigMap", field(spec, "openapi", "configMapRef", "name"));
    case "SecretSource": {
      const refs = field(spec, "secretRefs");
      return Array.isArray(refs) ? refs.flatMap((ref) => named("Secret", field(ref, "name"))) : [];
    }
    case "ConfigurationPlan":
      return [
        ...named("Service", field(spec, "serviceRef", "name")),
        ...named("SecretSource", field(spec, "backendSecret", "secretSourceRef", "name")),
        ...named(
          "SecretSource",
          field(spec, "backendSecret", "oauth2ClientCredentials", "clientSecret", "secretSourceRef", "name"),
        ),
        ...named(
          "SecretSource",
          field(spec, "backendSecret", "tokenExchange", "clientSecret", "secretSourceRef", "name"),
        ),
        ...named(
          "SecretSource",
          field(spec, "backendSecret", "oauth2AuthorizationCode", "clientSecret", "secretSourceRef", "name"),
        ),
        ...named("SecretSource", field(spec, "backendTls", "clientCertificate", "secretSourceRef", "name")),
        ...named("SecretSource", field(spec, "backendTls", "clientKey", "secretSourceRef", "name")),
        ...named("Secret", field(spec, "apiKey", "secretName")),
      ];
    case "Exposition":
      return [
        ...named("ConfigurationPlan", field(spec, "configurationPlanRef", "name")),
        ...named("GatewayGroup", field(spec, "gatewayGroupRef", "name")),
      ];
    case "CustomTools":
    case "Resources":
    case "Prompts":
      return named("Service", field(spec, "serviceRef", "name"));
    case "GatewayGroup":
      return [];
  }
}

/** The kinds whose specs may reference a `kind`. */
const DEPENDENT_KINDS: Record<WatchedKind, AtriumKind[]> = {
  Service: ["ConfigurationPlan", "CustomTools", "Resources", "Prompts"],
  SecretSource: ["ConfigurationPlan"],
  ConfigurationPlan: ["Exposition"],
  GatewayGroup: ["Exposition"],
  Exposition: [],
  CustomTools: [],
  Resources: [],
  Prompts: [],
  Secret: ["SecretSource", "ConfigurationPlan"],
  ConfigMap: ["Service"],
};

/** Work-queue keys of the resources that reference `kind` `namespace/name`. */
export function dependentKeys(cache: InformerSet, kind: WatchedKind, namespace: string, name: string): string[] {
  const keys: string[] = [];
  for (const dependentKind of DEPENDENT_KINDS[kind]) {
    for (const object of cache.list<AtriumObject>(dependentKind, namespace)) {
      if (referencesOf(dependentKind, object.spec).some((ref) => ref.kind === kind && ref.name === name)) {
        keys.push(objectKey(dependentKind, namespace, object.metadata.name));
      }
    }
  }
  return keys;
}

/** The state a resource reports, for kinds with `status.status` and those with `status.state`. */
export function stateOf(object: AtriumObject | undefined): string | undefined {
  const state = object?.status?.status ?? object?.status?.state;
  return typeof state === "string" ? state : undefined;
}

/** `status.id` of a resource: the id of its record in the control plane. */
export function recordIdOf(object: AtriumObject | undefined): string | undefined {
  const id = object?.status?.id;
  return typeof id === "string" && id ? id : undefined;
}

/**
 * The record ids behind references to other Atrium resources. A reference resolves once the
 * referenced resource has reconciled its record (it has a `status.id`); until then the caller
 * waits, with the names of what is missing (thrown as DEPENDENCY_PENDING by the caller).
 */
export function resolveReferences(
  cache: InformerSet,
  namespace: string,
  references: { kind: AtriumKind; name: string }[],
): { ids: (string | undefined)[]; missing: string[] } {
  const missing: string[] = [];
  const ids = references.map(({ kind, name }) => {
    const object = cache.get<AtriumObject>(kind, namespace, name);
    const id = recordIdOf(object);
    if (!id) missing.push(describeMissing(kind, name, object));
    return id;
  });
  return { ids, missing };
}

export function describeMissing(kind: string, name: string, object: AtriumObject | undefined): string {
  if (!object) return `${kind} ${name} (not found)`;
  return `${kind} ${name} (${stateOf(object) ?? "not reconciled yet"})`;
}
