/**
 * The secret cipher: the `gcm1` format, context binding, tamper detection, key ids and legacy
 * AES/ECB values.
 */
import { createCipheriv, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { thrown as thrownError } from "../testing.ts";
import { createSecretCipher } from "./cipher.ts";
import { EncryptionError } from "./errors.ts";
import { generateKey, parseKeySet } from "./key-set.ts";

const thrown = (work: () => unknown) => thrownError(work, EncryptionError);

const v1 = generateKey();
const v2 = generateKey();
const context = "backend_secret:7f1c";
const plaintext = "s3cr3t-backend-token";

/** What the older runtime wrote: AES/ECB/PKCS5Padding, base64, no prefix. */
function legacyEncrypt(key: Buffer, text: string): string {
  const cipher = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  return Buffer.concat([cipher.update(text, "utf8"), cipher.final()]).toString("base64");
}

/** Flips one bit of the decoded payload at `index` (negative: from the end). */
function flipPayloadBit(stored: string, index: number): string {
  const separator = stored.lastIndexOf(":");
  const bytes = Buffer.from(stored.slice(separator + 1), "base64url");
  const at = index < 0 ? bytes.length + index : index;
  bytes.writeUInt8((bytes.readUInt8(at) ^ 0x01) & 0xff, at);
  return stored.slice(0, separator + 1) + bytes.toString("base64url");
}

describe("createSecretCipher", () => {
  const cipher = createSecretCipher(parseKeySet({ activeKeyId: "v1", keys: { v1 } }));

  it.each([
    ["ascii", plaintext],
    ["empty", ""],
    ["unicode", "clé 🔑 ключ"],
    ["long", "x".repeat(100_000)],
  ])("round-trips a %s value", (_, text) => {
    expect(cipher.decrypt(cipher.encrypt(text, context), context)).toBe(text);
  });

  it("writes gcm1:<keyId>:<base64url of iv | ciphertext | tag>", () => {
    const stored = cipher.encrypt(plaintext, context);
    expect(stored).toMatch(/^gcm1:v1:[A-Za-z0-9_-]+$/);
    expect(Buffer.from(stored.slice("gcm1:v1:".length), "base64url")).toHaveLength(12 + plaintext.length + 16);
    expect(stored).not.toContain(plaintext);
  });

  it("gives a different ciphertext each time (random IV)", () => {
    const first = cipher.encrypt(plaintext, context);
    const second = cipher.encrypt(plaintext, context);
    expect(first).not.toBe(second);
    expect(first.slice(0, "gcm1:v1:".length + 16)).not.toBe(second.slice(0, "gcm1:v1:".length + 16));
  });

  it("refuses a value under another context (copied to another record)", () => {
    const stored = cipher.encrypt(plaintext, context);
    const error = thrown(() => cipher.decrypt(stored, "backend_secret:other"));
    expect(error.code).toBe("ENCRYPTION_AUTH_FAILED");
    expect(error.keyId).toBe("v1");
    expect(error.message).toMatch(/^a stored value under key 'v1' does not decrypt for context 'backend_secret:other'/);
    expect(error.message).not.toContain(plaintext);
    expect(error.message).not.toContain(stored);
  });

  it.each([
    ["the IV", 0],
    ["the ciphertext", 12],
    ["the tag", -1],
  ])("refuses a value whose %s was altered", (_, index) => {
    const stored = flipPayloadBit(cipher.encrypt(plaintext, context), index);
    expect(thrown(() => cipher.decrypt(stored, context)).code).toBe("ENCRYPTION_AUTH_FAILED");
  });

  it("refuses a truncated tag", () => {
    const stored = cipher.encrypt(plaintext, context);
    const payload = Buffer.from(stored.slice("gcm1:v1:".length), "base64url");
    const truncated = `gcm1:v1:${payload.subarray(0, payload.length - 4).toString("base64url")}`;
    expect(thrown(() => cipher.decrypt(truncated, context)).code).toBe("ENCRYPTION_AUTH_FAILED");
    expect(thrown(() => cipher.decrypt("gcm1:v1:AAAA", context)).code).toBe("ENCRYPTION_VALUE_MALFORMED");
  });

  it("binds the key id: a value relabelled to another id holding the same key does not decrypt", () => {
    const twins = createSecretCipher(parseKeySet({ activeKeyId: "v1", keys: { v1, copy: v1 } }));
    const relabelled = twins.encrypt(plaintext, context).replace(/^gcm1:v1:/, "gcm1:copy:");
    expect(thrown(() => twins.decrypt(relabelled, context)).code).toBe("ENCRYPTION_AUTH_FAILED");
  });

  it("reports wrong key material under a configured id as an authentication failure", () => {
    const stored = cipher.encrypt(plaintext, context);
    const other = createSecretCipher(parseKeySet({ keys: { v1: generateKey() } }));
    expect(thrown(() => other.decrypt(stored, context)).code).toBe("ENCRYPTION_AUTH_FAILED");
  });

  it("names a key id that is not configured", () => {
    const old = createSecretCipher(parseKeySet({ keys: { v0: generateKey() } }));
    const stored = old.encrypt(plaintext, context);
    const error = thrown(() => cipher.decrypt(stored, context));
    expect(error.code).toBe("ENCRYPTION_KEY_MISSING");
    expect(error.keyId).toBe("v0");
    expect(error.message).toBe(
      "a stored value is encrypted with key 'v0', which is not configured: add it to ATRIUM_ENCRYPTION_KEYS (Helm: encryptionKey.keys)",
    );
  });

  it.each([
    ["an unknown format", "gcm2:v1:AAAA", /its format 'gcm2' is unknown to this version/],
    ["no key id", "gcm1::AAAA", /names no valid key id/],
    ["an invalid key id", "gcm1:legacy:AAAA", /names no valid key id/],
    ["a payload that is not base64url", "gcm1:v1:AA+A", /payload is not base64url/],
    ["an empty value", "", /neither 'gcm1:<keyId>:<payload>' nor a legacy base64 ciphertext/],
    ["plain text", "hello world", /neither/],
  ])("refuses %s as malformed", (_, stored, message) => {
    for (const work of [() => cipher.decrypt(stored, context), () => cipher.keyIdOf(stored)]) {
      const error = thrown(work);
      expect(error.code).toBe("ENCRYPTION_VALUE_MALFORMED");
      expect(error.message).toMatch(message);
    }
  });

  it("tells the key id of a value and whether it is current", () => {
    const rotated = createSecretCipher(parseKeySet({ activeKeyId: "v2", keys: { v1, v2 } }));
    const underV1 = cipher.encrypt(plaintext, context);
    const underV2 = rotated.encrypt(plaintext, context);
    expect(cipher.keyIdOf(underV1)).toBe("v1");
    expect(rotated.keyIdOf(underV2)).toBe("v2");
    expect(cipher.isCurrent(underV1)).toBe(true);
    expect(rotated.isCurrent(underV1)).toBe(false);
    expect(rotated.isCurrent(underV2)).toBe(true);
    expect(rotated.decrypt(underV1, context)).toBe(plaintext);
    expect(rotated.activeKeyId).toBe("v2");
  });
});

describe("legacy AES/ECB values", () => {
  it.each([16, 24, 32])("decrypts a value written with a %i-byte key, without a context", (bytes) => {
    const legacyKey = randomBytes(bytes);
    const stored = legacyEncrypt(legacyKey, plaintext);
    const cipher = createSecretCipher(parseKeySet({ keys: { v1 }, legacyKey: legacyKey.toString("base64") }));
    expect(cipher.keyIdOf(stored)).toBe("legacy");
    expect(cipher.isCurrent(stored)).toBe(false);
    expect(cipher.decrypt(stored, context)).toBe(plaintext);
    expect(cipher.decrypt(stored, "any other context")).toBe(plaintext);
  });

  it("decrypts a value whose base64 was wrapped in lines", () => {
    const legacyKey = randomBytes(16);
    const long = "y".repeat(200);
    const wrapped = legacyEncrypt(legacyKey, long).replace(/.{76}/g, "$&\r\n");
    const cipher = createSecretCipher(parseKeySet({ keys: { v1 }, legacyKey: legacyKey.toString("base64") }));
    expect(cipher.decrypt(wrapped, context)).toBe(long);
  });

  it("names ATRIUM_ENCRYPTION_LEGACY_KEY when the legacy key is not configured", () => {
    const stored = legacyEncrypt(randomBytes(32), plaintext);
    const cipher = createSecretCipher(parseKeySet({ keys: { v1 } }));
    const error = thrown(() => cipher.decrypt(stored, context));
    expect(error.code).toBe("ENCRYPTION_KEY_MISSING");
    expect(error.keyId).toBe("legacy");
    expect(error.message).toMatch(/legacy AES\/ECB key, which is not configured: set ATRIUM_ENCRYPTION_LEGACY_KEY/);
  });

  it("reports a wrong legacy key as an authentication failure", () => {
    const stored = legacyEncrypt(randomBytes(16), plaintext);
    const cipher = createSecretCipher(parseKeySet({ keys: { v1 }, legacyKey: randomBytes(16).toString("base64") }));
    const error = thrown(() => cipher.decrypt(stored, context));
    expect(error.code).toBe("ENCRYPTION_AUTH_FAILED");
    expect(error.message).toMatch(/does not decrypt with ATRIUM_ENCRYPTION_LEGACY_KEY/);
  });

  it("refuses base64 that is not whole AES blocks", () => {
    const cipher = createSecretCipher(parseKeySet({ keys: { v1 }, legacyKey: randomBytes(16).toString("base64") }));
    expect(thrown(() => cipher.decrypt("AAAA", context)).code).toBe("ENCRYPTION_VALUE_MALFORMED");
  });
});

describe("secrets never show", () => {
  it("in the cipher or its errors", () => {
    const legacyKey = randomBytes(16);
    const keySet = parseKeySet({ activeKeyId: "v1", keys: { v1, v2 }, legacyKey: legacyKey.toString("base64") });
    const cipher = createSecretCipher(keySet);
    const stored = cipher.encrypt(plaintext, context);
    const errors = [
      thrown(() => cipher.decrypt(stored, "elsewhere")),
      thrown(() => cipher.decrypt(flipPayloadBit(stored, 20), context)),
      thrown(() => cipher.decrypt(legacyEncrypt(randomBytes(16), plaintext), context)),
      thrown(() => createSecretCipher(parseKeySet({ keys: { v2 } })).decrypt(stored, context)),
    ];
    const shown = [
      inspect(cipher, { showHidden: true, depth: Number.POSITIVE_INFINITY }),
      JSON.stringify(cipher),
      ...errors.map((error) => `${error.message}\n${inspect(error, { depth: Number.POSITIVE_INFINITY })}`),
    ].join("\n");
    for (const secret of [plaintext, v1, v2, legacyKey.toString("base64"), legacyKey.toString("hex")]) {
      expect(shown).not.toContain(secret);
    }
  });
});
