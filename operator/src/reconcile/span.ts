/**
 * A span per reconcile of one object (tracing on): `reconcile {kind}`, with the object's kind,
 * namespace and name and the outcome (`atrium.reconcile.result`: ready, in_progress, error, gone,
 * deleted; error also sets the span's status). The control-plane calls made within it carry its
 * context (contract/rest-client.ts), so the control plane's write, the change it commits and the
 * gateways applying it continue this trace. Without tracing, `work` just runs.
 */
import { inSpan, SpanStatusCode } from "@atrium/contract/telemetry";
import type { ReconcileResult } from "../metrics.ts";

export interface ReconcileSpan {
  result(result: ReconcileResult): void;
}

const untraced: ReconcileSpan = { result() {} };

export function inReconcileSpan(key: string, work: (span: ReconcileSpan) => Promise<void>): Promise<void> {
  // A key is kind/namespace/name (kube/objects.ts); read without throwing: the reconcile reports bad ones.
  const [kind = "", namespace = "", ...rest] = key.split("/");
  const name = rest.join("/");
  const attributes = { "atrium.resource.kind": kind, "k8s.namespace.name": namespace, "atrium.resource.name": name };
  return inSpan(`reconcile ${kind}`, { attributes }, async (span) => {
    if (!span) return work(untraced);
    let outcome: ReconcileResult | undefined;
    await work({ result: (result) => (outcome = result) });
    if (outcome) span.setAttribute("atrium.reconcile.result", outcome);
    if (outcome === "error") {
      span.setAttribute("error.type", "reconcile_error");
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  });
}
