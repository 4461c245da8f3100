/**
 * The hard limits of an import, in one place: what a document may cost the control plane.
 * docs/security.md ("Import limits") lists them; keep the two in step.
 */
import { tooDeep } from "./errors.ts";
import { childPointer } from "./json-pointer.ts";
import type { Locate } from "./locate.ts";

/** Largest document accepted, downloaded or inline, in bytes of UTF-8. */
export const defaultMaxBytes = 10 * 1024 * 1024;
/** Deepest nesting of objects and arrays in the document as written. */
export const maxDocumentDepth = 128;
/** Nodes the validator may see once non-schema `$ref`s are followed. */
export const maxValidationNodes = 2_000_000;
/** Nodes of the stored operations: every schema with its `$defs`, and the `x-` extensions. */
export const maxSchemaNodes = 2_000_000;
/** Import warnings kept with a Service (the first ones, in document order): every answer about it carries them. */
export const maxImportWarnings = 100;
/** Wall-clock time one import may take in its worker thread (parse, validate, normalize). */
// A 10 MiB document takes a few seconds on an idle core; the budget leaves room for a busy machine.
export const defaultImportBudgetMs = 60_000;
/** Heap of the import's worker thread; a document needing more is refused. */
export const importHeapMb = 512;
/** Imports running at once; more wait their turn, so imports cannot exhaust the cores or memory. */
export const maxConcurrentImports = 2;
/** An import worker idle this long is stopped (and started again by the next import). */
export const idleWorkerMs = 60_000;

/**
 * Refuses a parsed document nested deeper than `maxDepth`, or containing itself (a YAML alias of
 * an ancestor), before anything recursive walks it.
 */
export function checkDepth(tree: unknown, maxDepth: number, locate: Locate, onCycle: (pointer: string) => Error): void {
  // Each entry links to its parent: the pointer is only spelled out for an error.
  type Entry = { node: object; depth: number; key: string | number; parent: Entry | undefined; leave?: true };
  const pointerOf = (entry: Entry): string => (entry.parent ? childPointer(pointerOf(entry.parent), entry.key) : "");
  const onPath = new Set<object>();
  // `leave` entries take a node off the current path once its children are done.
  const stack: Entry[] = [];
  if (tree !== null && typeof tree === "object") stack.push({ node: tree, depth: 0, key: "", parent: undefined });
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, depth } = next;
    if (next.leave) {
      onPath.delete(node);
      continue;
    }
    if (onPath.has(node)) throw onCycle(pointerOf(next));
    if (depth >= maxDepth) throw tooDeep(maxDepth, locate(pointerOf(next)));
    onPath.add(node);
    stack.push({ ...next, leave: true });
    const entries = Array.isArray(node) ? node.entries() : Object.entries(node);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === "object") stack.push({ node: child, depth: depth + 1, key, parent: next });
    }
  }
}
