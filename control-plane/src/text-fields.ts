/**
 * PostgreSQL stores no NUL character, in text or in jsonb: a request carrying one would fail
 * at the database with a 500. Checked once for every route, before validation, on the body, the
 * query string and the path parameters, so the client learns which field to fix.
 */
import type { FieldError } from "./errors.ts";

/** Deep enough for any document the body limit allows; deeper input is refused elsewhere. */
const MAX_DEPTH = 512;

/** The first field (as `body.a.0.b`) holding a NUL, in a value or in a key, if any. */
export function findNulCharacter(value: unknown, path: string, depth = 0): FieldError | undefined {
  if (typeof value === "string") {
    return value.includes("\u0000")
      ? { field: path, message: "must not contain a NUL character (\\u0000)" }
      : undefined;
  }
  if (typeof value !== "object" || value === null || depth > MAX_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\u0000")) return { field: path, message: "must not have a key with a NUL character (\\u0000)" };
    const found = findNulCharacter(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}
