/**
 * The encryption key set: AES-256-GCM keys by id, the active one that new writes use, and the
 * optional legacy AES/ECB key that is only read (to decrypt and migrate old values).
 *
 * Configuration (Helm renders it from `encryptionKey.*` into the environment):
 * - `ATRIUM_ENCRYPTION_KEYS`: `v1=<base64>,v2=<base64>`; each key is base64 of exactly 32 bytes.
 * - `ATRIUM_ENCRYPTION_ACTIVE_KEY_ID`: the id new writes use; may be omitted when there is one key.
 * - `ATRIUM_ENCRYPTION_LEGACY_KEY`: base64 of a 16, 24 or 32-byte AES/ECB key (optional).
 *
 * Key material lives only in `KeyObject`s held in private fields, so `JSON.stringify`, `String()`
 * and `util.inspect` of a key set show ids, never keys.
 */
import { createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { configInvalid, keyInvalid } from "./errors.ts";

/** The id `keyIdOf` reports for legacy values; reserved, so no configured key may use it. */
export const legacyKeyId = "legacy";

const keyBytes = 32;
const legacyKeyByteLengths: readonly number[] = [16, 24, 32];
// Short, and free of the separators of the stored format (`:`) and of the env format (`,` `=`).
// Capped at 32 characters so that a key pasted where its id belongs (43+ characters of base64) is
// rejected as an invalid id, which is never echoed, instead of being echoed as a valid one.
const keyIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;
const keyIdRules = `a key id is 1 to 32 letters, digits, '.', '_' or '-', starts with a letter or digit, and is not '${legacyKeyId}'`;

export type KeySetInput = {
  activeKeyId?: string;
  /** Key id → base64 of 32 bytes. */
  keys?: Record<string, string>;
  /** Base64 of the legacy AES/ECB key (16, 24 or 32 bytes). */
  legacyKey?: string;
};

export type KeySet = {
  readonly activeKeyId: string;
  readonly keyIds: readonly string[];
  readonly hasLegacyKey: boolean;
  /** The AES-256-GCM key with this id, if configured. */
  key(keyId: string): KeyObject | undefined;
  /** The legacy AES/ECB key (16, 24 or 32 bytes), if configured. */
  legacyKey(): KeyObject | undefined;
};

export function isValidKeyId(keyId: string): boolean {
  return keyIdPattern.test(keyId) && keyId !== legacyKeyId;
}

export function parseKeySet(input: KeySetInput): KeySet {
  const keys = new Map<string, KeyObject>();
  for (const [keyId, encoded] of Object.entries(input.keys ?? {})) {
    if (!isValidKeyId(keyId)) {
      // The id is not echoed: it may be key material pasted in the wrong place.
      throw configInvalid(`an encryption key id is invalid: ${keyIdRules}`);
    }
    keys.set(keyId, decodeKey(encoded, keyId, `encryption key '${keyId}'`, [keyBytes], "exactly 32 bytes"));
  }
  if (keys.size === 0) {
    throw configInvalid(
      "no encryption keys are configured: set ATRIUM_ENCRYPTION_KEYS to v1=<base64 of 32 random bytes> (Helm: encryptionKey.keys)",
    );
  }

  const keyIds = [...keys.keys()];
  const activeKeyId = input.activeKeyId?.trim() || (keyIds.length === 1 ? keyIds[0] : undefined);
  if (activeKeyId === undefined) {
    throw configInvalid(
      `several encryption keys are configured (${keyIds.join(", ")}): set ATRIUM_ENCRYPTION_ACTIVE_KEY_ID (Helm: encryptionKey.activeKeyId) to the one new values are written with`,
    );
  }
  if (!keys.has(activeKeyId)) {
    const named = isValidKeyId(activeKeyId) ? `'${activeKeyId}'` : "(an invalid id)";
    throw configInvalid(
      `the active encryption key id ${named} (ATRIUM_ENCRYPTION_ACTIVE_KEY_ID) is not among the configured keys (${keyIds.join(", ")}): add it to ATRIUM_ENCRYPTION_KEYS`,
    );
  }

  const legacy =
    input.legacyKey === undefined || input.legacyKey.trim() === ""
      ? undefined
      : decodeKey(
          input.legacyKey,
          legacyKeyId,
          "the legacy encryption key (ATRIUM_ENCRYPTION_LEGACY_KEY)",
          legacyKeyByteLengths,
          "16, 24 or 32 bytes",
        );

  return new RedactedKeySet(activeKeyId, keys, legacy);
}

/** Reads `ATRIUM_ENCRYPTION_KEYS`, `ATRIUM_ENCRYPTION_ACTIVE_KEY_ID` and `ATRIUM_ENCRYPTION_LEGACY_KEY`. */
export function keySetFromEnv(env: NodeJS.ProcessEnv): KeySet {
  return parseKeySet({
    activeKeyId: env.ATRIUM_ENCRYPTION_ACTIVE_KEY_ID,
    keys: parseKeyList(env.ATRIUM_ENCRYPTION_KEYS ?? ""),
    legacyKey: env.ATRIUM_ENCRYPTION_LEGACY_KEY,
  });
}

/** A new random key, base64 of 32 bytes (for the local stack and for rotation). */
export function generateKey(): string {
  return randomBytes(keyBytes).toString("base64");
}

/** `v1=<base64>,v2=<base64>`; base64 may end in `=`, so each entry splits at its first `=`. */
function parseKeyList(text: string): Record<string, string> {
  const keys: Record<string, string> = {};
  const entries = text.split(",").map((entry) => entry.trim());
  entries.forEach((entry, index) => {
    if (entry === "") return; // a trailing comma or an empty variable
    const separator = entry.indexOf("=");
    const keyId = entry.slice(0, separator).trim();
    if (separator <= 0 || !isValidKeyId(keyId)) {
      // The entry is not echoed: it may be a bare key (whose base64 padding looks like a separator).
      throw configInvalid(
        `entry ${index + 1} of ATRIUM_ENCRYPTION_KEYS is not of the form <keyId>=<base64 key>, where ${keyIdRules}`,
      );
    }
    if (Object.hasOwn(keys, keyId)) throw configInvalid(`ATRIUM_ENCRYPTION_KEYS names key '${keyId}' twice`);
    keys[keyId] = entry.slice(separator + 1);
  });
  return keys;
}

function decodeKey(
  encoded: unknown,
  keyId: string,
  keyLabel: string,
  byteLengths: readonly number[],
  expected: string,
): KeyObject {
  const bytes = typeof encoded === "string" ? decodeBase64(encoded) : undefined;
  if (bytes === undefined) throw keyInvalid(keyId, keyLabel, expected, "a value that is not base64");
  try {
    if (!byteLengths.includes(bytes.length)) throw keyInvalid(keyId, keyLabel, expected, `${bytes.length} bytes`);
    return createSecretKey(bytes); // copies the bytes
  } finally {
    bytes.fill(0);
  }
}

/** Strict base64 (standard or URL alphabet, padding optional); undefined when `text` is not. */
function decodeBase64(text: string): Buffer | undefined {
  // Surrounding whitespace is tolerated: a Secret created from a file often ends in a newline.
  const trimmed = text.trim();
  const unpadded = trimmed.replace(/={1,2}$/, "");
  if (unpadded === "" || !/^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)$/.test(unpadded)) return undefined;
  if (unpadded !== trimmed && trimmed.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(unpadded, "base64");
  // Node decodes leniently (dangling characters are dropped); a round trip proves nothing was.
  const canonical = unpadded.replaceAll("-", "+").replaceAll("_", "/");
  if (bytes.toString("base64").replace(/=+$/, "") !== canonical) {
    bytes.fill(0);
    return undefined;
  }
  return bytes;
}

class RedactedKeySet implements KeySet {
  readonly activeKeyId: string;
  readonly keyIds: readonly string[];
  readonly hasLegacyKey: boolean;
  readonly #keys: ReadonlyMap<string, KeyObject>;
  readonly #legacyKey: KeyObject | undefined;

  constructor(activeKeyId: string, keys: ReadonlyMap<string, KeyObject>, legacyKey: KeyObject | undefined) {
    this.activeKeyId = activeKeyId;
    this.keyIds = Object.freeze([...keys.keys()]);
    this.hasLegacyKey = legacyKey !== undefined;
    this.#keys = keys;
    this.#legacyKey = legacyKey;
    Object.freeze(this);
  }

  key(keyId: string): KeyObject | undefined {
    return this.#keys.get(keyId);
  }

  legacyKey(): KeyObject | undefined {
    return this.#legacyKey;
  }

  toJSON(): { activeKeyId: string; keyIds: readonly string[]; hasLegacyKey: boolean } {
    return { activeKeyId: this.activeKeyId, keyIds: this.keyIds, hasLegacyKey: this.hasLegacyKey };
  }

  toString(): string {
    const legacy = this.hasLegacyKey ? ", legacy key" : "";
    return `KeySet(active ${this.activeKeyId}; keys ${this.keyIds.join(", ")}${legacy})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
