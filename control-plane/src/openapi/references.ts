/**
 * The `$ref`s of a document, checked before any library follows them:
 * - only internal references (`#/...`) are allowed, `$ref` or `$dynamicRef`/`$recursiveRef` alike;
 * - every internal reference must be a JSON pointer (`#/...`, not a `#anchor`) to something, and
 *   a chain of references must end in a
 *   value (`A → B → A` is refused, where it would otherwise leave a hole in an operation);
 * - the validator gets a copy in which references to schemas are cut (each schema is validated
 *   where it is written), and that copy, references followed, must stay under a node budget, so
 *   no document makes validation exponential.
 */
import { anchorRef, cyclicRef, dynamicRef, expandsTooMuch, externalRef, missingRef } from "./errors.ts";
import { childPointer, pointerSegments, refToPointer } from "./json-pointer.ts";
import type { Locate } from "./locate.ts";
import { isPlainObject, type JsonValue, type RefSite } from "./plain-json.ts";

/** Refuses external references, dangling pointers and chains of references that end nowhere. */
export function checkReferences(tree: JsonValue, refs: RefSite[], locate: Locate): void {
  const external = refs.filter(({ ref }) => !ref.startsWith("#"));
  const [firstExternal] = external;
  if (firstExternal) {
    throw externalRef(firstExternal.ref, locate(childPointer(firstExternal.pointer, "$ref")), external.length - 1);
  }
  for (const site of refs) {
    const at = childPointer(site.pointer, "$ref");
    const seen = new Set<string>();
    let ref = site.ref;
    // Follows `{ $ref }` → `{ $ref }` hops; anything else is left to the parser.
    for (;;) {
      const pointer = refToPointer(ref);
      // `#anchor` forms are left unresolved by the parser, which would store a schema that accepts anything.
      if (pointer === undefined) throw anchorRef(ref, locate(at));
      if (seen.has(pointer)) throw cyclicRef(site.ref, locate(at));
      seen.add(pointer);
      const target = resolvePointer(tree, pointer);
      if (target === missing) throw missingRef(ref, locate(at));
      if (!isPlainObject(target) || typeof target.$ref !== "string" || !target.$ref.startsWith("#")) break;
      ref = target.$ref;
    }
  }
}

/** Refuses `$dynamicRef` / `$recursiveRef` that point outside the document. */
export function checkDynamicRefs(tree: JsonValue, locate: Locate): void {
  walk(tree, (node, pointer) => {
    for (const keyword of ["$dynamicRef", "$recursiveRef"]) {
      const value = node[keyword];
      if (value !== undefined && (typeof value !== "string" || !value.startsWith("#"))) {
        throw dynamicRef(keyword, value, locate(childPointer(pointer(), keyword)));
      }
    }
  });
}

/**
 * A copy of the document for the validator: a `$ref` to a schema is dropped (the schema is
 * validated where it is written), other references stay; the copy, once those are followed,
 * must hold at most `maxNodes` nodes.
 */
export function validationCopy(tree: JsonValue, maxNodes: number): JsonValue {
  const copy = structuredClone(tree);
  walk(copy, (node) => {
    if (typeof node.$ref === "string" && isSchemaPointer(refToPointer(node.$ref))) delete node.$ref;
  });
  if (expandedSize(copy, maxNodes) > maxNodes) throw expandsTooMuch(maxNodes);
  return copy;
}

/** Where schemas live: `#/components/schemas/...`, `#/definitions/...`, or inside a `schema`. */
function isSchemaPointer(pointer: string | undefined): boolean {
  if (pointer === undefined) return false;
  const segments = pointerSegments(pointer);
  if (segments[0] === "components" && segments[1] === "schemas") return true;
  return segments[0] === "definitions" || segments.includes("schema") || segments.includes("$defs");
}

/** Nodes of `tree` with its internal references followed (a reference met inside itself counts 1). */
function expandedSize(tree: JsonValue, budget: number): number {
  const sizes = new Map<string, number>();
  const inProgress = new Set<string>();
  const size = (node: JsonValue): number => {
    if (node === null || typeof node !== "object") return 1;
    if (!Array.isArray(node) && typeof node.$ref === "string") {
      const pointer = refToPointer(node.$ref);
      if (pointer !== undefined) return 1 + sizeOfTarget(pointer);
    }
    let total = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      total += size(child);
      if (total > budget) return total;
    }
    return total;
  };
  const sizeOfTarget = (pointer: string): number => {
    const known = sizes.get(pointer);
    if (known !== undefined) return known;
    if (inProgress.has(pointer)) return 1;
    const target = resolvePointer(tree, pointer);
    if (target === missing) return 1;
    inProgress.add(pointer);
    const result = size(target);
    inProgress.delete(pointer);
    sizes.set(pointer, result);
    return result;
  };
  return size(tree);
}

const missing = Symbol("missing");

/** The value at `pointer`, or `missing`. */
export function resolvePointer(tree: JsonValue, pointer: string): JsonValue | typeof missing {
  let node: JsonValue = tree;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node) && /^\d+$/.test(segment) && Number(segment) < node.length) {
      node = node[Number(segment)] as JsonValue;
    } else if (isPlainObject(node) && Object.hasOwn(node, segment)) {
      node = node[segment] as JsonValue;
    } else {
      return missing;
    }
  }
  return node;
}

/**
 * Visits every object of a plain JSON tree, without recursion. `pointer()` spells out where the
 * object is (only errors need it, so it is not built for every node).
 */
function walk(tree: JsonValue, visit: (node: Record<string, JsonValue>, pointer: () => string) => void) {
  type Entry = { node: JsonValue; key: string | number; parent: Entry | undefined };
  const pointerOf = (entry: Entry): string => (entry.parent ? childPointer(pointerOf(entry.parent), entry.key) : "");
  const stack: Entry[] = [{ node: tree, key: "", parent: undefined }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node } = next;
    if (node === null || typeof node !== "object") continue;
    const parent = next;
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        stack.push({ node: item, key: index, parent });
      });
      continue;
    }
    visit(node, () => pointerOf(parent));
    for (const [key, child] of Object.entries(node)) stack.push({ node: child, key, parent });
  }
}
