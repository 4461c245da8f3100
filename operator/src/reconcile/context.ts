/**
 * What a reconcile works with: the control-plane client, the Kubernetes writes, the informer
 * caches (every read of a Kubernetes object goes through them), and what this process has
 * already applied to the control plane, so an unchanged resource costs no call.
 */
import type { AtriumKind } from "@atrium/crds";
import type { ControlPlaneClient } from "../control-plane/client.ts";
import type { KubeApi } from "../kube/api.ts";
import type { InformerSet } from "../kube/informers.ts";
import type { Log } from "../log.ts";

/**
 * A record this process wrote (or verified) for a resource: its uid, the body's fingerprint, the
 * record id, and what the kind's status reports from it (see `RecordSpec.remember`).
 */
export interface AppliedRecord {
  uid: string;
  fingerprint: string;
  id: string;
  remembered?: unknown;
}

export interface ReconcileContext {
  controlPlane: ControlPlaneClient;
  kube: KubeApi;
  cache: InformerSet;
  /** By work-queue key. Cleared when leadership is lost: another replica may have written since. */
  applied: Map<string, AppliedRecord>;
  /**
   * Backend-secret records of SecretSources by `namespace/secretsource/key`: their id and the
   * hash of the value last written (the control plane never returns values).
   */
  secretRecords: Map<string, { uid: string; id: string; valueHash: string }>;
  /** Queues the resources that reference this one (used when a record id changes without a status change). */
  enqueueDependents(kind: AtriumKind, namespace: string, name: string): void;
  log: Log;
}
