/**
 * Passes over every stored secret value, independent of where they are stored:
 *
 * - `reencryptAll` rewrites every value not under the active key (older key ids and legacy
 *   AES/ECB values) under the active key. It is idempotent: a second run rewrites nothing. Each
 *   rewrite is a compare-and-set on the old value, so a concurrent write wins and is counted as
 *   a conflict, never overwritten.
 * - `assertAllDecryptable` decrypts every value once, for start-up: a key that stored data needs
 *   but the configuration lacks is a clear start-up error naming the key id, not a failure at
 *   first use.
 *
 * Both stop at the first value that does not decrypt, with its error prefixed by the record id
 * (code unchanged); values already rewritten stay rewritten, so a run can simply be repeated.
 */
import type { SecretCipher } from "./cipher.ts";
import { atRecord, EncryptionError } from "./errors.ts";

export type StoredSecret = {
  id: string;
  /** The context the value was encrypted with (its GCM additional data), e.g. `backend_secret:<id>`. */
  context: string;
  value: string;
};

export type SecretStore = {
  /** Every stored value. Iteration must survive `update` of rows already listed (page by id). */
  list(): AsyncIterable<StoredSecret>;
  /** Sets `newValue` only if the row still holds `expectedOld`; false if it was changed meanwhile. */
  update(id: string, expectedOld: string, newValue: string): Promise<boolean>;
};

export type ReencryptionReport = {
  scanned: number;
  reencrypted: number;
  alreadyCurrent: number;
  /** Values rewritten, by the key id they were under before (`legacy` for AES/ECB values). */
  byPreviousKey: Record<string, number>;
  /** Values changed by someone else between reading and rewriting them; they were left as written. */
  conflicts: number;
};

export type KeyUsage = {
  scanned: number;
  /** Values not under the active key: re-encryption would rewrite them. */
  notCurrent: number;
  /** Values by the key id they are under (`legacy` for AES/ECB values). */
  byKeyId: Record<string, number>;
};

export async function reencryptAll(cipher: SecretCipher, store: SecretStore): Promise<ReencryptionReport> {
  const report: ReencryptionReport = { scanned: 0, reencrypted: 0, alreadyCurrent: 0, byPreviousKey: {}, conflicts: 0 };
  for await (const record of store.list()) {
    report.scanned += 1;
    const rewrite = atRecordOnError(record.id, () => {
      if (cipher.isCurrent(record.value)) return undefined;
      const plaintext = cipher.decrypt(record.value, record.context);
      return { previousKeyId: cipher.keyIdOf(record.value), value: cipher.encrypt(plaintext, record.context) };
    });
    if (rewrite === undefined) {
      report.alreadyCurrent += 1;
    } else if (await store.update(record.id, record.value, rewrite.value)) {
      report.reencrypted += 1;
      report.byPreviousKey[rewrite.previousKeyId] = (report.byPreviousKey[rewrite.previousKeyId] ?? 0) + 1;
    } else {
      report.conflicts += 1;
    }
  }
  return report;
}

/**
 * Decrypts every value and throws the first failure (`ENCRYPTION_KEY_MISSING` naming the key id,
 * `ENCRYPTION_AUTH_FAILED`, `ENCRYPTION_VALUE_MALFORMED`), prefixed by its record id.
 */
export async function assertAllDecryptable(
  cipher: SecretCipher,
  values: Iterable<StoredSecret> | AsyncIterable<StoredSecret>,
): Promise<KeyUsage> {
  const usage: KeyUsage = { scanned: 0, notCurrent: 0, byKeyId: {} };
  for await (const record of values) {
    usage.scanned += 1;
    const keyId = atRecordOnError(record.id, () => {
      cipher.decrypt(record.value, record.context);
      return cipher.keyIdOf(record.value);
    });
    usage.byKeyId[keyId] = (usage.byKeyId[keyId] ?? 0) + 1;
    if (keyId !== cipher.activeKeyId) usage.notCurrent += 1;
  }
  return usage;
}

function atRecordOnError<T>(recordId: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw error instanceof EncryptionError ? atRecord(error, recordId) : error;
  }
}
