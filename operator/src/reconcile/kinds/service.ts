/**
 * Service → `/services`: name, version, description, kind and the contract, inline, by URL or as
 * .proto files; a ConfigMap source is read here (the control plane cannot) and sent inline, and a
 * change of that ConfigMap is reconciled like a spec change. What the import changed in the document's
 * schemas is reported as the `ImportWarnings` condition (import-warnings.ts).
 */
import { Service } from "@atrium/crds";
import { collections } from "../../control-plane/client.ts";
import { errors } from "../../errors.ts";
import type { AtriumObject, DataObject } from "../../kube/objects.ts";
import type { ReconcileContext } from "../context.ts";
import { type KindReconciler, parseSpec } from "../kind-reconciler.ts";
import { deleteRecord, syncRecord } from "../record.ts";
import { importWarningsCondition } from "./import-warnings.ts";

const collection = collections.services;

function openApiFor(
  ctx: ReconcileContext,
  object: AtriumObject,
  openapi: {
    inline?: string | undefined;
    url?: string | undefined;
    configMapRef?: { name: string; key: string } | undefined;
    protoFiles?: { path: string; content: string }[] | undefined;
  },
): { inline: string } | { url: string } | { protoFiles: { path: string; content: string }[] } {
  if (openapi.inline !== undefined) return { inline: openapi.inline };
  if (openapi.url !== undefined) return { url: openapi.url };
  if (openapi.protoFiles !== undefined) return { protoFiles: openapi.protoFiles };
  const ref = openapi.configMapRef;
  if (!ref) throw errors.invalidSpec("spec.openapi: exactly one of inline, url, configMapRef, protoFiles must be set");
  const { namespace } = object.metadata;
  const configMap = ctx.cache.get<DataObject>("ConfigMap", namespace, ref.name);
  if (!configMap) throw errors.waitingFor([`ConfigMap ${ref.name} (not found)`]);
  const text =
    configMap.data?.[ref.key] ??
    (configMap.binaryData?.[ref.key] === undefined
      ? undefined
      : Buffer.from(configMap.binaryData[ref.key] as string, "base64").toString("utf8"));
  if (!text) throw errors.invalidReference(`ConfigMap ${ref.name} has no key '${ref.key}' (or it is empty)`);
  return { inline: text };
}

export const serviceReconciler: KindReconciler = {
  kind: "Service",

  async sync(object, ctx) {
    const spec = parseSpec(Service.spec, object);
    const { name } = object.metadata;
    const body = {
      name,
      version: spec.version,
      ...(spec.description === undefined ? {} : { description: spec.description }),
      kind: spec.kind,
      openapi: openApiFor(ctx, object, spec.openapi),
    };
    const { id, remembered } = await syncRecord(ctx, object, {
      collection,
      body,
      // A ConfigMap may have changed while no operator ran: send it again after a restart.
      matches: (record) =>
        record.version === spec.version && record.kind === spec.kind && spec.openapi.configMapRef === undefined,
      choose: (candidates) => candidates.find((record) => record.version === spec.version) ?? candidates[0],
      remember: (record) => record.importWarnings,
    });
    return { id, conditions: [importWarningsCondition(object, remembered ?? [])] };
  },

  async remove(object, ctx) {
    const version = (object.spec as { version?: unknown } | undefined)?.version;
    await deleteRecord(ctx, object, {
      collection,
      choose: (candidates) => candidates.find((record) => record.version === version) ?? candidates[0],
    });
  },
};
