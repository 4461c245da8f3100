/**
 * Pieces every record route shares: id parameters, list envelopes, timestamps, and turning
 * "no row in my organization" into a 404.
 */
import { objectName } from "@atrium/crds";
import { z } from "zod";
import { errors } from "../errors.ts";

export const uuidParams = z.object({ id: z.uuid({ message: "must be a record id (a UUID)" }) });
/** A record's name: the name of the custom resource it may come from, so the same schema. */
export const recordName = objectName;

/** Gateway group ids are PostgreSQL integers: larger values name no group and must not reach the database. */
export const MAX_SERIAL_ID = 2_147_483_647;
export const gatewayGroupId = z
  .number()
  .int({ message: "must be a gateway group id (an integer)" })
  .min(1, { message: "must be a gateway group id (from 1)" })
  .max(MAX_SERIAL_ID, { message: `must be a gateway group id (at most ${MAX_SERIAL_ID})` });

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
