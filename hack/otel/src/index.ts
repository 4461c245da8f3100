/**
 * @atrium/test-collector: a real OpenTelemetry Collector for tests (OTLP in over gRPC and HTTP,
 * the file exporter's OTLP/JSON lines out), and its spans read back from that file.
 */
export { collectorBinary, startCollector, type TestCollector, type TestCollectorOptions } from "./collector.ts";
export { type AttributeValue, type CollectedSpan, parseSpans, spanNamed } from "./spans.ts";
