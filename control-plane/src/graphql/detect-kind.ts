/**
 * The kind of an uploaded contract when the request does not say: a JSON object with `__schema`
 * (or `data.__schema`) is a GraphQL introspection result; text whose first definition is GraphQL
 * SDL (`type`, `schema`, `input`, …, or a `"""` description) is a GraphQL schema; anything else is
 * OpenAPI, whose importer then says what is wrong with it.
 */
import type { ServiceKind } from "@atrium/crds";
import { isPlainObject } from "../openapi/plain-json.ts";

const sdlStart =
  /^(?:"""[\s\S]*?"""\s*|"[^"\n]*"\s*|#[^\n]*\n\s*)*(?:extend\s+)?(?:schema|type|input|enum|scalar|interface|union|directive)\b/;

export function detectKind(text: string): ServiceKind {
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  if (trimmed.startsWith("{")) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isPlainObject(value) && ("__schema" in value || (isPlainObject(value.data) && "__schema" in value.data)))
        return "graphql";
    } catch {
      // Not JSON: the OpenAPI importer reports it.
    }
    return "openapi";
  }
  return sdlStart.test(trimmed) ? "graphql" : "openapi";
}
