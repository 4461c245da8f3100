/**
 * Reading the collector's file exporter output: one OTLP/JSON export request a line
 * (`{"resourceSpans":[...]}`, ids as hex, 64-bit integers as strings), flattened into one record
 * per span with its attributes, its resource's and its scope's decoded into plain values.
 */
import { readFile } from "node:fs/promises";

/** An attribute value: OTLP's AnyValue decoded (int64 as number when safe, else bigint; bytes as Buffer). */
export type AttributeValue =
  | string
  | number
  | bigint
  | boolean
  | Buffer
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a root span. */
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (0 unspecified). */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  resource: Record<string, AttributeValue>;
  scope: { name: string; version?: string };
}

interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  startTimeUnixNano?: string;
  endTimeUnixNano?: string;
  attributes?: OtlpKeyValue[];
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { scope?: { name?: string; version?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/** The spans in the file so far, in the order they were written; a line still being written is skipped. */
export async function readSpans(path: string): Promise<CollectedSpan[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    // The exporter creates the file at start; before that there is nothing to read.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return parseSpans(text);
}

/** The spans in the file exporter's `text` (OTLP/JSON lines); an unfinished last line is skipped. */
export function parseSpans(text: string): CollectedSpan[] {
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  const spans: CollectedSpan[] = [];
  for (const line of complete.split("\n")) {
    if (line.trim() === "") continue;
    const request = JSON.parse(line) as OtlpTraces;
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = attributes(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        const scope = { name: scopeSpans.scope?.name ?? "", version: scopeSpans.scope?.version };
        for (const span of scopeSpans.spans ?? []) spans.push(flatten(span, resource, scope));
      }
    }
  }
  return spans;
}

function flatten(span: OtlpSpan, resource: CollectedSpan["resource"], scope: CollectedSpan["scope"]): CollectedSpan {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    // OTLP/JSON writes an empty parent id for a root span, or leaves it out.
    ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
    name: span.name,
    kind: span.kind ?? 0,
    attributes: attributes(span.attributes),
    status: { code: span.status?.code ?? 0, ...(span.status?.message ? { message: span.status.message } : {}) },
    startTimeUnixNano: BigInt(span.startTimeUnixNano ?? 0),
    endTimeUnixNano: BigInt(span.endTimeUnixNano ?? 0),
    events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributes(event.attributes) })),
    resource,
    scope,
  };
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, anyValue(value)]));
}

function anyValue(value: OtlpAnyValue | undefined): AttributeValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    const big = BigInt(value.intValue);
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  // OTLP/JSON may write NaN and the infinities as strings.
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.bytesValue !== undefined) return Buffer.from(value.bytesValue, "base64");
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue !== undefined) return attributes(value.kvlistValue.values);
  return null;
}

/** The first span named `name`; throws naming the spans there are, so a failed test says what arrived. */
export function spanNamed(spans: CollectedSpan[], name: string): CollectedSpan {
  const span = spans.find((each) => each.name === name);
  if (!span) throw new Error(`no span ${name} among: ${spans.map((each) => each.name).join(", ")}`);
  return span;
}
