/**
 * One reconcile of one key, for every kind: read the resource from the cache; if it is being
 * deleted, delete its record (unless keepOnDelete) and release the finalizer; otherwise make
 * sure the finalizer is on, let the kind sync the control plane, and report the outcome in the
 * status (READY, IN_PROGRESS while waiting for a dependency, ERROR with the message). The
 * caller (the work queue's worker) retries with backoff whatever is not READY.
 */
import type { AtriumKind } from "@atrium/crds";
import { OperatorError } from "../errors.ts";
import { type AtriumObject, hasFinalizer, parseKey } from "../kube/objects.ts";
import type { ReconcileResult } from "../metrics.ts";
import type { ReconcileContext } from "./context.ts";
import { recordIdOf, stateOf } from "./dependencies.ts";
import type { KindReconciler } from "./kind-reconciler.ts";
import { customToolsReconciler, promptsReconciler, resourcesReconciler } from "./kinds/artifacts.ts";
import { configurationPlanReconciler } from "./kinds/configuration-plan.ts";
import { expositionReconciler } from "./kinds/exposition.ts";
import { gatewayGroupReconciler } from "./kinds/gateway-group.ts";
import { secretSourceReconciler } from "./kinds/secret-source.ts";
import { serviceReconciler } from "./kinds/service.ts";
import { type Outcome, sameStatus, statusFor } from "./status.ts";

export const reconcilers: Record<AtriumKind, KindReconciler> = {
  Service: serviceReconciler,
  GatewayGroup: gatewayGroupReconciler,
  SecretSource: secretSourceReconciler,
  ConfigurationPlan: configurationPlanReconciler,
  Exposition: expositionReconciler,
  CustomTools: customToolsReconciler,
  Resources: resourcesReconciler,
  Prompts: promptsReconciler,
};

export interface ReconcileReport {
  kind: AtriumKind;
  result: ReconcileResult;
  /** Queue the key again with backoff. */
  retry: boolean;
  /** Why the resource is not applied (result `error`): the OperatorError's code (errors.ts). */
  code?: string;
}

export async function reconcile(ctx: ReconcileContext, key: string): Promise<ReconcileReport> {
  const { kind, namespace, name } = parseKey(key);
  const cached = ctx.cache.get<AtriumObject>(kind, namespace, name);
  if (!cached) {
    forget(ctx, key);
    return { kind, result: "gone", retry: false };
  }
  if (cached.metadata.deletionTimestamp) return finalize(ctx, key, kind, cached);

  const object = hasFinalizer(cached) ? cached : await ctx.kube.addFinalizer(cached);
  let outcome: Outcome;
  let retry: boolean;
  let code: string | undefined;
  try {
    const result = await reconcilers[kind].sync(object, ctx);
    outcome = { state: "READY", ...result };
    retry = outcome.state !== "READY";
  } catch (error) {
    if (!(error instanceof OperatorError)) throw error;
    outcome = {
      state: error.state,
      message: error.message,
      // The record (if any) is still there: keep pointing at it.
      id: recordIdOf(object),
      conditions: Array.isArray(object.status?.conditions)
        ? (object.status.conditions as Outcome["conditions"])
        : undefined,
    };
    retry = error.retry;
    code = error.code;
  }
  await report(ctx, object, outcome);
  const result = resultOf(outcome.state);
  return { kind, result, retry, ...(result === "error" ? { code } : {}) };
}

async function finalize(
  ctx: ReconcileContext,
  key: string,
  kind: AtriumKind,
  object: AtriumObject,
): Promise<ReconcileReport> {
  if (!hasFinalizer(object)) return { kind, result: "gone", retry: false };
  if (object.spec?.keepOnDelete !== true) {
    try {
      await reconcilers[kind].remove(object, ctx);
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      // For instance 409: the record is still used (a plan by its Expositions); retried until it is not.
      await report(ctx, object, { state: "ERROR", message: `deleting: ${error.message}`, id: recordIdOf(object) });
      return { kind, result: "error", retry: true, code: error.code };
    }
  }
  await ctx.kube.removeFinalizer(object);
  forget(ctx, key);
  ctx.log.info({ key, keptRecord: object.spec?.keepOnDelete === true }, "deleted");
  return { kind, result: "deleted", retry: false };
}

/** Writes the status through the status subresource, unless it would not change. */
async function report(ctx: ReconcileContext, object: AtriumObject, outcome: Outcome): Promise<void> {
  const status = statusFor(object, outcome);
  if (sameStatus(object.status, status)) return;
  const before = stateOf(object);
  if (before !== outcome.state) {
    const fields = { kind: object.kind, namespace: object.metadata.namespace, name: object.metadata.name };
    const message = `${before ?? "new"} → ${outcome.state}`;
    if (outcome.state === "ERROR") ctx.log.warn({ ...fields, reason: outcome.message }, message);
    else ctx.log.info({ ...fields, ...(outcome.message ? { reason: outcome.message } : {}) }, message);
  }
  await ctx.kube.writeStatus(object, status);
}

/** Drops what this process remembers about a resource that is gone. */
function forget(ctx: ReconcileContext, key: string): void {
  ctx.applied.delete(key);
  const { kind, namespace, name } = parseKey(key);
  if (kind !== "SecretSource") return;
  const prefix = `${namespace}/${name}/`;
  for (const recordKey of ctx.secretRecords.keys())
    if (recordKey.startsWith(prefix)) ctx.secretRecords.delete(recordKey);
}

function resultOf(state: Outcome["state"]): ReconcileResult {
  return state === "READY" ? "ready" : state === "IN_PROGRESS" ? "in_progress" : "error";
}
