/**
 * A ConfigurationPlan's `WriteWarnings` condition: what the control plane warned of when it last
 * accepted the plan (a toolOutputFilters patch through which no outputSchema can be derived, so
 * the tool lists none), so `kubectl describe` shows what a REST or CLI user reads in the write's
 * answer. Only a write answers with warnings: a reconcile that writes nothing keeps the condition
 * it finds.
 */
import { WRITE_WARNINGS_CONDITION } from "@atrium/crds";
import type { AtriumObject } from "../../kube/objects.ts";
import { type Condition, conditionOf } from "../status.ts";
import { QUOTED_WARNINGS, quoteFirst } from "./import-warnings.ts";

type WriteWarnings = Omit<Condition, "lastTransitionTime">;

/** The condition for the warnings of the plan's last write (none: False). */
export function writeWarningsCondition(object: AtriumObject, warnings: string[]): WriteWarnings {
  const type = WRITE_WARNINGS_CONDITION;
  if (warnings.length === 0)
    return conditionOf(object, {
      type,
      status: "False",
      reason: "NoWarnings",
      message: "The control plane accepted the plan without warnings.",
    });
  const rest = warnings.length > QUOTED_WARNINGS ? ` (the first ${QUOTED_WARNINGS})` : "";
  return conditionOf(object, {
    type,
    status: "True",
    reason: "AcceptedWithWarnings",
    message: `The control plane accepted the plan with ${warnings.length} ${warnings.length === 1 ? "warning" : "warnings"}${rest}: ${quoteFirst(warnings)}`,
  });
}

/** The condition the object's status holds already, when a reconcile wrote nothing (and so learnt no warnings). */
export function currentWriteWarnings(object: AtriumObject): WriteWarnings | undefined {
  const conditions = Array.isArray(object.status?.conditions) ? (object.status.conditions as Condition[]) : [];
  const current = conditions.find((condition) => condition.type === WRITE_WARNINGS_CONDITION);
  if (!current) return undefined;
  const { lastTransitionTime: _carried, ...rest } = current;
  return rest;
}
