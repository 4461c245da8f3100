/**
 * The `publish changes` span (tracing on): the change hub handing an organization's new changes
 * to its open gateway streams. It continues the trace of the newest write it carries (the
 * traceparent its `record change` span stored with the row) and links the others of the batch;
 * its own context is what the stream's message carries on to the gateways. Without tracing,
 * `publish` just runs.
 */
import { context, contextOfTraceparent, type Link, SpanKind, trace, tracing } from "@atrium/contract/telemetry";

interface TracedRow {
  revision: number;
  traceparent: string | null;
}

export function publishing(
  organizationId: string,
  rows: TracedRow[],
  streams: number,
  publish: (traceparent: string | undefined) => void,
): void {
  const traced = tracing();
  const contexts = traced ? rows.flatMap((row) => contextOfTraceparent(row.traceparent ?? undefined) ?? []) : [];
  const parent = contexts.pop();
  if (!traced || !parent) {
    publish(undefined);
    return;
  }
  const links: Link[] = contexts.flatMap((linked) => {
    const spanContext = trace.getSpanContext(linked);
    return spanContext ? [{ context: spanContext }] : [];
  });
  const span = traced.tracer.startSpan(
    "publish changes",
    {
      kind: SpanKind.PRODUCER,
      links,
      attributes: {
        "atrium.organization.id": organizationId,
        "atrium.change.revision": rows.at(-1)?.revision ?? 0,
        "atrium.changes": rows.length,
        "atrium.stream.gateways": streams,
      },
    },
    parent,
  );
  const carrier: Record<string, string> = {};
  traced.inject(span, carrier);
  try {
    // The streams' work for the batch (compiling, writing) runs in the span's context.
    context.with(trace.setSpan(parent, span), () => publish(carrier.traceparent));
  } finally {
    span.end();
  }
}
