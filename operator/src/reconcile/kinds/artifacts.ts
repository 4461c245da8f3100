/**
 * CustomTools, Resources and Prompts → `/custom-tools`, `/resources`, `/prompts`: the spec as
 * it is, with the Service named by its record id. Their bodies are not compared field by field,
 * so after a restart their records are written once more rather than trusted.
 */
import { type AtriumKind, CustomTools, Prompts, Resources } from "@atrium/crds";
import { type Collection, type ControlPlaneRecord, collections } from "../../control-plane/client.ts";
import { errors } from "../../errors.ts";
import { resolveReferences } from "../dependencies.ts";
import { type KindReconciler, parseSpec } from "../kind-reconciler.ts";
import { deleteRecord, syncRecord } from "../record.ts";

function artifactReconciler(
  kind: AtriumKind,
  schema: typeof CustomTools.spec | typeof Resources.spec | typeof Prompts.spec,
  collection: Collection<ControlPlaneRecord, { name: string; serviceId: string }>,
): KindReconciler {
  return {
    kind,

    async sync(object, ctx) {
      const { serviceRef, ...fields } = parseSpec(schema, object);
      const { ids, missing } = resolveReferences(ctx.cache, object.metadata.namespace, [
        { kind: "Service", name: serviceRef.name },
      ]);
      const [serviceId] = ids;
      if (missing.length > 0 || serviceId === undefined) throw errors.waitingFor(missing);
      const { id } = await syncRecord(ctx, object, {
        collection,
        body: { name: object.metadata.name, serviceId, ...fields },
        matches: () => false,
      });
      return { id };
    },

    async remove(object, ctx) {
      await deleteRecord(ctx, object, { collection });
    },
  };
}

export const customToolsReconciler = artifactReconciler("CustomTools", CustomTools.spec, collections.customTools);
export const resourcesReconciler = artifactReconciler("Resources", Resources.spec, collections.resources);
export const promptsReconciler = artifactReconciler("Prompts", Prompts.spec, collections.prompts);
