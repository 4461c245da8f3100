import { fuzzParameters } from "@atrium/reliability/fuzz";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toUnicodePattern } from "./unicode-pattern.ts";

const rewritten = (pattern: string) => {
  const result = toUnicodePattern(pattern);
  if (result.kind !== "rewritten") throw new Error(`${pattern}: ${JSON.stringify(result)}`);
  return result.pattern;
};
const dropped = (pattern: string) => {
  const result = toUnicodePattern(pattern);
  if (result.kind !== "dropped") throw new Error(`${pattern}: ${JSON.stringify(result)}`);
  return result.reason;
};

/** The rewrite matches what the original matched in ECMAScript without the `u` flag, on each sample. */
function sameMatches(original: string, samples: string[]): void {
  const before = new RegExp(original);
  const after = new RegExp(rewritten(original), "u");
  for (const sample of samples) expect([sample, after.test(sample)]).toEqual([sample, before.test(sample)]);
}

describe("toUnicodePattern", () => {
  it("leaves a pattern the Unicode mode compiles as it is", () => {
    for (const pattern of ["^[a-z]+$", "^\\p{L}+$", "[\\-]", "(?<year>\\d{4})-\\k<year>", "^(?i:abc)$", "[\\b]"])
      expect(toUnicodePattern(pattern)).toEqual({ kind: "unchanged" });
  });

  it("removes identity escapes, inside and outside classes", () => {
    expect(rewritten("^a\\_b$")).toBe("^a_b$");
    expect(rewritten("^[\\w\\#\\@]+$")).toBe("^[\\w#@]+$");
    expect(rewritten("^\\-?\\d+$")).toBe("^-?\\d+$");
    expect(rewritten("^[a-z\\-\\_]+$")).toBe("^[a-z\\-_]+$");
    expect(rewritten("\\/\\:\\é")).toBe("\\/:é");
    sameMatches("^[\\w\\#\\_\\:]+\\@[a-z]+$", ["a#b@x", "a_b:c@yz", "a b@x", "@x", "ab@X"]);
    expect(toUnicodePattern("^a\\_b$")).toMatchObject({
      changes: ["needless escapes (identity escapes such as \\_ or \\#) lose their backslash"],
    });
  });

  it("escapes a - beside a class escape, and lone braces and brackets", () => {
    expect(rewritten("^[\\w-.]+$")).toBe("^[\\w\\-.]+$");
    expect(rewritten("[.-\\d]")).toBe("[.\\-\\d]");
    sameMatches("^[\\w-.]+$", ["a-b.c", "a b", "-", "."]);
    expect(rewritten("^{a}$")).toBe("^\\{a\\}$");
    expect(rewritten("a{,5}")).toBe("a\\{,5\\}");
    expect(rewritten("^a]$")).toBe("^a\\]$");
    sameMatches("^{a}]$", ["{a}]", "a"]);
  });

  it("writes a quantified lookahead as the group itself, or as an optional group", () => {
    expect(rewritten("^(?!\\.)+[a-z.]+$")).toBe("^(?!\\.)[a-z.]+$");
    expect(rewritten("^(?=a){2,}a")).toBe("^(?=a)a");
    expect(rewritten("^(?=(a))*a")).toBe("^(?:(?=(a))|)a");
    expect(rewritten("^(?!x)??b")).toBe("^(?:|(?!x))b");
    expect(rewritten("\\b+x")).toBe("\\bx");
    sameMatches("^(?!\\.)+[a-z.]+$", ["a.b", ".a", "a", ""]);
  });

  it("spells PCRE, Java and Python forms the ECMAScript way", () => {
    expect(rewritten("\\Aabc\\z")).toBe("^abc$");
    expect(rewritten("abc\\Z")).toBe("abc(?=\\n?$)");
    expect(rewritten("(?P<id>\\d+)-(?P=id)")).toBe("(?<id>\\d+)-\\k<id>");
    expect(rewritten("\\k{id}(?<id>a)")).toBe("\\k<id>(?<id>a)");
    expect(rewritten("^\\pL+$")).toBe("^\\p{L}+$");
    expect(rewritten("^\\p{Greek}+$")).toBe("^\\p{Script=Greek}+$");
    expect(rewritten("^[[:alpha:]_][[:alnum:]]*$")).toBe("^[A-Za-z_][A-Za-z0-9]*$");
    expect(rewritten("\\x{41}\\012\\e")).toBe("\\u{41}\\x0A\\x1B");
    expect(rewritten("^\\Q1.5+\\E(?#version)$")).toBe("^1\\.5\\+$");
    // POSIX classes mean nothing to ECMAScript: checked against what they mean in PCRE.
    const posix = new RegExp(rewritten("^[[:alpha:]][[:alnum:]\\-]*$"), "u");
    expect(["a1-b", "1a", "a_", "Zz9"].map((sample) => posix.test(sample))).toEqual([true, false, false, true]);
  });

  it("takes linear time: a pattern of a million characters is rewritten at once", () => {
    const started = performance.now();
    expect(rewritten("\\_".repeat(500_000))).toBe("_".repeat(500_000));
    expect(performance.now() - started).toBeLessThan(5_000);
    // each quantified assertion rewraps only itself (it copied all the output before it: 28 s for these)
    const assertions = performance.now();
    expect(rewritten(`\\_${"\\b*".repeat(100_000)}`)).toBe(`_${"(?:\\b|)".repeat(100_000)}`);
    expect(performance.now() - assertions).toBeLessThan(5_000);
  });

  it("keeps a modifiers group after an assertion, and repeats nothing with a quantifier opening a group", () => {
    // the (?i: opening was read as a ? quantifying the ^ before it: (?:^(|)i:b)_ matched "i:b_"
    expect(rewritten("^(?i:b)\\_")).toBe("^(?i:b)_");
    expect(rewritten("x\\b(?-i:b)+\\_")).toBe("x\\b(?-i:b)+_");
    sameMatches("^(?i:b)\\_", ["b_", "B_", "i:b_", "xb_"]);
    expect(dropped("^(*)\\_")).toBe("Nothing to repeat");
    expect(dropped("\\b(?<n>+)\\_")).toBe("Nothing to repeat");
  });

  it("drops what has no equivalent, saying why", () => {
    expect(dropped("^a++$")).toBe("the possessive quantifier ++ has no ECMAScript equivalent");
    expect(dropped("(?>a|ab)c")).toBe("an atomic group (?>…) has no ECMAScript equivalent");
    expect(dropped("(?i)abc")).toBe("inline flags such as (?i) have no ECMAScript equivalent");
    expect(dropped("\\Gabc")).toBe("\\G has no ECMAScript equivalent");
    expect(dropped("(a)(?1)")).toBe("recursion such as (?R) has no ECMAScript equivalent");
    expect(dropped("[\\B]")).toBe("\\B has no ECMAScript equivalent in a class");
    expect(dropped("\\p{Nope}")).toBe("\\p{Nope} names no Unicode property ECMAScript knows");
    expect(dropped("[")).toBe("a character class is not closed");
    expect(dropped("(")).toBe("Unterminated group");
    expect(dropped("a**")).toBe("Nothing to repeat");
    expect(dropped("\\")).toBe("it ends with a lone backslash");
  });

  it("keeps the meaning: generated patterns match what they matched in ECMAScript without the u flag", () => {
    // Pieces whose meaning ECMAScript without `u` (Annex B) shares with the other dialects.
    const piece = fc.constantFrom(
      "a",
      "b",
      "-",
      ".",
      "_",
      "\\_",
      "\\-",
      "\\#",
      "\\@",
      "[\\w-.]",
      "[a\\_\\-]",
      "[.-\\d]",
      "{",
      "}",
      "]",
      "(?=a)+",
      "(?!b)*",
      "(?!\\.)?",
      "\\d",
      "x{2}",
      "(a|b)",
      "^",
      "$",
      "+",
      "*",
    );
    const samples = fc.array(
      fc.string({ unit: fc.constantFrom("a", "b", "x", "_", "-", ".", "#", "@", "1", "{", "}", "]") }),
      {
        minLength: 1,
        maxLength: 8,
      },
    );
    const { numRuns, seed } = fuzzParameters(2_000);
    let compared = 0;
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), samples, (pieces, inputs) => {
        const pattern = pieces.join("");
        let before: RegExp;
        try {
          before = new RegExp(pattern);
        } catch {
          return; // not a pattern in any of these dialects
        }
        const result = toUnicodePattern(pattern);
        expect(result.kind, pattern).not.toBe("dropped");
        const after = new RegExp(result.kind === "rewritten" ? result.pattern : pattern, "u");
        for (const input of inputs)
          expect([pattern, input, after.test(input)]).toEqual([pattern, input, before.test(input)]);
        compared++;
      }),
      { numRuns, seed },
    );
    expect(compared).toBeGreaterThan(numRuns / 4);
  });
});
