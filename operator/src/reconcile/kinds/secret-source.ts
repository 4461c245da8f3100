/**
 * SecretSource → one backend secret per (Secret, key) in `/secrets`, named
 * `<secretsource>.<key>` (the key lowercased, other characters than [a-z0-9.-] turned into
 * '-', each '.'-separated part trimmed of '-' and empty parts dropped: an object name), holding the Secret's decoded value. One condition per referenced Secret, of type
 * `secret.atrium.dev/<secret name>`: True/Synced, or False with SecretNotFound, KeyMissing or
 * KeyConflict. A changed Secret reaches the control plane through the Secret informer, which
 * queues the SecretSources that read it.
 *
 * The control plane never returns secret values, so what was written is remembered as a hash,
 * in memory only: after a restart every value is written once more.
 */
import { createHash } from "node:crypto";
import type { SecretView } from "@atrium/contract/rest";
import { SecretSource } from "@atrium/crds";
import { collections } from "../../control-plane/client.ts";
import type { AtriumObject, DataObject } from "../../kube/objects.ts";
import type { ReconcileContext } from "../context.ts";
import { type KindReconciler, parseSpec } from "../kind-reconciler.ts";
import type { Condition, Outcome, ReconcileState } from "../status.ts";

const collection = collections.secrets;
const CONDITION_PREFIX = "secret.atrium.dev/";

/** The control-plane name of the backend secret holding `key` of a SecretSource. */
export function secretRecordName(secretSource: string, key: string): string {
  const part = key
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .split(".")
    .map((label) => label.replace(/^-+|-+$/g, ""))
    .filter((label) => label !== "")
    .join(".");
  return `${secretSource}.${part || "key"}`;
}

/** Where a SecretSource's record for `key` is remembered in the context. */
export function secretRecordKey(namespace: string, secretSource: string, key: string): string {
  return `${namespace}/${secretSource}/${key}`;
}

interface Wanted {
  key: string;
  recordName: string;
  value: string;
}

function hash(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

/** The keys each referenced Secret lists (leniently: used while deleting, when the spec may be invalid). */
function refsOf(object: AtriumObject): { name: string; keys: string[] }[] {
  const refs = (object.spec as { secretRefs?: unknown } | undefined)?.secretRefs;
  if (!Array.isArray(refs)) return [];
  return refs.flatMap((ref: { name?: unknown; keys?: unknown }) =>
    typeof ref?.name === "string" && Array.isArray(ref.keys)
      ? [{ name: ref.name, keys: ref.keys.filter((key): key is string => typeof key === "string") }]
      : [],
  );
}

export const secretSourceReconciler: KindReconciler = {
  kind: "SecretSource",

  async sync(object, ctx) {
    const spec = parseSpec(SecretSource.spec, object);
    const { namespace, name, uid, generation } = object.metadata;
    const conditions: Omit<Condition, "lastTransitionTime">[] = [];
    const wanted: Wanted[] = [];
    const claimed = new Map<string, string>();
    const waiting: string[] = [];
    const problems: string[] = [];
    const condition = (secret: string, ok: boolean, reason: string, message: string) =>
      conditions.push({
        type: `${CONDITION_PREFIX}${secret}`,
        status: ok ? "True" : "False",
        reason,
        message,
        ...(generation === undefined ? {} : { observedGeneration: generation }),
      });

    for (const ref of spec.secretRefs) {
      const secret = ctx.cache.get<DataObject>("Secret", namespace, ref.name);
      if (!secret) {
        condition(ref.name, false, "SecretNotFound", `Secret ${ref.name} not found in namespace ${namespace}`);
        waiting.push(`Secret ${ref.name}`);
        continue;
      }
      const missing: string[] = [];
      const conflicts: string[] = [];
      for (const key of ref.keys) {
        const encoded = secret.data?.[key];
        const value = encoded === undefined ? "" : Buffer.from(encoded, "base64").toString("utf8");
        if (!value) {
          missing.push(key);
          continue;
        }
        const recordName = secretRecordName(name, key);
        const owner = claimed.get(recordName);
        if (owner) {
          conflicts.push(`${key} (same record ${recordName} as ${owner})`);
          continue;
        }
        claimed.set(recordName, `${ref.name}/${key}`);
        wanted.push({ key, recordName, value });
      }
      if (missing.length > 0) {
        const message = `Secret ${ref.name} has no (or an empty) key ${missing.join(", ")}`;
        condition(ref.name, false, "KeyMissing", message);
        problems.push(message);
      } else if (conflicts.length > 0) {
        const message = `Secret ${ref.name}: key ${conflicts.join(", ")}`;
        condition(ref.name, false, "KeyConflict", message);
        problems.push(message);
      } else {
        condition(ref.name, true, "Synced", `key ${ref.keys.join(", ")} synced to the control plane`);
      }
    }

    // Write every value that is present, even if another key or Secret is missing.
    let records: Map<string, SecretView> | undefined;
    let idsChanged = false;
    for (const { key, recordName, value } of wanted) {
      const memoKey = secretRecordKey(namespace, name, key);
      const known = ctx.secretRecords.get(memoKey);
      const valueHash = hash(value);
      if (known?.uid === uid && known.valueHash === valueHash) continue;
      records ??= new Map((await ctx.controlPlane.list(collection)).map((record) => [record.name, record]));
      const existing = records.get(recordName);
      const written = existing
        ? await ctx.controlPlane.replace(collection, existing.id, { value })
        : await ctx.controlPlane.create(collection, { name: recordName, value });
      const id = String(written.id);
      if (known?.id !== id) idsChanged = true;
      ctx.secretRecords.set(memoKey, { uid, id, valueHash });
    }
    // A new record id (first sync, or a record deleted behind our back) changes the plans that use it.
    if (idsChanged) ctx.enqueueDependents("SecretSource", namespace, name);

    const state: ReconcileState = problems.length > 0 ? "ERROR" : waiting.length > 0 ? "IN_PROGRESS" : "READY";
    const message =
      problems.length > 0 ? problems.join("; ") : waiting.length > 0 ? `waiting for ${waiting.join(", ")}` : undefined;
    return { state, message, conditions } satisfies Partial<Outcome>;
  },

  async remove(object, ctx) {
    const { namespace, name } = object.metadata;
    const names = new Set(refsOf(object).flatMap((ref) => ref.keys.map((key) => secretRecordName(name, key))));
    if (names.size > 0) {
      for (const record of await ctx.controlPlane.list(collection)) {
        if (names.has(record.name)) await ctx.controlPlane.remove(collection, record.id);
      }
    }
    for (const ref of refsOf(object)) {
      for (const key of ref.keys) ctx.secretRecords.delete(secretRecordKey(namespace, name, key));
    }
  },
};

/**
 * The record id of a SecretSource's key, for a ConfigurationPlan's backend secret: remembered
 * from this process's sync, else looked up by name (after a restart). Undefined until it exists.
 */
export async function secretRecordId(
  ctx: ReconcileContext,
  namespace: string,
  secretSource: AtriumObject,
  key: string,
): Promise<string | undefined> {
  const { name, uid } = secretSource.metadata;
  const known = ctx.secretRecords.get(secretRecordKey(namespace, name, key));
  if (known?.uid === uid) return known.id;
  const recordName = secretRecordName(name, key);
  const record = (await ctx.controlPlane.list(collection)).find((candidate) => candidate.name === recordName);
  return record === undefined ? undefined : String(record.id);
}
