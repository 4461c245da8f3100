/**
 * ConfigurationPlan → `/configuration-plans`: the spec with record ids instead of references
 * (serviceRef → serviceId; backendSecret.secretSourceRef, and the client secret's of
 * oauth2ClientCredentials, tokenExchange and oauth2AuthorizationCode, and backendTls's client certificate's and key's, → the
 * secretId of that SecretSource's key), waiting IN_PROGRESS until they exist. `apiKey: { secretName }` asks the control plane
 * for a key and writes it to that Secret (key `apiKey`, owned by the plan); when the Secret is
 * lost the key cannot be read back, so it is renewed and written again. The warnings of the
 * control plane's answer to a write are the `WriteWarnings` condition (write-warnings.ts).
 */
import type { PlanBody } from "@atrium/contract/rest";
import { ConfigurationPlan } from "@atrium/crds";
import { collections } from "../../control-plane/client.ts";
import { errors } from "../../errors.ts";
import type { AtriumObject, DataObject } from "../../kube/objects.ts";
import type { ReconcileContext } from "../context.ts";
import { describeMissing, resolveReferences } from "../dependencies.ts";
import { type KindReconciler, parseSpec } from "../kind-reconciler.ts";
import { deleteRecord, syncRecord } from "../record.ts";
import { secretRecordId } from "./secret-source.ts";
import { currentWriteWarnings, writeWarningsCondition } from "./write-warnings.ts";

const collection = collections.configurationPlans;
/** The key of the plan's Secret that holds the API key. */
export const API_KEY_SECRET_KEY = "apiKey";

async function backendSecretId(
  ctx: ReconcileContext,
  namespace: string,
  ref: { name: string; key: string },
): Promise<{ id?: string; missing?: string }> {
  const source = ctx.cache.get<AtriumObject>("SecretSource", namespace, ref.name);
  const description = `SecretSource ${ref.name} key ${ref.key}`;
  if (!source) return { missing: describeMissing("SecretSource", `${ref.name} key ${ref.key}`, undefined) };
  const reads = ((source.spec?.secretRefs ?? []) as { keys?: string[] }[]).some((secret) =>
    secret.keys?.includes(ref.key),
  );
  if (!reads) throw errors.invalidReference(`${description}: that SecretSource reads no key '${ref.key}'`);
  const id = await secretRecordId(ctx, namespace, source, ref.key);
  return id ? { id } : { missing: `${description} (not synced yet)` };
}

/** Makes sure the plan's Secret holds its current API key. */
async function ensureApiKeySecret(
  ctx: ReconcileContext,
  plan: AtriumObject,
  planId: string,
  secretName: string,
  freshKey: string | undefined,
): Promise<void> {
  if (freshKey) {
    await ctx.kube.writeOwnedSecret(plan, secretName, API_KEY_SECRET_KEY, freshKey);
    return;
  }
  const { namespace } = plan.metadata;
  if (ctx.cache.get<DataObject>("Secret", namespace, secretName)?.data?.[API_KEY_SECRET_KEY]) return;
  // The cache may not have seen our own write yet: renewing on its word would revoke a key just handed out.
  if ((await ctx.kube.readSecret(namespace, secretName))?.data?.[API_KEY_SECRET_KEY]) return;
  const renewed = await ctx.controlPlane.renewApiKey(planId);
  if (!renewed.apiKey) throw errors.invalidReference(`the control plane returned no API key for plan ${planId}`);
  await ctx.kube.writeOwnedSecret(plan, secretName, API_KEY_SECRET_KEY, renewed.apiKey);
}

