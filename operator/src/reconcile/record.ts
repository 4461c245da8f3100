/**
 * Idempotent create-or-update of the one control-plane record behind a resource, found by the
 * id in its status or else by name (so a lost status, a re-run or an operator restart never
 * creates a duplicate), and its deletion.
 *
 * Calls are skipped when they cannot change anything: the same body was already applied by
 * this process; or, right after a restart, the resource is READY at its current generation and
 * the record found by its id still has the links the body asks for. What a kind reports from the
 * record (`remember`) is kept beside, so a skipped call still reports it.
 */
import type { Collection, ControlPlaneRecord, RecordPlace } from "../control-plane/client.ts";
import { type AtriumObject, objectKey, type WatchedKind } from "../kube/objects.ts";
import type { ReconcileContext } from "./context.ts";
import { recordIdOf } from "./dependencies.ts";
import { fingerprint } from "./fingerprint.ts";
import { readyAtGeneration } from "./status.ts";

export interface RecordSpec<
  V extends ControlPlaneRecord = ControlPlaneRecord,
  B extends { name: string } = { name: string },
  R = undefined,
> {
  /** Control-plane collection, e.g. `collections.services`. */
  collection: Collection<V, B>;
  /** POST / PUT body, of the collection's contract type; `name` is the resource's metadata.name. */
  body: B;
  /** Whether a record found after a restart already has what `body` asks for (the fields that can be compared). */
  matches(record: V): boolean;
  /** Records without PUT (Expositions) are deleted and created again. */
  update?: "put" | "recreate";
  /** Among the records with this name, the one to adopt (Services can have one per version). */
  choose?(candidates: V[]): V | undefined;
  /**
   * What of the record the status reports (a Service's import warnings, a plan's write warnings: `written` says
   * whether the record is a write's answer or one read back), kept in this process
   * with the body's fingerprint (not the record: a plan's holds its API key).
   */
  remember?(record: V, written: boolean): R;
}

export interface SyncedRecord<V extends ControlPlaneRecord = ControlPlaneRecord, R = undefined> {
  id: string;
  /** What the control plane answered to a create or update (a plan's new API key is only there). */
  written?: V;
  /** What `remember` took from the record, when the spec has it. */
  remembered?: R;
}

function keyOf(object: AtriumObject): string {
  return objectKey(object.kind as WatchedKind, object.metadata.namespace, object.metadata.name);
}

/** The record of `object`: by its status id first, else by name. */
async function findRecord<V extends ControlPlaneRecord>(
  ctx: ReconcileContext,
  object: AtriumObject,
  spec: { collection: RecordPlace<V>; choose?: RecordSpec<V>["choose"]; name: string },
): Promise<V | undefined> {
  const statusId = recordIdOf(object);
  if (statusId) {
    const record = await ctx.controlPlane.get(spec.collection, statusId);
    if (record && record.name === spec.name) return record;
  }
  const candidates = (await ctx.controlPlane.list(spec.collection)).filter((record) => record.name === spec.name);
  return spec.choose ? spec.choose(candidates) : candidates[0];
}

export async function syncRecord<V extends ControlPlaneRecord, B extends { name: string }, R = undefined>(
  ctx: ReconcileContext,
  object: AtriumObject,
  spec: RecordSpec<V, B, R>,
): Promise<SyncedRecord<V, R>> {
  const key = keyOf(object);
  const { uid } = object.metadata;
  const bodyFingerprint = fingerprint(spec.body);
  const applied = ctx.applied.get(key);
  const appliedHere = applied?.uid === uid;
  if (appliedHere && applied.fingerprint === bodyFingerprint)
    return { id: applied.id, ...(spec.remember ? { remembered: applied.remembered as R } : {}) };

  const existing = await findRecord(ctx, object, { ...spec, name: spec.body.name });
  let result: SyncedRecord<V, R>;
  let record: V;
  if (!existing) {
    const written = await ctx.controlPlane.create(spec.collection, spec.body);
    record = written;
    result = { id: String(written.id), written };
  } else if (
    !appliedHere &&
    readyAtGeneration(object) &&
    String(existing.id) === recordIdOf(object) &&
    spec.matches(existing)
  ) {
    // After a restart: the status vouches for this generation and the record is still there.
    record = existing;
    result = { id: String(existing.id) };
  } else if (spec.update === "recreate") {
    await ctx.controlPlane.remove(spec.collection, existing.id);
    const written = await ctx.controlPlane.create(spec.collection, spec.body);
    record = written;
    result = { id: String(written.id), written };
  } else {
    const written = await ctx.controlPlane.replace(spec.collection, existing.id, spec.body);
    record = written;
    result = { id: String(written.id), written };
  }
  if (spec.remember) result.remembered = spec.remember(record, result.written !== undefined);
  ctx.applied.set(key, { uid, fingerprint: bodyFingerprint, id: result.id, remembered: result.remembered });
  return result;
}

/** Deletes the record of a resource being deleted; a record already gone is fine. */
export async function deleteRecord<V extends ControlPlaneRecord>(
  ctx: ReconcileContext,
  object: AtriumObject,
  spec: { collection: RecordPlace<V>; choose?: RecordSpec<V>["choose"] },
): Promise<void> {
  const record = await findRecord(ctx, object, { ...spec, name: object.metadata.name });
  if (record) await ctx.controlPlane.remove(spec.collection, record.id);
  ctx.applied.delete(keyOf(object));
}
