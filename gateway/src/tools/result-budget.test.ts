import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CallToolResult, JsonSchema } from "./mcp.ts";
import { ERROR_MESSAGE_FLOOR, fitResult, TRIMMED_META_KEY } from "./result-budget.ts";

const ajv = new Ajv2020({ strict: false });
const sizeOf = (result: CallToolResult) => Buffer.byteLength(JSON.stringify(result));

/** A JSON answer's result as result.ts makes it: the body as text, the value as structuredContent. */
function jsonResult(
  value: Record<string, unknown>,
  meta: Record<string, unknown> = { "dev.atrium/backendStatus": 200 },
) {
  return {
    content: [{ type: "text" as const, text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
    _meta: meta,
  };
}

const items = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b", "c"] }));

describe("fitResult", () => {
  it("passes a result within budget on as it is (the same object)", () => {
    const result = jsonResult({ items: items(3) });
    expect(fitResult(result, { maxBytes: 100_000 })).toBe(result);
  });

  it("cuts the longest list first, from its end, and says how many items were left out", () => {
    const value = { items: items(200), colors: ["red", "green"], total: 200 };
    const fitted = fitResult(jsonResult(value), { maxBytes: 4096 });
    expect(sizeOf(fitted)).toBeLessThanOrEqual(4096);
    const kept = fitted.structuredContent as typeof value;
    expect(kept.colors).toEqual(["red", "green"]);
    expect(kept.total).toBe(200);
    expect(kept.items).toEqual(items(kept.items.length));
    expect(kept.items.length).toBeGreaterThan(5);
    const omitted = 200 - kept.items.length;
    expect(fitted.content[0]).toEqual({ type: "text", text: JSON.stringify(kept) });
    expect(fitted.content[1]).toEqual({
      type: "text",
      text: `[trimmed to fit the result budget of 4096 bytes: ${omitted} items left out from the end of the longest lists]`,
    });
    expect(fitted._meta).toEqual({
      "dev.atrium/backendStatus": 200,
      [TRIMMED_META_KEY]: { maxResultBytes: 4096, omittedItems: omitted },
    });
  });

  it("keeps the outputSchema's minItems, through $defs", () => {
    const schema = {
      type: "object",
      properties: { items: { $ref: "#/$defs/Page" } },
      $defs: { Page: { type: "array", minItems: 30, items: { type: "object" } } },
    };
    const fitted = fitResult(jsonResult({ items: items(100), more: items(100) }), {
      maxBytes: 6000,
      outputSchema: schema,
      validate: (value) => (ajv.validate(schema, value) ? [] : ["invalid"]),
    });
    const kept = fitted.structuredContent as { items: unknown[]; more: unknown[] };
    expect(kept.items.length).toBeGreaterThanOrEqual(30);
    expect(kept.more.length).toBeLessThan(kept.items.length);
  });

  it("writes a non-object answer's text as the bare value, and cuts it", () => {
    const list = items(100);
    const fitted = fitResult(
      { content: [{ type: "text", text: JSON.stringify(list) }], structuredContent: { result: list } },
      { maxBytes: 2048 },
    );
    const kept = (fitted.structuredContent as { result: unknown[] }).result;
    expect(fitted.content[0]).toEqual({ type: "text", text: JSON.stringify(kept) });
  });

  it("makes an answer that cannot fit an error saying so, within budget", () => {
    const value = { blob: "x".repeat(10_000) };
    const fitted = fitResult(jsonResult(value), { maxBytes: 1024 });
    expect(fitted.isError).toBe(true);
    expect(fitted.structuredContent).toBeUndefined();
    expect(fitted.content[0]).toMatchObject({
      text: expect.stringContaining("does not fit the result budget of 1024 bytes"),
    });
    expect(sizeOf(fitted)).toBeLessThanOrEqual(1024);
  });

  it("never cuts an error below its first line and the start of its message; cuts the rest at a character boundary", () => {
    const error: CallToolResult = {
      content: [{ type: "text", text: `HTTP 500 Internal Server Error\n${"é😀".repeat(2000)}` }],
      isError: true,
    };
    const fitted = fitResult(error, { maxBytes: 2048 });
    expect(sizeOf(fitted)).toBeLessThanOrEqual(2048);
    const text = (fitted.content[0] as { text: string }).text;
    expect(
      text.startsWith(`HTTP 500 Internal Server Error\n${"é😀".repeat(Math.floor(ERROR_MESSAGE_FLOOR / 3))}`),
    ).toBe(true);
    expect(text).toMatch(/…\[cut to fit the result budget of 2048 bytes: \d+ characters left out\]$/);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/); // no lone high surrogate
    const long = "HTTP 400 Bad Request: ".padEnd(3000, "!");
    const message = fitResult({ content: [{ type: "text", text: long }], isError: true }, { maxBytes: 1024 });
    expect((message.content[0] as { text: string }).text.startsWith(long)).toBe(true);
    // A budget smaller than the message: the message stays, past the budget, and the rest is cut.
    const body = JSON.stringify({
      type: `https://api.example.com/problems/${"v".repeat(250)}`,
      detail: "Validation failed: name must not be empty",
      errors: "x".repeat(5000),
    });
    const small = fitResult(
      { content: [{ type: "text", text: `HTTP 422 Unprocessable Entity\n${body}` }], isError: true },
      { maxBytes: 256 },
    );
    const kept = (small.content[0] as { text: string }).text;
    expect(kept).toContain("Validation failed: name must not be empty");
    expect(kept.length).toBeLessThan(ERROR_MESSAGE_FLOOR + 200);
    expect(small._meta?.[TRIMMED_META_KEY]).toMatchObject({
      maxResultBytes: 256,
      omittedCharacters: expect.any(Number),
    });
  });

  it("property: trimmed results are valid JSON, within budget, and validate against the outputSchema", () => {
    const item = fc.record({
      id: fc.integer(),
      name: fc.string({ maxLength: 40 }),
      tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 12 }),
    });
    const scenario = fc
      .record({ minItems: fc.integer({ min: 0, max: 4 }), tagsMin: fc.integer({ min: 0, max: 2 }) })
      .chain(({ minItems, tagsMin }) =>
        fc.record({
          minItems: fc.constant(minItems),
          tagsMin: fc.constant(tagsMin),
          value: fc.record({
            items: fc.array(
              item.map((one) => ({ ...one, tags: [...Array.from({ length: tagsMin }, () => "t"), ...one.tags] })),
              { minLength: minItems, maxLength: 120 },
            ),
            notes: fc.array(fc.string({ maxLength: 30 }), { maxLength: 60 }),
            extra: fc.jsonValue({ maxDepth: 3 }),
          }),
          budget: fc.integer({ min: 1024, max: 20_000 }),
        }),
      );
    let trimmed = 0;
    fc.assert(
      fc.property(scenario, ({ minItems, tagsMin, value, budget }) => {
        const schema: JsonSchema = {
          type: "object",
          properties: {
            items: {
              type: "array",
              minItems,
              items: { type: "object", properties: { tags: { type: "array", minItems: tagsMin } } },
            },
          },
        };
        const validate = ajv.compile(schema);
        const original = jsonResult(value as Record<string, unknown>);
        const fitted = fitResult(original, {
          maxBytes: budget,
          outputSchema: schema,
          validate: (v) => (validate(v) ? [] : ["invalid"]),
        });
        if (fitted === original) {
          expect(sizeOf(original)).toBeLessThanOrEqual(budget);
          return;
        }
        if (fitted.isError) {
          expect(fitted.structuredContent).toBeUndefined();
          expect(sizeOf(fitted)).toBeLessThanOrEqual(budget);
          return;
        }
        expect(sizeOf(fitted)).toBeLessThanOrEqual(budget);
        const text = (fitted.content[0] as { text: string }).text;
        expect(JSON.parse(text)).toEqual(fitted.structuredContent);
        expect(validate(fitted.structuredContent)).toBe(true);
        const meta = fitted._meta?.[TRIMMED_META_KEY] as { omittedItems: number };
        expect(meta.omittedItems).toBeGreaterThanOrEqual(0);
        trimmed += 1;
      }),
      { numRuns: 200 },
    );
    // The generated answers and budgets do exercise the trimming, not only the two other outcomes.
    expect(trimmed).toBeGreaterThan(20);
  });
});
