/**
 * Copies into plain JSON: fresh objects and arrays only (no shared or cyclic nodes, no prototype
 * tricks), so that what the import stores survives `JSON.stringify` and can be mutated safely.
 */
import { setOwn } from "@atrium/contract/json-schema";
import { childPointer } from "./json-pointer.ts";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A `$ref` met while copying, and where. */
export type RefSite = { ref: string; pointer: string };

export type CopyOptions = {
  /** Pointer of `value` within its document, for `refs` and `onCycle`. */
  pointer?: string;
  /** Receives every string `$ref` in the copied tree. */
  refs?: RefSite[];
  /** Builds the error thrown when a node contains itself. */
  onCycle: (pointer: string) => Error;
};

export { setOwn };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep copy with JSON semantics: non-finite numbers become null, undefined members are dropped. */
export function copyJson(value: unknown, options: CopyOptions): JsonValue {
  const ancestors = new Set<object>();
  const copy = (node: unknown, pointer: string): JsonValue => {
    if (node === null || typeof node === "string" || typeof node === "boolean") return node;
    if (typeof node === "number") return Number.isFinite(node) ? node : null;
    if (typeof node !== "object") return null;
    if (ancestors.has(node)) throw options.onCycle(pointer);
    ancestors.add(node);
    let result: JsonValue;
    if (Array.isArray(node)) {
      result = node.map((item, index) => copy(item, childPointer(pointer, index)));
    } else {
      const object: JsonObject = {};
      for (const [key, member] of Object.entries(node)) {
        if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
        if (key === "$ref" && typeof member === "string") options.refs?.push({ ref: member, pointer });
        setOwn(object, key, copy(member, childPointer(pointer, key)));
      }
      result = object;
    }
    ancestors.delete(node);
    return result;
  };
  return copy(value, options.pointer ?? "");
}
