/**
 * What each kind implements: `sync` brings the control plane in line with a resource and says
 * how it went; `remove` deletes its record(s) when the resource is deleted (unless keepOnDelete).
 * Both throw OperatorErrors for what the status should report (a missing dependency, a refusal).
 */
import { type AtriumKind, fieldPath, issueMessage, kubernetesWording } from "@atrium/crds";
import type { z } from "zod";
import { errors } from "../errors.ts";
import type { AtriumObject } from "../kube/objects.ts";
import type { ReconcileContext } from "./context.ts";
import type { Outcome } from "./status.ts";

export interface KindReconciler {
  readonly kind: AtriumKind;
  /** Returns the outcome to report; READY unless it says otherwise. */
  sync(object: AtriumObject, ctx: ReconcileContext): Promise<Partial<Outcome>>;
  remove(object: AtriumObject, ctx: ReconcileContext): Promise<void>;
}

/**
 * The spec, checked with the kind's spec schema and its rules, as the webhook and the control
 * plane check it (defaults applied), in the same words. The API server checked the structure and
 * the CEL rules already; this catches the rest (duplicates, URL syntax, the rules CEL cannot
 * say) on clusters without the webhook.
 */
export function parseSpec<S extends z.ZodType>(schema: S, object: AtriumObject): z.output<S> {
  const parsed = schema.safeParse(object.spec ?? {}, { error: kubernetesWording });
  if (!parsed.success) {
    throw errors.invalidSpec(
      parsed.error.issues
        .map((issue) => `${fieldPath(["spec", ...issue.path], issue.code === "invalid_key")}: ${issueMessage(issue)}`)
        .join("; "),
    );
  }
  return parsed.data;
}
