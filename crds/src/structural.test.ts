import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toStructural } from "./structural.ts";

const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: "openapi-3.0", io: "input" }) as Record<string, unknown>;

describe("toStructural", () => {
  it("marks free-form objects and values as preserving unknown fields", () => {
    const out = toStructural(toJson(z.object({ schema: z.record(z.string(), z.unknown()), any: z.unknown() })));
    expect(out.properties).toEqual({
      schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      any: { "x-kubernetes-preserve-unknown-fields": true },
    });
  });

  it("drops the safe-integer bounds Zod adds but keeps real ones", () => {
    const out = toStructural(toJson(z.number().int().min(1)));
    expect(out).toEqual({ type: "integer", minimum: 1 });
  });

  it("drops what has no CRD equivalent: $schema, propertyNames, additionalProperties: false", () => {
    const out = toStructural(toJson(z.strictObject({ labels: z.record(z.string().regex(/^a/), z.string()) })));
    expect(out).toEqual({
      type: "object",
      properties: { labels: { type: "object", additionalProperties: { type: "string" } } },
      required: ["labels"],
    });
  });

  it("refuses unions, naming the path", () => {
    const schema = toJson(z.object({ spec: z.object({ port: z.union([z.string(), z.number()]) }) }));
    expect(() => toStructural(schema)).toThrow("$.spec.port: 'anyOf' cannot appear in a structural CRD schema");
  });

  it("refuses keywords it cannot translate", () => {
    expect(() => toStructural({ type: "string", contentEncoding: "base64" })).toThrow(
      "$: no structural translation for 'contentEncoding'",
    );
  });
});
