/**
 * Compiles Expositions from the records they are made of, in one round of queries for any
 * number of them: the snapshot and every delta use the same compiler. Each Exposition is
 * compiled on its own: one that cannot be (its backend secret does not decrypt, or is gone) is
 * left out — gateways then drop it, never receiving an empty secret — and the others are sent.
 */

import { type CompiledExposition, type PlanSettings, storedPlanSettings } from "@atrium/contract";
import type { GatewayGroupSelector } from "@atrium/crds";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import {
  configurationPlans,
  expositions,
  gatewayGroups,
  organizations,
  secrets,
  serviceArtifacts,
  services,
} from "../db/schema.ts";
import { operationsAtDepth, SelectionDepthRefused } from "../graphql/plan-depth.ts";
import type { SecretCipher } from "../secrets/cipher.ts";
import { secretContext } from "../secrets/stored.ts";

export interface CompiledEntry {
  exposition: CompiledExposition;
  selector: GatewayGroupSelector;
  /** JSON of the exposition: streams send an upsert only when it changed, and send it as it is. */
  json: string;
}

/** Told about an Exposition left out, and why (never with a secret). */
export type SkippedExposition = (expositionId: string, reason: string) => void;

/** The Expositions of an organization (all, or those with the given ids that still exist). */
export async function compileExpositions(
  db: Db,
  cipher: SecretCipher,
  organizationId: string,
  ids?: string[],
  onSkipped: SkippedExposition = () => undefined,
): Promise<Map<string, CompiledEntry>> {
  const compiled = new Map<string, CompiledEntry>();
  if (ids?.length === 0) return compiled;
  const rows = await db
    .select({
      exposition: expositions,
      plan: configurationPlans,
      service: services,
      group: gatewayGroups,
      org: organizations,
    })
    .from(expositions)
    .innerJoin(configurationPlans, eq(configurationPlans.id, expositions.configurationPlanId))
    .innerJoin(services, eq(services.id, configurationPlans.serviceId))
    .innerJoin(gatewayGroups, eq(gatewayGroups.id, expositions.gatewayGroupId))
    .innerJoin(organizations, eq(organizations.id, expositions.organizationId))
    .where(and(eq(expositions.organizationId, organizationId), ids ? inArray(expositions.id, ids) : undefined));
  if (rows.length === 0) return compiled;

  const serviceIds = [...new Set(rows.map((row) => row.service.id))];
  const artifacts = await db.select().from(serviceArtifacts).where(inArray(serviceArtifacts.serviceId, serviceIds));
  const secretIds = rows.flatMap((row) => planSecretIds(row.plan.settings));
  const secretRows = secretIds.length ? await db.select().from(secrets).where(inArray(secrets.id, secretIds)) : [];
  const secretValues = new Map<string, string>();
  const secretProblems = new Map<string, string>();
  for (const row of secretRows) {
    try {
      secretValues.set(row.id, cipher.decrypt(row.encryptedValue, secretContext(row.id)));
    } catch (error) {
      secretProblems.set(row.id, `its backend secret ${row.id} cannot be decrypted (${(error as Error).message})`);
    }
  }

  for (const { exposition, plan, service, group, org } of rows) {
    const settings = storedPlanSettings(plan.settings);
    const missing = planSecretIds(settings).find((id) => !secretValues.has(id));
    if (missing) {
      onSkipped(exposition.id, secretProblems.get(missing) ?? `its backend secret ${missing} no longer exists`);
      continue;
    }
    const ofService = (kind: (typeof artifacts)[number]["kind"]) =>
      artifacts.filter((a) => a.serviceId === service.id && a.kind === kind).map((a) => a.spec);
    const included = settings.includedOperations ? new Set(settings.includedOperations) : undefined;
    const excluded = new Set(settings.excludedOperations ?? []);
    const chosen = service.operations.filter(
      (op) => (!included || included.has(op.operationId)) && !excluded.has(op.operationId),
    );
    let operations: typeof chosen;
    try {
      operations = operationsAtDepth(service, chosen, settings.graphql?.selectionDepth);
    } catch (error) {
      if (!(error instanceof SelectionDepthRefused)) throw error;
      onSkipped(exposition.id, error.message); // the plan was accepted: the Service changed since
      continue;
    }
    const { backendSecret, backendTls, ...planRest } = settings;
    const compiledExposition: CompiledExposition = {
      id: exposition.id,
      name: exposition.name,
      organization: { id: org.id, name: org.name },
      gatewayGroupId: group.id,
      plan: {
        ...planRest,
        id: plan.id,
        name: plan.name,
        backendEndpoint: plan.backendEndpoint,
        apiKeyHash: plan.apiKeyHash,
        ...(backendSecret ? { backendSecret: resolveBackendSecret(backendSecret, secretValues) } : {}),
        ...(backendTls ? { backendTls: resolveBackendTls(backendTls, secretValues) } : {}),
      },
      service: {
        id: service.id,
        name: service.name,
        version: service.version,
        kind: service.document.kind ?? "openapi",
        operations,
      },
      customTools: ofService("CustomTools").flatMap((spec) => spec.tools ?? []),
      resources: ofService("Resources").flatMap((spec) => spec.resources ?? []),
      resourceTemplates: ofService("Resources").flatMap((spec) => spec.resourceTemplates ?? []),
      prompts: ofService("Prompts").flatMap((spec) => spec.prompts ?? []),
    };
    compiled.set(exposition.id, {
      exposition: compiledExposition,
      selector: {
        labels: group.labels,
        matchExpressions: group.matchExpressions,
      },
      json: JSON.stringify(compiledExposition),
    });
  }
  return compiled;
}

