/**
 * From a JSON pointer to a line and column of the submitted text (JSON or YAML), following
 * internal `$ref`s: the parser reports paths in the dereferenced document, where a referenced
 * schema sits inline, while the user has to edit it where it is written. The positions come from
 * the parse of the text itself (parse-text.ts): a YAML text's document, or for JSON one pass over
 * the text (json-positions.ts), taken on first use only (only errors need them).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node } from "yaml";
import type { SourceLocation } from "./errors.ts";
import { pointerSegments, refToPointer } from "./json-pointer.ts";
import { type JsonPositionNode, jsonPositions } from "./json-positions.ts";
import type { YamlPositions } from "./parse-text.ts";

const maxRefHops = 32;

export type Locate = (pointer: string) => SourceLocation;

/** A locator for one parsed text (`yaml`: its document, for a YAML text); positions are gathered on first use. */
export function textLocator(text: string, yaml: YamlPositions | undefined): Locate {
  let locate: Locate | undefined;
  return (pointer) => {
    locate ??= yaml ? locator(yamlTree(yaml)) : locator(jsonTree(text));
    return locate(pointer);
  };
}

/** What the walk needs of a parsed text: a value's members and items, and where each starts. */
type PositionTree<N> = {
  root: { node: N; offset: number } | undefined;
  /** A member of a mapping, starting at its key; undefined when `node` is no mapping or lacks it. */
  member(node: N, key: string): { node: N; offset: number } | undefined;
  /** An item of a sequence; undefined when `node` is no sequence or lacks it. */
  item(node: N, index: number): { node: N; offset: number } | undefined;
  isMap(node: N): boolean;
  /** A string scalar's value. */
  string(node: N): string | undefined;
  lineCounter: LineCounter;
};

type Found<N> = { node: N; offset: number };

function locator<N>(tree: PositionTree<N>): Locate {
  const { root } = tree;
  if (!root) return (pointer) => ({ pointer });

  // Walks as far as the text allows: an unreachable tail still yields the closest enclosing node.
  const walk = (start: Found<N>, segments: string[], hops: number): Found<N> => {
    let current = start;
    for (const segment of segments) {
      if (tree.isMap(current.node)) {
        const member = tree.member(current.node, segment);
        if (member) {
          current = member;
          continue;
        }
        const ref = tree.member(current.node, "$ref");
        const refText = ref && tree.string(ref.node);
        const target = refText === undefined ? undefined : refToPointer(refText);
        if (target === undefined || hops >= maxRefHops) return current;
        const referenced = walk(root, pointerSegments(target), hops + 1);
        current = walk(referenced, [segment], hops + 1);
        if (current === referenced) return current;
        continue;
      }
      const item = /^\d+$/.test(segment) ? tree.item(current.node, Number(segment)) : undefined;
      if (!item) return current;
      current = item;
    }
    return current;
  };

  return (pointer) => {
    const found = walk(root, pointerSegments(pointer), 0);
    const position = tree.lineCounter.linePos(found.offset);
    return { pointer, line: position.line, column: position.col };
  };
}

function yamlTree({ document, lineCounter }: YamlPositions): PositionTree<Node> {
  const resolve = (node: Node): Node => (isAlias(node) ? ((node.resolve(document) as Node | undefined) ?? node) : node);
  const root = document.contents as Node | null;
  return {
    root: root ? { node: root, offset: root.range?.[0] ?? 0 } : undefined,
    member(node, key) {
      const map = resolve(node);
      if (!isMap(map)) return undefined;
      const pair = map.items.find((item) => isScalar(item.key) && String(item.key.value) === key);
      if (!pair || !isScalar(pair.key)) return undefined;
      return { node: pair.value as Node, offset: pair.key.range?.[0] ?? 0 };
    },
    item(node, index) {
      const seq = resolve(node);
      const item = isSeq(seq) ? (seq.items[index] as Node | undefined) : undefined;
      return item && { node: item, offset: item.range?.[0] ?? 0 };
    },
    isMap: (node) => isMap(resolve(node)),
    string(node) {
      const scalar = resolve(node);
      return isScalar(scalar) ? String(scalar.value) : undefined;
    },
    lineCounter,
  };
}

function jsonTree(text: string): PositionTree<JsonPositionNode> {
  const root = jsonPositions(text);
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", newline + 1)) {
    lineCounter.addNewLine(newline + 1);
  }
  return {
    root: { node: root, offset: root.offset },
    member(node, key) {
      const member = node.kind === "object" ? node.members.get(key) : undefined;
      return member && { node: member.node, offset: member.keyOffset };
    },
    item(node, index) {
      const item = node.kind === "array" ? node.items[index] : undefined;
      return item && { node: item, offset: item.offset };
    },
    isMap: (node) => node.kind === "object",
    string: (node) => (node.kind === "scalar" ? node.value : undefined),
    lineCounter,
  };
}
