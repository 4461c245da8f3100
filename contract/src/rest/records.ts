/**
 * Pieces every record of the REST API shares: id parameters, record names, gateway group ids,
 * timestamps and list envelopes.
 */
import { objectName } from "@atrium/crds";
import { z } from "zod";

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

/** `{ items: [...] }`, what every list route answers. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}
