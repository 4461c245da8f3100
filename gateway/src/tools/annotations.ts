/**
 * Tool annotations (hints for clients) derived from the HTTP method, then overridden by what the
 * API's author declared: the operation extension `x-mcp-annotations` or a custom tool's
 * `annotations`. Unset hints take the MCP defaults (readOnly false, destructive true,
 * idempotent false, openWorld true).
 *
 * | method                     | readOnly | destructive | idempotent |
 * |----------------------------|----------|-------------|------------|
 * | GET, HEAD, OPTIONS, TRACE  | true     | false       | —          |
 * | PUT                        | false    | —           | true       |
 * | DELETE                     | false    | true        | true       |
 * | POST, PATCH                | false    | —           | —          |
 * openWorldHint is true for every tool that calls a backend.
 */
import type { ToolAnnotations } from "./mcp.ts";
import { isPlainObject } from "./schema.ts";

const hintNames = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

export function methodAnnotations(method: string): ToolAnnotations {
  switch (method.toUpperCase()) {
    case "GET":
    case "HEAD":
    case "OPTIONS":
    case "TRACE":
      return { readOnlyHint: true, destructiveHint: false, openWorldHint: true };
    case "PUT":
      return { readOnlyHint: false, idempotentHint: true, openWorldHint: true };
    case "DELETE":
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true };
    default:
      return { readOnlyHint: false, openWorldHint: true };
  }
}

/** `base` with the boolean hints (and a string `title`) of `declared`; anything else in it is ignored. */
export function overrideAnnotations(base: ToolAnnotations, declared: unknown): ToolAnnotations {
  if (!isPlainObject(declared)) return base;
  const annotations: ToolAnnotations = { ...base };
  for (const hint of hintNames) {
    const value = declared[hint];
    if (typeof value === "boolean") annotations[hint] = value;
  }
  if (typeof declared.title === "string" && declared.title !== "") annotations.title = declared.title;
  return annotations;
}
