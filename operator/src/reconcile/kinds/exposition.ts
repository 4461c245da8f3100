/**
 * Exposition → `/expositions`: the plan's and the group's record ids. It waits IN_PROGRESS,
 * naming what is missing, until both have records. The control plane has no PUT for
 * Expositions: a changed plan or group replaces the record (same name, so the same
 * /mcp/<organization>/<name> path; a new id).
 */
import { Exposition } from "@atrium/crds";
import { collections } from "../../control-plane/client.ts";
import { errors } from "../../errors.ts";
import { resolveReferences } from "../dependencies.ts";
import { type KindReconciler, parseSpec } from "../kind-reconciler.ts";
import { deleteRecord, syncRecord } from "../record.ts";

const collection = collections.expositions;

export const expositionReconciler: KindReconciler = {
  kind: "Exposition",

  async sync(object, ctx) {
    const spec = parseSpec(Exposition.spec, object);
    const { ids, missing } = resolveReferences(ctx.cache, object.metadata.namespace, [
      { kind: "ConfigurationPlan", name: spec.configurationPlanRef.name },
      { kind: "GatewayGroup", name: spec.gatewayGroupRef.name },
    ]);
    if (missing.length > 0) throw errors.waitingFor(missing);
    const [configurationPlanId, groupId] = ids as [string, string];
    const gatewayGroupId = Number(groupId);
    const { id } = await syncRecord(ctx, object, {
      collection,
      body: { name: object.metadata.name, configurationPlanId, gatewayGroupId },
      matches: (record) =>
        record.configurationPlanId === configurationPlanId && record.gatewayGroupId === gatewayGroupId,
      update: "recreate",
    });
    return { id };
  },

  async remove(object, ctx) {
    await deleteRecord(ctx, object, { collection });
  },
};
