/**
 * Encryption of secret values at rest, under a key set.
 *
 * Stored format (a self-describing, versioned string):
 *
 *     gcm1:<keyId>:<base64url, no padding, of iv (12 bytes) | ciphertext | tag (16 bytes)>
 *
 * - AES-256-GCM, a random 96-bit IV per value, a full 128-bit tag.
 * - Additional authenticated data: the UTF-8 bytes of `gcm1:<keyId>:` followed by `context`
 *   (e.g. `backend_secret:<id>`). The value is therefore bound to its record: copied to another
 *   record (another context), or relabelled with another key id, it no longer decrypts.
 *   (`keyId` contains no `:`, so prefix and context cannot be confused.)
 * - Any other `<word>:` prefix is a format this version does not know, and is refused.
 *
 * Legacy values (the older runtime's AES/ECB/PKCS5Padding, standard base64, no prefix) are
 * decrypted with the legacy key, without AAD (ECB has none) and without integrity beyond the
 * padding and UTF-8 checks; they are only read, and re-encryption rewrites them as `gcm1`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { authFailed, keyMissing, legacyDecryptFailed, legacyKeyMissing, valueMalformed } from "./errors.ts";
import { isValidKeyId, type KeySet, legacyKeyId } from "./key-set.ts";

const gcmFormat = "gcm1";
const ivBytes = 12;
const tagBytes = 16;
const aesBlockBytes = 16;

export type SecretCipher = {
  /** The key id new values are written with. */
  readonly activeKeyId: string;
  /** Encrypts under the active key, bound to `context`; two calls never give the same output. */
  encrypt(plaintext: string, context: string): string;
  /** Decrypts a `gcm1` value (checking `context`) or a legacy value (which has no context). */
  decrypt(stored: string, context: string): string;
  /** The key id a stored value names, or `legacy` for a legacy AES/ECB value. */
  keyIdOf(stored: string): string;
  /** Whether a stored value is already under the active key (re-encryption would not touch it). */
  isCurrent(stored: string): boolean;
};

type StoredValue =
  | { format: typeof gcmFormat; keyId: string; header: string; payload: string }
  | { format: typeof legacyKeyId; payload: string };

export function createSecretCipher(keySet: KeySet): SecretCipher {
  const activeKeyId = keySet.activeKeyId;
  const activeKey = keySet.key(activeKeyId);
  if (activeKey === undefined) throw keyMissing(activeKeyId); // unreachable for a parsed key set

  return {
    activeKeyId,

    encrypt(plaintext, context) {
      const header = `${gcmFormat}:${activeKeyId}:`;
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv("aes-256-gcm", activeKey, iv, { authTagLength: tagBytes });
      cipher.setAAD(additionalData(header, context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return header + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString("base64url");
    },

    decrypt(stored, context) {
      const value = parseStoredValue(stored);
      return value.format === gcmFormat ? decryptGcm(keySet, value, context) : decryptLegacy(keySet, value.payload);
    },

    keyIdOf(stored) {
      const value = parseStoredValue(stored);
      return value.format === gcmFormat ? value.keyId : legacyKeyId;
    },

    isCurrent(stored) {
      const value = parseStoredValue(stored);
      return value.format === gcmFormat && value.keyId === activeKeyId;
    },
  };
}

function parseStoredValue(stored: string): StoredValue {
  if (stored.startsWith(`${gcmFormat}:`)) {
    const rest = stored.slice(gcmFormat.length + 1);
    const separator = rest.indexOf(":");
    const keyId = rest.slice(0, Math.max(separator, 0));
    const payload = rest.slice(separator + 1);
    if (separator <= 0 || !isValidKeyId(keyId))
      throw valueMalformed(`it starts with '${gcmFormat}:' but names no valid key id`);
    if (!/^[A-Za-z0-9_-]+$/.test(payload)) throw valueMalformed(`its '${gcmFormat}' payload is not base64url`);
    return { format: gcmFormat, keyId, header: `${gcmFormat}:${keyId}:`, payload };
  }
  // Some older encoders wrapped base64 lines at 76 characters; the line breaks carry nothing.
  const compact = stored.replace(/\r?\n/g, "");
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return { format: legacyKeyId, payload: compact };
  const prefix = /^([a-z][a-z0-9]{0,15}):/.exec(stored)?.[1];
  throw valueMalformed(
    prefix === undefined
      ? `it is neither '${gcmFormat}:<keyId>:<payload>' nor a legacy base64 ciphertext`
      : `its format '${prefix}' is unknown to this version (which reads '${gcmFormat}' and legacy values)`,
  );
}

function decryptGcm(keySet: KeySet, value: { keyId: string; header: string; payload: string }, context: string) {
  const key = keySet.key(value.keyId);
  if (key === undefined) throw keyMissing(value.keyId);
  const bytes = Buffer.from(value.payload, "base64url");
  if (bytes.length < ivBytes + tagBytes) throw valueMalformed(`its '${gcmFormat}' payload is too short`);
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, ivBytes), { authTagLength: tagBytes });
  decipher.setAAD(additionalData(value.header, context));
  decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
  try {
    const ciphertext = bytes.subarray(ivBytes, bytes.length - tagBytes);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    // final() throws when the tag does not match; its own message says nothing more useful.
    throw authFailed(value.keyId, context);
  }
}

function decryptLegacy(keySet: KeySet, payload: string): string {
  const key = keySet.legacyKey();
  if (key === undefined) throw legacyKeyMissing(legacyKeyId);
  const bytes = Buffer.from(payload, "base64");
  if (bytes.length === 0 || bytes.length % aesBlockBytes !== 0) {
    throw valueMalformed("it is not a whole number of AES blocks, so it is not a legacy ciphertext");
  }
  const decipher = createDecipheriv(`aes-${(key.symmetricKeySize ?? 0) * 8}-ecb`, key, null);
  try {
    const plaintext = Buffer.concat([decipher.update(bytes), decipher.final()]);
    // ECB has no tag: a wrong key shows as bad padding or, failing that, as bytes that are not UTF-8.
    return new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch {
    throw legacyDecryptFailed(legacyKeyId);
  }
}

function additionalData(header: string, context: string): Buffer {
  return Buffer.from(header + context, "utf8");
}
