import { ROOT_CONTEXT, SpanKind } from "@opentelemetry/api";
import {
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RootSampling } from "./root-sampling.ts";

afterEach(() => vi.unstubAllEnvs());

const TRACEPARENT_UNSAMPLED = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/;

function sampling(sampler: string | undefined, arg?: string): RootSampling {
  vi.stubEnv("OTEL_TRACES_SAMPLER", sampler);
  vi.stubEnv("OTEL_TRACES_SAMPLER_ARG", arg);
  return new RootSampling();
}

describe("root sampling decided before the SDK", () => {
  it("drops exactly the roots the SDK's ratio sampler drops, and the SDK records the ones it keeps", () => {
    const ratio = 0.3;
    const roots = sampling("parentbased_traceidratio", String(ratio));
    // The SDK as the servers run it: the env's sampler, Atrium's id generator.
    const sdkSampler = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    const tracer = new TracerProvider({ sampler: sdkSampler, idGenerator: roots.ids }).getTracer("test");
    const draws = 4_000;
    let kept = 0;
    for (let i = 0; i < draws; i++) {
      const dropped = roots.dropped();
      if (dropped) {
        // W3C: version 00, a trace id and a span id not all zero, flagged unsampled.
        expect(dropped).toMatch(TRACEPARENT_UNSAMPLED);
        const [, traceId = "", spanId = ""] = TRACEPARENT_UNSAMPLED.exec(dropped) ?? [];
        expect(traceId).not.toMatch(/^0+$/);
        expect(spanId).not.toMatch(/^0+$/);
        const sdk = sdkSampler.shouldSample(ROOT_CONTEXT, traceId, "tools/call", SpanKind.SERVER, {}, []);
        expect(sdk.decision).toBe(SamplingDecision.NOT_RECORD);
      } else {
        const span = tracer.startSpan("tools/call", { kind: SpanKind.SERVER }, ROOT_CONTEXT);
        expect(span.isRecording()).toBe(true);
        span.end();
        kept++;
      }
    }
    // 1,200 expected; 6 standard deviations (29 each) either way.
    expect(kept).toBeGreaterThan(draws * ratio - 175);
    expect(kept).toBeLessThan(draws * ratio + 175);
  });

  it("leaves other spans their random trace ids", () => {
    const roots = sampling("traceidratio", "0.5");
    const first = roots.ids.generateTraceId();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(roots.ids.generateTraceId()).not.toBe(first);
    expect(roots.ids.generateSpanId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each([
    ["always_off", undefined],
    ["parentbased_always_off", undefined],
    ["traceidratio", "0"],
  ])("drops every root with %s (%s)", (sampler, arg) => {
    const roots = sampling(sampler, arg);
    for (let i = 0; i < 100; i++) expect(roots.dropped()).toMatch(TRACEPARENT_UNSAMPLED);
  });

  it.each([
    [undefined, undefined, "the SDK's default samples every root"],
    ["parentbased_always_on", undefined, "every root sampled"],
    ["always_on", undefined, "every root sampled"],
    ["parentbased_traceidratio", "1", "a ratio of 1"],
    ["parentbased_traceidratio", "", "a blank ratio, 1 to the SDK"],
    ["parentbased_traceidratio", "1.5", "out of range, 1 to the SDK"],
    ["parentbased_traceidratio", "-0.1", "out of range, 1 to the SDK"],
    ["parentbased_traceidratio", "a tenth", "not a number, 1 to the SDK"],
    ["jaeger_remote", "0.01", "a sampler the SDK decides"],
  ])(
    "leaves every root to the SDK with %s %s (%s)",
    (sampler: string | undefined, arg: string | undefined, _why: string) => {
      const roots = sampling(sampler, arg);
      for (let i = 0; i < 100; i++) expect(roots.dropped()).toBeUndefined();
    },
  );
});
