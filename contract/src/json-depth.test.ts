/**
 * The nesting scan: objects and arrays inside one another count, brackets inside strings do not.
 */
import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "./json-depth.ts";

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("nestsDeeperThan", () => {
  it("counts objects and arrays inside one another", () => {
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(3)},"b":${nested(3)}}`, 4)).toBe(false);
    expect(nestsDeeperThan(`{"a":{"b":{"c":{"d":1}}}}`, 3)).toBe(true);
    expect(nestsDeeperThan(nested(5000), 64)).toBe(true);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(nestsDeeperThan(JSON.stringify({ a: "[[[[[[[[[[[[" }), 2)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: 'x"[[[[[[[[[[\\"[[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan(`["\\\\",[[[1]]]]`, 3)).toBe(true);
    expect(nestsDeeperThan(`["unclosed [[[[[[[[[[[[`, 2)).toBe(false);
  });
});
