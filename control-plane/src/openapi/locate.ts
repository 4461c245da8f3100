/**
 * From a JSON pointer to a line and column of the submitted text (JSON or YAML), following
 * internal `$ref`s: the parser reports paths in the dereferenced document, where a referenced
 * schema sits inline, while the user has to edit it where it is written.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { SourceLocation } from "./errors.ts";
import { pointerSegments, refToPointer } from "./json-pointer.ts";

const maxRefHops = 32;

type Found = { node: Node; offset: number };

export type Locate = (pointer: string) => SourceLocation;

/** A locator for one text; the text is parsed once, on first use (only errors need it). */
export function textLocator(text: string): Locate {
  let locate: Locate | undefined;
  return (pointer) => {
    locate ??= parseForLocations(text);
    return locate(pointer);
  };
}

function parseForLocations(text: string): Locate {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const root = document.contents;
  if (!root) return (pointer) => ({ pointer });

  const resolveAlias = (node: Node): Node =>
    isAlias(node) ? ((node.resolve(document) as Node | undefined) ?? node) : node;

  // Walks as far as the text allows: an unreachable tail still yields the closest enclosing node.
  const walk = (start: Found, segments: string[], hops: number): Found => {
    let current = start;
    for (const segment of segments) {
      const node = resolveAlias(current.node);
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
        if (pair && isScalar(pair.key)) {
          current = { node: pair.value as Node, offset: pair.key.range?.[0] ?? current.offset };
          continue;
        }
        const refPair = node.items.find((item) => isScalar(item.key) && item.key.value === "$ref");
        const target = refPair && isScalar(refPair.value) ? refToPointer(String(refPair.value.value)) : undefined;
        if (target === undefined || hops >= maxRefHops) return current;
        const referenced = walk({ node: root, offset: 0 }, pointerSegments(target), hops + 1);
        current = walk(referenced, [segment], hops + 1);
        if (current === referenced) return current;
        continue;
      }
      if (isSeq(node)) {
        const item = node.items[Number(segment)] as Node | undefined;
        if (!/^\d+$/.test(segment) || !item) return current;
        current = { node: item, offset: item.range?.[0] ?? current.offset };
        continue;
      }
      return current;
    }
    return current;
  };

  return (pointer) => {
    const found = walk({ node: root, offset: root.range?.[0] ?? 0 }, pointerSegments(pointer), 0);
    const position = lineCounter.linePos(found.offset);
    return { pointer, line: position.line, column: position.col };
  };
}
