/**
 * A `pattern` written for another regex dialect (PCRE, Java, Python, or ECMAScript without the
 * `u` flag) rewritten to ECMAScript in Unicode mode: the dialect JSON Schema validators compile
 * patterns in (ajv's default, so the gateways' and most MCP clients'). A client that cannot compile
 * one tool's schema may drop the whole tool list, so the importer rewrites what it can here and
 * drops the rest (json-schema.ts).
 *
 * Only rewrites that keep the meaning are made:
 * - identity escapes of characters that need none (`\_`, `\#`, `\-` outside a class, `\@`) lose
 *   their backslash;
 * - a `-` between a class escape and another class member (`[\w-.]`) is escaped (`[\w\-.]`);
 * - a lone `{`, `}` or `]` is escaped; `[:alpha:]` and the other POSIX classes become ranges;
 * - a quantified assertion (`(?!\.)+`, `\b*`) becomes the assertion itself when it must match at
 *   least once, and an optional group around it otherwise;
 * - `\A` `\z` `\Z`, `\a` `\e`, octal `\012`, `\x{…}`, `\pL`, `\p{Greek}` (a script), Python's
 *   `(?P<name>…)` and `(?P=name)`, `\Q…\E` and `(?#…)` comments are spelled the ECMAScript way.
 * What has no equivalent (possessive quantifiers, atomic groups, inline flags, `\G`, recursion…)
 * or is no regex at all is dropped, with the reason.
 */
import { unicodeRegexProblem as unicodePatternProblem } from "@atrium/crds";

export type UnicodePattern =
  | { kind: "unchanged" }
  | { kind: "rewritten"; pattern: string; changes: string[] }
  | { kind: "dropped"; reason: string };

export function toUnicodePattern(pattern: string): UnicodePattern {
  const problem = unicodePatternProblem(pattern);
  if (problem === undefined) return { kind: "unchanged" };
  const rewritten = new Rewriter(pattern).run();
  if ("reason" in rewritten) return { kind: "dropped", reason: rewritten.reason };
  if (unicodePatternProblem(rewritten.pattern) !== undefined) return { kind: "dropped", reason: problem };
  return { kind: "rewritten", pattern: rewritten.pattern, changes: rewritten.changes };
}

class NoEquivalent extends Error {}

const syntaxCharacters = new Set("^$\\.*+?()[]{}|/");
const classEscapes = new Set("dDwWsS");
const controlEscapes = new Set("fnrtv");
const posixClasses: Record<string, string> = {
  alpha: "A-Za-z",
  digit: "0-9",
  alnum: "A-Za-z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: "\\t\\n\\v\\f\\r ",
  blank: " \\t",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
  punct: "!-\\/:-@\\[-`{-~",
  cntrl: "\\x00-\\x1F\\x7F",
  print: " -~",
  graph: "!-~",
};
const lookahead = 256;
const quantifierPattern = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/;

/** One piece the rewriter emitted that a quantifier may follow: the index of its first piece in the output. */
type Atom = { start: number; assertion: boolean };

class Rewriter {
  /** The output in pieces: a quantified assertion rewraps its own pieces, not a copy of all before it. */
  private readonly out: string[] = [];
  private at = 0;
  private readonly changes = new Set<string>();
  private readonly groups: Atom[] = [];
  private last: Atom | undefined;

  private readonly source: string;

  constructor(source: string) {
    this.source = source;
  }

  run(): { pattern: string; changes: string[] } | { reason: string } {
    try {
      while (this.at < this.source.length) this.term();
      return { pattern: this.out.join(""), changes: [...this.changes] };
    } catch (error) {
      if (error instanceof NoEquivalent) return { reason: error.message };
      throw error;
    }
  }

  /**
   * What follows, as far as any construct looks ahead (a group name, a property name): a bounded
   * window, so a long pattern costs linear time, not a copy of its rest at every character.
   */
  private rest(): string {
    return this.source.slice(this.at, this.at + lookahead);
  }