export const configurationPlanReconciler: KindReconciler = {
  kind: "ConfigurationPlan",

  async sync(object, ctx) {
    const spec = parseSpec(ConfigurationPlan.spec, object);
    const { namespace, name } = object.metadata;
    const { serviceRef, apiKey, backendSecret, backendTls, ...settings } = spec;
    const { ids, missing } = resolveReferences(ctx.cache, namespace, [{ kind: "Service", name: serviceRef.name }]);
    const serviceId = ids[0];
    const secretRef =
      backendSecret?.secretSourceRef ??
      backendSecret?.oauth2ClientCredentials?.clientSecret.secretSourceRef ??
      backendSecret?.tokenExchange?.clientSecret.secretSourceRef ??
      backendSecret?.oauth2AuthorizationCode?.clientSecret?.secretSourceRef;
    let secretId: string | undefined;
    if (secretRef) {
      const resolved = await backendSecretId(ctx, namespace, secretRef);
      if (resolved.missing) missing.push(resolved.missing);
      secretId = resolved.id;
    }
    const tlsIds: Record<"clientCertificate" | "clientKey", string | undefined> = {
      clientCertificate: undefined,
      clientKey: undefined,
    };
    for (const field of ["clientCertificate", "clientKey"] as const) {
      const ref = backendTls?.[field]?.secretSourceRef;
      if (!ref) continue;
      const resolved = await backendSecretId(ctx, namespace, ref);
      if (resolved.missing) missing.push(resolved.missing);
      tlsIds[field] = resolved.id;
    }
    if (missing.length > 0 || serviceId === undefined) throw errors.waitingFor(missing);
    let planTls: PlanBody["backendTls"];
    if (backendTls) {
      const { clientCertificate, clientKey, ...rest } = backendTls;
      const material = (from: { file?: string } | undefined, id: string | undefined) =>
        from === undefined ? undefined : id ? { secretId: id } : { file: from.file };
      const certificate = material(clientCertificate, tlsIds.clientCertificate);
      const key = material(clientKey, tlsIds.clientKey);
      planTls = {
        ...rest,
        ...(certificate ? { clientCertificate: certificate } : {}),
        ...(key ? { clientKey: key } : {}),
      };
    }

    let planSecret: PlanBody["backendSecret"];
    if (backendSecret) {
      const {
        secretSourceRef: _ref,
        oauth2ClientCredentials: credentials,
        tokenExchange,
        oauth2AuthorizationCode: code,
        ...rest
      } = backendSecret;
      if (code) {
        const { clientSecret, ...settings } = code;
        const { secretSourceRef: _clientRef, ...fromEnv } = clientSecret ?? {};
        planSecret = {
          ...rest,
          oauth2AuthorizationCode: {
            ...settings,
            ...(clientSecret ? { clientSecret: { ...fromEnv, ...(secretId ? { secretId } : {}) } } : {}),
          },
        };
      } else if (tokenExchange) {
        const { secretSourceRef: _clientRef, ...clientSecret } = tokenExchange.clientSecret;
        planSecret = {
          ...rest,
          tokenExchange: { ...tokenExchange, clientSecret: { ...clientSecret, ...(secretId ? { secretId } : {}) } },
        };
      } else if (credentials) {
        const { secretSourceRef: _clientRef, ...clientSecret } = credentials.clientSecret;
        planSecret = {
          ...rest,
          oauth2ClientCredentials: {
            ...credentials,
            clientSecret: { ...clientSecret, ...(secretId ? { secretId } : {}) },
          },
        };
      } else planSecret = { ...rest, ...(secretId ? { secretId } : {}) };
    }
    const body = {
      name,
      serviceId,
      ...settings,
      apiKey: apiKey !== undefined,
      ...(planSecret ? { backendSecret: planSecret } : {}),
      ...(planTls ? { backendTls: planTls } : {}),
    };
    const { id, written, remembered } = await syncRecord(ctx, object, {
      collection,
      body,
      // Only a write's answer carries warnings: a record read back after a restart has none to tell.
      remember: (record, wasWritten) => (wasWritten ? (record.warnings ?? []) : undefined),
      matches: (record) =>
        record.serviceId === serviceId &&
        record.backendEndpoint === spec.backendEndpoint &&
        record.hasApiKey === body.apiKey &&
        (record.backendSecret?.secretId ??
          record.backendSecret?.oauth2ClientCredentials?.clientSecret.secretId ??
          record.backendSecret?.tokenExchange?.clientSecret.secretId ??
          record.backendSecret?.oauth2AuthorizationCode?.clientSecret?.secretId) === secretId &&
        record.backendTls?.clientCertificate?.secretId === tlsIds.clientCertificate &&
        record.backendTls?.clientKey?.secretId === tlsIds.clientKey,
    });
    if (apiKey) {
      await ensureApiKeySecret(ctx, object, id, apiKey.secretName, written?.apiKey);
    }
    const condition = remembered ? writeWarningsCondition(object, remembered) : currentWriteWarnings(object);
    return { id, ...(condition ? { conditions: [condition] } : {}) };
  },

  async remove(object, ctx) {
    await deleteRecord(ctx, object, { collection });
    // No garbage collector may run (or it may run late): the key is useless without its plan.
    const secretName = (object.spec?.apiKey as { secretName?: unknown } | undefined)?.secretName;
    if (typeof secretName === "string") await ctx.kube.deleteOwnedSecret(object, secretName);
  },
};
