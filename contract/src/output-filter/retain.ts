/**
 * `retain` of an output filter: JSON Pointers (RFC 6901) of what to keep, with `*` standing for
 * every array item or object member. The pointers compile once into a tree; applying it walks only
 * the branches it names. A pointer that matches nothing keeps nothing: an object or array is kept
 * only when something under it is, and array items left with nothing are dropped (the others keep
 * their order).
 */
import { setOwn } from "../json-schema.ts";

/** One level of the pointers: keep the value whole, or the members named (literally or by `*`). */
export type RetainNode = {
  whole: boolean;
  children: Map<string, RetainNode>;
  any: RetainNode | undefined;
  /** A literal child merged with `any`, made on first use. */
  merged: Map<string, RetainNode>;
};

/** The tokens of a syntactically valid pointer (the schema checked it): `""` is the whole document. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function node(): RetainNode {
  return { whole: false, children: new Map(), any: undefined, merged: new Map() };
}

export function compileRetain(pointers: readonly string[]): RetainNode {
  const root = node();
  for (const pointer of pointers) {
    let at = root;
    for (const token of pointerTokens(pointer)) {
      if (at.whole) break;
      if (token === "*") {
        at.any ??= node();
        at = at.any;
      } else {
        let next = at.children.get(token);
        if (!next) {
          next = node();
          at.children.set(token, next);
        }
        at = next;
      }
    }
    at.whole = true;
  }
  return root;
}

function merge(a: RetainNode | undefined, b: RetainNode | undefined): RetainNode | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = node();
  out.whole = a.whole || b.whole;
  if (out.whole) return out;
  out.any = merge(a.any, b.any);
  for (const [key, child] of a.children) out.children.set(key, child);
  for (const [key, child] of b.children) out.children.set(key, merge(out.children.get(key), child) as RetainNode);
  return out;
}

/** What the pointers keep under member `key` (a literal child, `*`, or both merged). */
export function childOf(at: RetainNode, key: string): RetainNode | undefined {
  const literal = at.children.get(key);
  if (!literal || !at.any) return literal ?? at.any;
  let merged = at.merged.get(key);
  if (!merged) {
    merged = merge(literal, at.any) as RetainNode;
    at.merged.set(key, merged);
  }
  return merged;
}

const arrayIndex = /^(?:0|[1-9][0-9]*)$/;

/** The literal array indexes a node names, ascending. */
function indexesOf(at: RetainNode): number[] {
  return [...at.children.keys()]
    .filter((key) => arrayIndex.test(key))
    .map(Number)
    .sort((a, b) => a - b);
}

/** What `at` keeps of `value`; undefined when nothing. */
export function retainValue(value: unknown, at: RetainNode): unknown {
  if (at.whole) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    if (at.any) {
      for (let i = 0; i < value.length; i++) {
        const kept = retainValue(value[i], childOf(at, String(i)) as RetainNode);
        if (kept !== undefined) out.push(kept);
      }
    } else {
      for (const index of indexesOf(at)) {
        if (index >= value.length) break;
        const kept = retainValue(value[index], at.children.get(String(index)) as RetainNode);
        if (kept !== undefined) out.push(kept);
      }
    }
    return out.length > 0 ? out : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const object = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let kept = false;
  const keep = (key: string, child: RetainNode) => {
    const member = retainValue(object[key], child);
    if (member === undefined) return;
    setOwn(out, key, member);
    kept = true;
  };
  if (at.any) {
    for (const key of Object.keys(object)) keep(key, childOf(at, key) as RetainNode);
  } else {
    for (const [key, child] of at.children) if (Object.hasOwn(object, key)) keep(key, child);
  }
  return kept ? out : undefined;
}

/** `retain` applied to a tool's structuredContent: always an object (empty when nothing matched). */
export function retainDocument(document: Record<string, unknown>, at: RetainNode): Record<string, unknown> {
  return (retainValue(document, at) as Record<string, unknown> | undefined) ?? {};
}
