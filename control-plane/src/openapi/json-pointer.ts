/**
 * JSON pointers (RFC 6901), the way every location in the import is expressed.
 */

/** Appends one key or index to a pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** The unescaped segments of a pointer; `""` (the whole document) has none. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The pointer of an internal `$ref` (`#/components/schemas/Pet`), or undefined for any other reference. */
export function refToPointer(ref: string): string | undefined {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return ref.slice(1);
  }
}
