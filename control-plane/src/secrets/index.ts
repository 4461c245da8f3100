/**
 * Secret values at rest: the key set, the cipher, and the re-encryption and start-up passes.
 */
export { createSecretCipher, type SecretCipher } from "./cipher.ts";
export { EncryptionError, type EncryptionErrorCode } from "./errors.ts";
export {
  generateKey,
  isValidKeyId,
  type KeySet,
  type KeySetInput,
  keySetFromEnv,
  legacyKeyId,
  parseKeySet,
} from "./key-set.ts";
export {
  assertAllDecryptable,
  type KeyUsage,
  type ReencryptionReport,
  reencryptAll,
  type SecretStore,
  type StoredSecret,
} from "./reencrypt.ts";