  private peek(offset = 0): string {
    return this.source[this.at + offset] ?? "";
  }

  private emit(text: string, assertion = false): void {
    this.last = { start: this.out.length, assertion };
    this.out.push(text);
  }

  private term(): void {
    const c = this.peek();
    const quantifier = quantifierPattern.exec(this.rest());
    if (quantifier && this.last) {
      this.quantify(quantifier);
      return;
    }
    this.at++;
    switch (c) {
      case "\\":
        this.escape();
        return;
      case "[":
        this.characterClass();
        return;
      case "(":
        this.openGroup();
        return;
      case ")": {
        this.out.push(")");
        this.last = this.groups.pop() ?? { start: this.out.length - 1, assertion: false };
        return;
      }
      case "|":
        this.out.push(c);
        this.last = undefined;
        return;
      case "^":
      case "$":
        this.emit(c, true);
        return;
      case "{":
      case "}":
      case "]":
        this.changes.add(`a lone ${c} is escaped`);
        this.emit(`\\${c}`);
        return;
      default:
        this.emit(c);
        return;
    }
  }

  private quantify(match: RegExpExecArray): void {
    const text = match[0];
    this.at += text.length;
    let suffix = "";
    if (this.peek() === "+") throw new NoEquivalent(`the possessive quantifier ${text}+ has no ECMAScript equivalent`);
    if (this.peek() === "?") {
      suffix = "?";
      this.at++;
    }
    const atom = this.last as Atom;
    this.last = undefined;
    if (!atom.assertion) {
      this.out.push(text + suffix);
      return;
    }
    // An assertion matches nothing: repeating it changes nothing, and an optional one is an empty alternative.
    const min = text === "+" ? 1 : match[1] === undefined ? 0 : Number(match[1]);
    this.changes.add("a quantified assertion is written without its quantifier");
    if (min >= 1) return;
    const assertion = this.out.splice(atom.start).join("");
    this.out.push(suffix === "?" ? `(?:|${assertion})` : `(?:${assertion}|)`);
  }

  /** A group's opening: a quantifier right after it has nothing to repeat, not the atom before the group. */
  private open(text: string, assertion: boolean): void {
    this.groups.push({ start: this.out.length, assertion });
    this.out.push(text);
    this.last = undefined;
  }

