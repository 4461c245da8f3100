/**
 * operationIds: the document's own, or one derived from method and path, always unique within
 * the document (they name the MCP tools).
 */

/**
 * `GET /pets/{petId}` → `get_pets_petId`: the lower-case method, then each path segment with its
 * braces removed and every run of other characters than letters, digits and `_` turned into `_`.
 * The root path `/` gives `get_root`.
 */
export function synthesizeOperationId(method: string, path: string): string {
  const words = path
    .split("/")
    .map((segment) =>
      segment
        .replace(/[{}]/g, "")
        .replace(/[^A-Za-z0-9_]+/g, "_")
        .replace(/^_+|_+$/g, ""),
    )
    .filter((word) => word !== "");
  return [method.toLowerCase(), ...(words.length > 0 ? words : ["root"])].join("_");
}

export type OperationKey = { method: string; path: string; declaredId: string | undefined };

export type OperationIdConflict = { operationId: string; first: number; second: number };

/**
 * Assigns an id to each operation, in document order. Declared ids are kept as they are (two
 * equal ones are a conflict, returned for the caller to report); a synthesized id that is already
 * taken gets the first free suffix `_2`, `_3`, ... so the result only depends on the document.
 */
export function assignOperationIds(operations: OperationKey[]): { ids: string[] } | { conflict: OperationIdConflict } {
  const declaredAt = new Map<string, number>();
  for (const [index, { declaredId }] of operations.entries()) {
    if (declaredId === undefined) continue;
    const first = declaredAt.get(declaredId);
    if (first !== undefined) return { conflict: { operationId: declaredId, first, second: index } };
    declaredAt.set(declaredId, index);
  }
  const taken = new Set(declaredAt.keys());
  const ids = operations.map(({ method, path, declaredId }) => {
    if (declaredId !== undefined) return declaredId;
    const base = synthesizeOperationId(method, path);
    let id = base;
    for (let suffix = 2; taken.has(id); suffix++) id = `${base}_${suffix}`;
    taken.add(id);
    return id;
  });
  return { ids };
}
