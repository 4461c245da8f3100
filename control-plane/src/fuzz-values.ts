/**
 * Test support for fuzz tests (fast-check): values that break what they replace, and the
 * replacing itself: every path of a JSON value, and a copy with the node at one path replaced.
 */
import fc from "fast-check";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonPath = (string | number)[];

/** Every path of `value` (the root's is empty), for a mutation to aim at. */
export function nodePaths(value: Json, prefix: JsonPath = [], into: JsonPath[] = []): JsonPath[] {
  into.push(prefix);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) nodePaths(item, [...prefix, index], into);
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) nodePaths(child, [...prefix, key], into);
  }
  return into;
}

/**
 * A copy of `value` with the node at `nodePaths(value)[pick % count]` replaced by `replacement`;
 * `undefined` removes it (an object's key disappears once serialized).
 */
export function mutatedAt(value: Json, pick: number, replacement: Json | undefined): Json | undefined {
  const paths = nodePaths(value);
  const path = paths[pick % paths.length] ?? [];
  if (path.length === 0) return replacement;
  // Not structuredClone: a key named __proto__ must stay an own key (JSON.parse makes it one), or
  // walking to it would reach Object.prototype and the mutation would change every object.
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  let node = copy as Record<string | number, Json | undefined>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json | undefined>;
  const last = path.at(-1) as string | number;
  if (replacement === undefined && !Array.isArray(node)) delete node[last];
  else
    Object.defineProperty(node, last, {
      value: replacement ?? null,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

/** `depth` arrays or objects nested in one another around `leaf`. */
export function nested(depth: number, arrays: boolean, leaf: Json = 1): Json {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = arrays ? [value] : { a: value };
  return value;
}

/**
 * Hostile values: wrong types, edge numbers, empty, long and unicode strings (lone surrogates,
 * NUL, controls), deep nesting, prototype keys.
 */
export const hostileValues: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Json>(
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      -1e308,
      2 ** 53 + 1,
      "",
      " ",
      "\u0000",
      "a\u0000b",
      "\r\n",
      "\ud800",
      "‮evil",
      "😀".repeat(50),
      [],
      {},
      [null],
      JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}}}'),
      "../../etc/passwd",
      "${env:HOME}",
      "' or 1=1 --",
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 200_000 }).map((length) => "x".repeat(length)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 20, max: 300 }), fc.boolean())
      .map(([depth, arrays]) => nested(depth, arrays)),
  },
  { weight: 1, arbitrary: fc.array(fc.constant("item"), { minLength: 1000, maxLength: 5000 }) },
);
