/**
 * The status a reconcile reports, in each kind's shape: `status.status` for Service, GatewayGroup,
 * ConfigurationPlan, Exposition and SecretSource (with conditions), `status.state` for
 * CustomTools, Resources and Prompts; every kind with observedGeneration. A status equal to the
 * current one is not written again, so a reconcile that changes nothing causes no watch event.
 */
import { type condition, kindNamed, type reconcileState } from "@atrium/crds";
import type { z } from "zod";
import type { AtriumObject } from "../kube/objects.ts";
import { stateOf } from "./dependencies.ts";
import { stableStringify } from "./fingerprint.ts";

/** What a reconcile reports: the kinds' state, but never UNKNOWN (that is "not reconciled yet"). */
export type ReconcileState = Exclude<z.output<typeof reconcileState>, "UNKNOWN">;

/** A metav1.Condition (SecretSource: one per referenced Secret), as the kinds' status declares it. */
export type Condition = z.output<typeof condition>;

export interface Outcome {
  state: ReconcileState;
  message?: string | undefined;
  id?: string | undefined;
  /** Conditions without lastTransitionTime: it is carried over while a condition's status holds. */
  conditions?: Omit<Condition, "lastTransitionTime">[] | undefined;
}

/** A condition of `object`'s current generation (statusFor sets lastTransitionTime). */
export function conditionOf(
  object: AtriumObject,
  condition: Pick<Condition, "type" | "status" | "reason" | "message">,
): Omit<Condition, "lastTransitionTime"> {
  const generation = object.metadata.generation;
  return generation === undefined ? condition : { ...condition, observedGeneration: generation };
}

// Messages end up in `kubectl get -o yaml` and events; an OpenAPI parser's message can be long.
const MAX_MESSAGE_LENGTH = 4096;

function clip(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

/** Whether a kind reports `status.state` (CustomTools, Resources, Prompts) rather than `status.status`. */
export function reportsState(kind: string): boolean {
  return kindNamed(kind)?.statusPath === ".status.state";
}

/** READY (`status.status` or `status.state`), and reconciled at the current generation. */
export function readyAtGeneration(object: AtriumObject): boolean {
  const status = object.status;
  return (
    stateOf(object) === "READY" &&
    typeof status?.observedGeneration === "number" &&
    status.observedGeneration === object.metadata.generation
  );
}

export function statusFor(object: AtriumObject, outcome: Outcome): Record<string, unknown> {
  const message = outcome.message ? { message: clip(outcome.message) } : {};
  const id = outcome.id ? { id: outcome.id } : {};
  const generation = object.metadata.generation;
  const observed = generation === undefined ? {} : { observedGeneration: generation };
  if (reportsState(object.kind)) return { state: outcome.state, ...observed, ...message, ...id };
  const previous = Array.isArray(object.status?.conditions) ? (object.status.conditions as Condition[]) : [];
  const now = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const conditions = outcome.conditions?.map((condition): Condition => {
    const before = previous.find((p) => p.type === condition.type);
    return {
      ...condition,
      message: clip(condition.message),
      lastTransitionTime: before && before.status === condition.status ? before.lastTransitionTime : now,
    };
  });
  return {
    status: outcome.state,
    ...observed,
    ...message,
    ...id,
    ...(conditions ? { conditions } : {}),
  };
}

export function sameStatus(current: unknown, next: Record<string, unknown>): boolean {
  return current !== undefined && stableStringify(current) === stableStringify(next);
}
