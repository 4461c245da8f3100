/**
 * Coded errors of secret encryption at rest. Every message is built here, in one place, and none
 * ever carries key material, a plaintext or a stored ciphertext: only key ids, record ids,
 * contexts, lengths and the names of the settings to fix.
 */

export type EncryptionErrorCode =
  /** The key-set configuration is structurally wrong (no keys, unknown active key, bad key id). */
  | "ENCRYPTION_CONFIG_INVALID"
  /** A configured key is not base64 of an acceptable length. */
  | "ENCRYPTION_KEY_INVALID"
  /** A stored value needs a key (an id, or the legacy key) that is not configured. */
  | "ENCRYPTION_KEY_MISSING"
  /** A stored value does not decrypt: tampered, copied to another record, or wrong key material. */
  | "ENCRYPTION_AUTH_FAILED"
  /** A stored value is neither `gcm1:<keyId>:<payload>` nor a legacy base64 ciphertext. */
  | "ENCRYPTION_VALUE_MALFORMED";

export type EncryptionErrorOptions = {
  /** The key id concerned (`legacy` for the legacy AES/ECB key), when there is one. */
  keyId?: string;
  /** The stored record concerned, when the error was raised while scanning records. */
  recordId?: string;
  cause?: unknown;
};

export class EncryptionError extends Error {
  override readonly name = "EncryptionError";
  readonly code: EncryptionErrorCode;
  readonly keyId: string | undefined;
  readonly recordId: string | undefined;

  constructor(code: EncryptionErrorCode, message: string, options: EncryptionErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.keyId = options.keyId;
    this.recordId = options.recordId;
  }
}

export function configInvalid(message: string): EncryptionError {
  return new EncryptionError("ENCRYPTION_CONFIG_INVALID", message);
}

/** `keyLabel` names the key as the operator knows it, e.g. `encryption key 'v1'`. */
export function keyInvalid(keyId: string, keyLabel: string, expected: string, got: string): EncryptionError {
  return new EncryptionError("ENCRYPTION_KEY_INVALID", `${keyLabel} must be base64 of ${expected}, got ${got}`, {
    keyId,
  });
}

export function keyMissing(keyId: string): EncryptionError {
  return new EncryptionError(
    "ENCRYPTION_KEY_MISSING",
    `a stored value is encrypted with key '${keyId}', which is not configured: add it to ATRIUM_ENCRYPTION_KEYS (Helm: encryptionKey.keys)`,
    { keyId },
  );
}

export function legacyKeyMissing(legacyKeyId: string): EncryptionError {
  return new EncryptionError(
    "ENCRYPTION_KEY_MISSING",
    "a stored value is encrypted with the legacy AES/ECB key, which is not configured: set ATRIUM_ENCRYPTION_LEGACY_KEY (Helm: encryptionKey.key) to read and migrate it",
    { keyId: legacyKeyId },
  );
}

export function authFailed(keyId: string, context: string): EncryptionError {
  return new EncryptionError(
    "ENCRYPTION_AUTH_FAILED",
    `a stored value under key '${keyId}' does not decrypt for context '${context}': it was tampered with, copied from another record, or the key configured as '${keyId}' is not the one it was written with`,
    { keyId },
  );
}

export function legacyDecryptFailed(legacyKeyId: string): EncryptionError {
  return new EncryptionError(
    "ENCRYPTION_AUTH_FAILED",
    "a legacy value does not decrypt with ATRIUM_ENCRYPTION_LEGACY_KEY: the value is corrupted or the legacy key is not the one it was written with",
    { keyId: legacyKeyId },
  );
}

export function valueMalformed(reason: string): EncryptionError {
  return new EncryptionError("ENCRYPTION_VALUE_MALFORMED", `a stored value is malformed: ${reason}`);
}

/** The same error, its message prefixed with the record it came from (a scan names the row to fix). */
export function atRecord(error: EncryptionError, recordId: string): EncryptionError {
  return new EncryptionError(error.code, `secret record '${recordId}': ${error.message}`, {
    keyId: error.keyId,
    recordId,
    cause: error,
  });
}
