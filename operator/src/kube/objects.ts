/**
 * The Kubernetes objects the operator reads (custom resources as the API server returns them,
 * plain JSON), the resources it watches, and the work-queue key of an object.
 */
import { type AtriumKind, kinds, objectMeta } from "@atrium/crds";
import { z } from "zod";

/** The finalizer that keeps a custom resource until its control-plane record is deleted. */
export const FINALIZER = "atrium.dev/finalizer";

/**
 * The shared metadata schema, as the API server returns it for the namespaced kinds the operator
 * watches (namespace and uid always set), with what only the operator reads (deletion, finalizers).
 */
const watchedMeta = objectMeta.extend({
  namespace: z.string(),
  uid: z.string(),
  deletionTimestamp: z.string().optional(),
  finalizers: z.array(z.string()).optional(),
});
export type ObjectMetadata = z.output<typeof watchedMeta>;

/** A custom resource of one of the eight kinds, unvalidated. */
export interface AtriumObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetadata;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

/** A Secret or ConfigMap as far as the operator reads it (data is base64 for Secrets). */
export interface DataObject {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

/** Everything the operator watches: the eight kinds, and the Secrets and ConfigMaps they reference. */
export type WatchedKind = AtriumKind | "Secret" | "ConfigMap";

export const atriumKinds: readonly AtriumKind[] = kinds.map((kind) => kind.kind);

export function isAtriumKind(kind: string): kind is AtriumKind {
  return (atriumKinds as readonly string[]).includes(kind);
}

/** Work-queue key: kind/namespace/name. */
export function objectKey(kind: WatchedKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

export function parseKey(key: string): { kind: AtriumKind; namespace: string; name: string } {
  const [kind = "", namespace = "", ...rest] = key.split("/");
  if (!isAtriumKind(kind)) throw new Error(`not a reconcilable key: ${key}`);
  return { kind, namespace, name: rest.join("/") };
}

export function hasFinalizer(object: AtriumObject): boolean {
  return object.metadata.finalizers?.includes(FINALIZER) ?? false;
}