/** The stored secrets a plan's backend secret names: its own, or its OAuth client's secret. */
export function storedSecretIds(secret: PlanSettings["backendSecret"]): string[] {
  const id =
    secret?.secretId ??
    secret?.oauth2ClientCredentials?.clientSecret.secretId ??
    secret?.tokenExchange?.clientSecret.secretId ??
    secret?.oauth2AuthorizationCode?.clientSecret?.secretId;
  return id ? [id] : [];
}

/** The stored secrets a plan names: its backend secret's and its TLS client certificate's and key's. */
export function planSecretIds(settings: Pick<PlanSettings, "backendSecret" | "backendTls">): string[] {
  const tls = settings.backendTls;
  return [
    ...storedSecretIds(settings.backendSecret),
    ...[tls?.clientCertificate?.secretId, tls?.clientKey?.secretId].filter((id): id is string => id !== undefined),
  ];
}

function storedValue(id: string, values: Map<string, string>): string {
  const value = values.get(id);
  if (value === undefined) throw new Error("unreachable: checked by the caller");
  return value;
}

function resolveBackendSecret(
  secret: NonNullable<PlanSettings["backendSecret"]>,
  values: Map<string, string>,
): NonNullable<CompiledExposition["plan"]["backendSecret"]> {
  const placement = {
    in: secret.in,
    name: secret.name,
    ...(secret.prefix !== undefined ? { prefix: secret.prefix } : {}),
  };
  if (secret.secretId) {
    return { source: "value", value: storedValue(secret.secretId, values), secretId: secret.secretId, ...placement };
  }
  if (secret.env) return { source: "env", variable: envVariable(secret.env), ...placement };
  const clientSecretOf = ({ secretId, env }: { secretId?: string; env?: string }) =>
    secretId
      ? { source: "value" as const, value: storedValue(secretId, values) }
      : { source: "env" as const, variable: envVariable(env ?? "") };
  const credentials = secret.oauth2ClientCredentials;
  if (credentials) {
    const clientSecret = clientSecretOf(credentials.clientSecret);
    return { source: "oauth2ClientCredentials", clientCredentials: { ...credentials, clientSecret }, ...placement };
  }
  const exchange = secret.tokenExchange;
  if (exchange) {
    const clientSecret = clientSecretOf(exchange.clientSecret);
    return { source: "tokenExchange", tokenExchange: { ...exchange, clientSecret }, ...placement };
  }
  const code = secret.oauth2AuthorizationCode;
  if (code) {
    const { clientSecret, ...settings } = code;
    // Each user's own token, always as a bearer (the schema refuses another placement).
    return {
      source: "oauth2AuthorizationCode",
      authorizationCode: { ...settings, ...(clientSecret ? { clientSecret: clientSecretOf(clientSecret) } : {}) },
      in: "header",
      name: "Authorization",
      prefix: "Bearer ",
    };
  }
  const signIn = secret.elicit?.signIn;
  return {
    source: "elicit",
    description: secret.elicit?.description ?? "",
    ...(signIn ? { signIn } : {}),
    ...placement,
  };
}

function resolveBackendTls(
  tls: NonNullable<PlanSettings["backendTls"]>,
  values: Map<string, string>,
): NonNullable<CompiledExposition["plan"]["backendTls"]> {
  const pem = (material: { secretId?: string; file?: string } | undefined) =>
    material?.secretId
      ? { source: "value" as const, value: storedValue(material.secretId, values) }
      : material?.file
        ? { source: "file" as const, path: material.file }
        : undefined;
  const { clientCertificate, clientKey, ...rest } = tls;
  const certificate = pem(clientCertificate);
  const key = pem(clientKey);
  return { ...rest, ...(certificate ? { clientCertificate: certificate } : {}), ...(key ? { clientKey: key } : {}) };
}

/** `${env:NAME}` → `NAME`. */
function envVariable(reference: string): string {
  return reference.slice("${env:".length, -1);
}
