/**
 * Backend secrets as stored in the `secrets` table: the context each value is encrypted with,
 * and every stored value for the start-up check. Domain code, shared by the secrets routes and the
 * change stream's compiler (which must not depend on routes).
 */
import type { Db } from "../db/database.ts";
import { secrets } from "../db/schema.ts";
import type { StoredSecret } from "./reencrypt.ts";

/** Additional authenticated data: a value copied to another row does not decrypt. */
export const secretContext = (id: string) => `secret:${id}`;

export async function* storedSecrets(db: Db): AsyncGenerator<StoredSecret> {
  const rows = await db.select({ id: secrets.id, value: secrets.encryptedValue }).from(secrets);
  for (const row of rows) yield { id: row.id, context: secretContext(row.id), value: row.value };
}
