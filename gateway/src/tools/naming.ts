/**
 * Names clients see: tool names (MCP: 1-128 of `[A-Za-z0-9_.-]`, unique) and argument names
 * (the same alphabet, at most 64 characters, the strictest limit among the LLM APIs that hosts
 * forward tool schemas to). Invalid characters become `_`; a taken name gets `_2`, `_3`, … in the
 * order names are claimed, so the same input always yields the same names.
 */

const invalidCharacters = /[^A-Za-z0-9_.-]/g;

export const MAX_TOOL_NAME_LENGTH = 128;
export const MAX_PROPERTY_NAME_LENGTH = 64;

/** `raw` in the allowed alphabet, cut to `max` characters; `fallback` when nothing is left. */
export function validName(raw: string, max: number, fallback: string): string {
  const name = raw.replace(invalidCharacters, "_").slice(0, max);
  return name === "" ? fallback : name;
}

export type NameAllocator = {
  /** `base` when free, else the first free `base_2`, `base_3`, … (cut so the suffix fits in `max`). */
  claim(base: string): string;
  has(name: string): boolean;
};

export function createNameAllocator(max: number, taken: Iterable<string> = []): NameAllocator {
  const used = new Set(taken);
  return {
    claim(base) {
      let name = base.slice(0, max);
      for (let n = 2; used.has(name); n++) {
        const suffix = `_${n}`;
        name = base.slice(0, max - suffix.length) + suffix;
      }
      used.add(name);
      return name;
    },
    has: (name) => used.has(name),
  };
}
