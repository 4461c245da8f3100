/**
 * Fingerprints of what was sent to the control plane: equal fingerprints mean an equal body, so
 * a reconcile that would send the same thing again can skip the call.
 */
import { createHash } from "node:crypto";

/** JSON with object keys sorted, so equal values always give equal text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : item,
  );
}

export function fingerprint(value: unknown): string {
  return createHash("sha256").update(stableStringify(value)).digest("base64url");
}
