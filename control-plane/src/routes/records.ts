/**
 * Pieces every record route shares: timestamps from rows, and turning "no row in my organization"
 * into a 404. The shapes they answer with are in @atrium/contract/rest.
 */
import { errors } from "../errors.ts";

export function timestampsOf(row: { createdAt: Date; updatedAt: Date }) {
  return { createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** The single row a query found in the caller's organization, or a 404 naming what was looked for. */
export function found<T>(rows: T[], kind: string, id: string | number): T {
  const [row] = rows;
  if (!row) throw errors.notFound(kind, String(id));
  return row;
}