  private openGroup(): void {
    const rest = this.rest();
    if (!rest.startsWith("?")) {
      this.open("(", false);
      return;
    }
    const lookaround = /^\?(?:=|!|<=|<!)/.exec(rest);
    if (lookaround) {
      this.open(`(${lookaround[0]}`, true);
      this.at += lookaround[0].length;
      return;
    }
    const named = /^\?P?<([A-Za-z_$][\w$]*)>/.exec(rest);
    if (named || rest.startsWith("?:")) {
      if (named?.[0].startsWith("?P")) this.changes.add("(?P<name>…) is written (?<name>…)");
      const opening = named ? `?<${named[1]}>` : "?:";
      this.open(`(${opening}`, false);
      this.at += (named?.[0] ?? opening).length;
      return;
    }
    const pythonBackreference = /^\?P=([A-Za-z_$][\w$]*)\)/.exec(rest);
    if (pythonBackreference) {
      this.changes.add("(?P=name) is written \\k<name>");
      this.at += pythonBackreference[0].length;
      this.emit(`\\k<${pythonBackreference[1]}>`);
      return;
    }
    if (rest.startsWith("?#")) {
      const end = this.source.indexOf(")", this.at);
      if (end < 0) throw new NoEquivalent("a (?#… comment is not closed");
      this.changes.add("(?#…) comments are removed");
      this.at = end + 1;
      return;
    }
    const modifiers = /^\?[a-zA-Z-]+:/.exec(rest);
    if (modifiers) {
      // modifiers such as (?i:…): ECMAScript has them; the final check says whether this runtime does
      this.open(`(${modifiers[0]}`, false);
      this.at += modifiers[0].length;
      return;
    }
    throw new NoEquivalent(groupProblem(rest));
  }

  /** After a backslash outside a class. */
  private escape(): void {
    const c = this.peek();
    if (c === "") throw new NoEquivalent("it ends with a lone backslash");
    if (c === "b" || c === "B") {
      this.at++;
      this.emit(`\\${c}`, true);
      return;
    }
    const anchors: Record<string, string> = { A: "^", z: "$", Z: "(?=\\n?$)" };
    const anchor = anchors[c];
    if (anchor !== undefined) {
      this.at++;
      this.changes.add(`\\${c} is written ${anchor}`);
      this.emit(anchor, true);
      return;
    }
    if (c === "Q") {
      this.quoted();
      return;
    }
    if (c === "E") {
      this.at++;
      this.changes.add("a stray \\E is removed");
      return;
    }
    const groupName = /^k<[A-Za-z_$][\w$]*>/.exec(this.rest());
    if (groupName) {
      this.at += groupName[0].length;
      this.emit(`\\${groupName[0]}`);
      return;
    }
    if (c === "k" && /^k[{']/.test(this.rest())) {
      const name = /^k(?:\{(\w+)\}|'(\w+)')/.exec(this.rest());
      if (!name) throw new NoEquivalent("a \\k backreference without a name");
      this.at += name[0].length;
      this.changes.add("\\k{name} is written \\k<name>");
      this.emit(`\\k<${name[1] ?? name[2]}>`);
      return;
    }
    if (/[1-9]/.test(c)) {
      const digits = /^\d+/.exec(this.rest())?.[0] ?? c;
      this.at += digits.length;
      this.emit(`\\${digits}`);
      return;
    }
    this.emit(this.commonEscape(false));
  }

  /** An escape valid both in and out of a class, after its backslash: its ECMAScript Unicode-mode spelling. */
  private commonEscape(inClass: boolean): string {
    const c = this.peek();
    const rest = this.rest();
    this.at++;
    if (syntaxCharacters.has(c) || classEscapes.has(c) || controlEscapes.has(c)) return `\\${c}`;
    if (c === "-" && inClass) return "\\-";
    if (c === "0") {
      const octal = /^0[0-7]{0,2}/.exec(rest)?.[0] ?? "0";
      this.at += octal.length - 1;
      if (octal === "0" && !/[0-9]/.test(this.peek())) return "\\0";
      this.changes.add("octal escapes are written \\xHH");
      return `\\x${Number.parseInt(octal, 8).toString(16).padStart(2, "0").toUpperCase()}`;
    }
    if (c === "c" && /^[A-Za-z]/.test(this.peek())) return `\\c${this.source[this.at++]}`;
    if (c === "x") {
      const braced = /^x\{([0-9A-Fa-f]+)\}/.exec(rest);
      if (braced) {
        this.at += braced[0].length - 1;
        this.changes.add("\\x{…} is written \\u{…}");
        return `\\u{${braced[1]}}`;
      }
      return "\\x";
    }
    if (c === "u") return "\\u";
    if (c === "p" || c === "P") return this.property(c, rest);
    const spelled: Record<string, string> = { a: "\\x07", e: "\\x1B" };
    const equivalent = spelled[c];
    if (equivalent !== undefined) {
      this.changes.add(`\\${c} is written ${equivalent}`);
      return equivalent;
    }
    if (/[A-Za-z0-9]/.test(c))
      throw new NoEquivalent(`\\${c} has no ECMAScript equivalent${inClass ? " in a class" : ""}`);
    // Any other character needs no escape: the Unicode mode refuses the needless backslash.
    const literal = String.fromCodePoint(rest.codePointAt(0) ?? 0);
    this.at += literal.length - 1;
    this.changes.add("needless escapes (identity escapes such as \\_ or \\#) lose their backslash");
    return literal;
  }

  /** `\p{…}`, `\pL`, and scripts named alone (`\p{Greek}`), as ECMAScript spells them. */
  private property(c: string, rest: string): string {
    const braced = /^[pP]\{([^}]*)\}/.exec(rest);
    const single = /^[pP]([A-Z])/.exec(rest);
    const name = braced?.[1] ?? single?.[1];
    if (name === undefined) throw new NoEquivalent(`\\${c} without a property name`);
    this.at += (braced ?? single)?.[0].length ?? 1;
    this.at--;
    const written = `\\${c}{${name}}`;
    if (unicodePatternProblem(written) === undefined) {
      if (!braced) this.changes.add(`\\${c}X is written \\${c}{X}`);
      return written;
    }
    const script = `\\${c}{Script=${name}}`;
    if (unicodePatternProblem(script) === undefined) {
      this.changes.add(`a script named alone is written \\${c}{Script=…}`);
      return script;
    }
    throw new NoEquivalent(`\\${c}{${name}} names no Unicode property ECMAScript knows`);
  }

  /** `\Q…\E`: every character literal. */
  private quoted(): void {
    this.at++;
    const end = this.source.indexOf("\\E", this.at);
    const text = this.source.slice(this.at, end < 0 ? undefined : end);
    this.at = end < 0 ? this.source.length : end + 2;
    this.changes.add("\\Q…\\E is written with escapes");
    for (const character of text) this.emit(syntaxCharacters.has(character) ? `\\${character}` : character);
  }

  private characterClass(): void {
    const start = this.out.length;
    this.out.push("[");
    if (this.peek() === "^") {
      this.out.push("^");
      this.at++;
    }
    let previousWasClassEscape = false;
    for (;;) {
      const c = this.peek();
      if (c === "") throw new NoEquivalent("a character class is not closed");
      this.at++;
      if (c === "]") break;
      let item: string;
      let isClassEscape = false;
      if (c === "[" && this.peek() === ":") {
        const posix = /^:([a-z]+):\]/.exec(this.rest());
        const ranges = posix ? posixClasses[posix[1] ?? ""] : undefined;
        if (!posix || ranges === undefined) throw new NoEquivalent("an unknown POSIX class [:…:]");
        this.at += posix[0].length;
        this.changes.add("POSIX classes such as [:alpha:] are written as ranges");
        item = ranges;
        isClassEscape = true;
      } else if (c === "\\") {
        const next = this.peek();
        if (next === "b") {
          this.at++;
          item = "\\b";
        } else {
          isClassEscape = classEscapes.has(next) || next === "p" || next === "P";
          item = this.commonEscape(true);
        }
      } else if (c === "-") {
        const next = this.rest();
        const nextIsClass = /^\\[dDwWsSpP]|^\[:/.test(next);
        if ((previousWasClassEscape || nextIsClass) && next[0] !== "]") {
          this.changes.add("a - beside a class escape is escaped");
          item = "\\-";
        } else {
          item = "-";
        }
      } else if (c === "[") {
        item = "\\[";
      } else {
        item = c;
      }
      this.out.push(item);
      previousWasClassEscape = isClassEscape;
    }
    this.out.push("]");
    this.last = { start, assertion: false };
  }
}

function groupProblem(rest: string): string {
  if (rest.startsWith("?>")) return "an atomic group (?>…) has no ECMAScript equivalent";
  if (rest.startsWith("?(")) return "a conditional group (?(…) has no ECMAScript equivalent";
  if (rest.startsWith("?|")) return "a branch-reset group (?|…) has no ECMAScript equivalent";
  if (/^\?[a-zA-Z-]+\)/.test(rest)) return "inline flags such as (?i) have no ECMAScript equivalent";
  if (/^\?(?:R|[+-]?\d|&|P>)/.test(rest)) return "recursion such as (?R) has no ECMAScript equivalent";
  return `the group (${rest.slice(0, 3)}… has no ECMAScript equivalent`;
}
