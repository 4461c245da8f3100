/**
 * GatewayGroup → `/gateway-groups` (integer ids): description and the label selector.
 */
import { GatewayGroup } from "@atrium/crds";
import { collections } from "../../control-plane/client.ts";
import { stableStringify } from "../fingerprint.ts";
import { type KindReconciler, parseSpec } from "../kind-reconciler.ts";
import { deleteRecord, syncRecord } from "../record.ts";

const collection = collections.gatewayGroups;

export const gatewayGroupReconciler: KindReconciler = {
  kind: "GatewayGroup",

  async sync(object, ctx) {
    const spec = parseSpec(GatewayGroup.spec, object);
    const selector = { labels: spec.labels ?? {}, matchExpressions: spec.matchExpressions ?? [] };
    const body = {
      name: object.metadata.name,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      ...selector,
    };
    const { id } = await syncRecord(ctx, object, {
      collection,
      body,
      matches: (record) =>
        record.description === spec.description &&
        stableStringify({ labels: record.labels ?? {}, matchExpressions: record.matchExpressions ?? [] }) ===
          stableStringify(selector),
    });
    return { id };
  },

  async remove(object, ctx) {
    await deleteRecord(ctx, object, { collection });
  },
};
