/**
 * The gateway's `apply changes` span (tracing on): applying a change-stream message that carries
 * the control plane's `traceparent` continues that trace, so a change reads as one trace from the
 * write (a `kubectl apply` through the operator, or a REST call) to each gateway applying it.
 * Without tracing, or for a message without a context (snapshots, older control planes), `work`
 * just runs.
 */
import { context, contextOfTraceparent, endWithError, SpanKind, trace, tracing } from "@atrium/contract/telemetry";

/** Runs `work` (applying `message`, the stream event's JSON as received) in the span. */
export function inApplySpan<T>(message: unknown, work: () => T): T {
  const traced = tracing();
  if (!traced) return work();
  const { traceparent, revision, upserts, deletes } = (message ?? {}) as Record<string, unknown>;
  const parent = contextOfTraceparent(typeof traceparent === "string" ? traceparent : undefined);
  if (!parent) return work();
  const span = traced.tracer.startSpan(
    "apply changes",
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...(typeof revision === "number" ? { "atrium.change.revision": revision } : {}),
        ...(Array.isArray(upserts) ? { "atrium.change.upserts": upserts.length } : {}),
        ...(Array.isArray(deletes) ? { "atrium.change.deletes": deletes.length } : {}),
      },
    },
    parent,
  );
  let result: T;
  try {
    // Its log line ("applied changes") carries the trace's ids.
    result = context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    endWithError(span, error instanceof Error ? error.name : "Error");
    throw error;
  }
  span.end();
  return result;
}
