/**
 * Names clients see: tool names (MCP: 1-128 of `[A-Za-z0-9_.-]`, unique) and argument names
 * (the same alphabet, at most 64 characters, the strictest limit among the LLM APIs that hosts
 * forward tool schemas to). Invalid characters become `_`; a taken name gets `_2`, `_3`, … in the
 * order names are claimed, so the same input always yields the same names.
 *
 * Here, not in the gateway: the control plane names a plan's tools the same way to check, at
 * write time, the tool names a plan's toolOverrides use, and shows tools as gateways list them.
 */
import type { NormalizedOperation } from "./operation.ts";

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

/**
 * The tool names of an Exposition before its plan's overrides. Custom tool names are claimed
 * first, since their author chose them and cannot rename what the gateway would rename: an
 * operation whose name is taken (by a custom tool or an earlier operation) gets `_2`, `_3`, …,
 * in document order.
 */
export function defaultToolNames(
  customTools: readonly string[],
  operationIds: readonly string[],
): { customTools: string[]; operations: string[] } {
  const names = createNameAllocator(MAX_TOOL_NAME_LENGTH);
  return {
    customTools: customTools.map((name) => names.claim(validName(name, MAX_TOOL_NAME_LENGTH, "tool"))),
    operations: operationIds.map((id) => names.claim(validName(id, MAX_TOOL_NAME_LENGTH, "operation"))),
  };
}

/** A tool's description as gateways write it from its operation (the control plane shows the same): summary and description (once when equal), `Deprecated.` last; `fallback` (method and path) when there is neither. */
export function describeOperation(
  operation: Pick<NormalizedOperation, "summary" | "description" | "deprecated" | "method" | "path">,
  fallback = `${operation.method} ${operation.path}`,
): string {
  const parts: string[] = [];
  const summary = operation.summary?.trim();
  const description = operation.description?.trim();
  if (summary) parts.push(summary);
  if (description && description !== summary) parts.push(description);
  if (parts.length === 0) parts.push(fallback);
  if (operation.deprecated) parts.push("Deprecated.");
  return parts.join("\n\n");
}
