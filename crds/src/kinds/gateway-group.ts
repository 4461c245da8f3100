/**
 * GatewayGroup: selects gateways by the labels they advertise; Expositions target a group.
 */
import { z } from "zod";
import { labelKey, labelMap, labelValue, reconcileStatus, stringSet } from "../common.ts";
import { defineKind } from "../kind.ts";
import { withRules } from "../rules.ts";

/** As in Kubernetes label selectors: In and NotIn need values, Exists and DoesNotExist take none. */
const operatorValues = [
  {
    message: "must be non-empty when operator is In or NotIn",
    path: ["values"],
    cel: "!(self.operator in ['In', 'NotIn']) || (has(self.values) && size(self.values) > 0)",
    holds: (requirement: Record<string, unknown>) =>
      !(requirement.operator === "In" || requirement.operator === "NotIn") ||
      (Array.isArray(requirement.values) && requirement.values.length > 0),
  },
  {
    message: "must be empty when operator is Exists or DoesNotExist",
    path: ["values"],
    cel: "!(self.operator in ['Exists', 'DoesNotExist']) || !has(self.values) || size(self.values) == 0",
    holds: (requirement: Record<string, unknown>) =>
      !(requirement.operator === "Exists" || requirement.operator === "DoesNotExist") ||
      !Array.isArray(requirement.values) ||
      requirement.values.length === 0,
  },
];

export const labelSelectorRequirement = withRules(
  z.object({
    key: labelKey.describe("Label key the requirement applies to."),
    operator: z
      .enum(["In", "NotIn", "Exists", "DoesNotExist"])
      .describe("In / NotIn compare the value with `values`; Exists / DoesNotExist test the key only."),
    values: stringSet(labelValue).optional().describe("Values for In and NotIn; empty for Exists and DoesNotExist."),
  }),
  operatorValues,
).describe("A label requirement, as in a Kubernetes label selector.");

export const gatewayGroupSpec = z
  .object({
    description: z.string().max(4096).optional().describe("What the gateways of this group serve."),
    labels: labelMap
      .optional()
      .describe("Labels a gateway must advertise, all of them with these values. Empty selects every gateway."),
    matchExpressions: z
      .array(labelSelectorRequirement)
      .optional()
      .describe("Further requirements on the gateways' labels; all must hold."),
  })
  .describe("A set of gateways chosen by the labels they advertise.");

export const GatewayGroup = defineKind({
  kind: "GatewayGroup",
  plural: "gatewaygroups",
  shortNames: ["gwg"],
  description: "A set of gateways chosen by label selectors; Expositions are published on a group.",
  spec: gatewayGroupSpec,
  status: reconcileStatus,
});

export type GatewayGroupSelector = Pick<z.output<typeof gatewayGroupSpec>, "labels" | "matchExpressions">;

/** Whether a gateway advertising `labels` belongs to a group with this selector. */
export function selectsGateway(selector: GatewayGroupSelector, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector.labels ?? {})) {
    if (labels[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    const present = Object.hasOwn(labels, key);
    switch (operator) {
      case "In":
        return present && values.includes(labels[key] as string);
      case "NotIn":
        return !present || !values.includes(labels[key] as string);
      case "Exists":
        return present;
      case "DoesNotExist":
        return !present;
    }
    return false;
  });
}
