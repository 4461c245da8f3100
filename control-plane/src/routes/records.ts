/**
 * Pieces every record route shares: id parameters, list envelopes, timestamps, and turning
 * "no row in my organization" into a 404.
 */
import { z } from "zod";
import { errors } from "../errors.ts";

export const uuidParams = z.object({ id: z.uuid({ message: "must be a record id (a UUID)" }) });
export const recordName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, {
    message: "must be lowercase letters, digits, '-' or '.', starting and ending with a letter or digit",
  });

export const timestamps = { createdAt: z.string(), updatedAt: z.string() };
export function timestampsOf(row: { createdAt: Date; updatedAt: Date }) {
  return { createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}

/** The single row a query found in the caller's organization, or a 404 naming what was looked for. */
export function found<T>(rows: T[], kind: string, id: string | number): T {
  const [row] = rows;
  if (!row) throw errors.notFound(kind, String(id));
  return row;
}
