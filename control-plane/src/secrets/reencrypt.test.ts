/**
 * Re-encryption and the start-up check, over an in-memory store.
 */
import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretCipher, type SecretCipher } from "./cipher.ts";
import { EncryptionError } from "./errors.ts";
import { generateKey, parseKeySet } from "./key-set.ts";
import { assertAllDecryptable, reencryptAll, type SecretStore, type StoredSecret } from "./reencrypt.ts";

const v1 = generateKey();
const v2 = generateKey();
const legacyKey128 = randomBytes(16);
const legacyKey256 = randomBytes(32);

function legacyEncrypt(key: Buffer, text: string): string {
  const cipher = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  return Buffer.concat([cipher.update(text, "utf8"), cipher.final()]).toString("base64");
}

function cipherWith(activeKeyId: string, keys: Record<string, string>, legacyKey?: Buffer): SecretCipher {
  return createSecretCipher(parseKeySet({ activeKeyId, keys, legacyKey: legacyKey?.toString("base64") }));
}

/** A map of rows; `beforeUpdate` lets a test change a row between the pass's read and its write. */
function memoryStore(rows: StoredSecret[], beforeUpdate?: (id: string, store: Map<string, StoredSecret>) => void) {
  const byId = new Map(rows.map((row) => [row.id, { ...row }]));
  const store: SecretStore = {
    async *list() {
      for (const row of [...byId.values()]) yield { ...row };
    },
    async update(id, expectedOld, newValue) {
      beforeUpdate?.(id, byId);
      const row = byId.get(id);
      if (row === undefined || row.value !== expectedOld) return false;
      row.value = newValue;
      return true;
    },
  };
  return { store, byId };
}

function row(cipher: SecretCipher, id: string, plaintext: string): StoredSecret {
  const context = `backend_secret:${id}`;
  return { id, context, value: cipher.encrypt(plaintext, context) };
}

describe("key rotation", () => {
  it("moves values from v1 to v2 once; a second run changes nothing", async () => {
    const before = cipherWith("v1", { v1 });
    const { store, byId } = memoryStore([row(before, "a", "alpha"), row(before, "b", "beta")]);

    // Step 1 and 2: every replica has v1 and v2, then v2 becomes active.
    const after = cipherWith("v2", { v1, v2 });
    for (const { value, context } of byId.values()) {
      expect(after.isCurrent(value)).toBe(false);
      expect(after.decrypt(value, context)).toMatch(/^(alpha|beta)$/);
    }
    byId.set("c", row(after, "c", "gamma")); // written after the switch

    // Step 3: re-encryption.
    expect(await reencryptAll(after, store)).toEqual({
      scanned: 3,
      reencrypted: 2,
      alreadyCurrent: 1,
      byPreviousKey: { v1: 2 },
      conflicts: 0,
    });
    const values = new Map([...byId].map(([id, stored]) => [id, stored.value]));
    for (const { id, value, context } of byId.values()) {
      expect(after.keyIdOf(value)).toBe("v2");
      expect(after.decrypt(value, context)).toBe({ a: "alpha", b: "beta", c: "gamma" }[id]);
    }
    // v1 can now be removed (once no backup needs it).
    const v2Only = cipherWith("v2", { v2 });
    expect(v2Only.decrypt(byId.get("a")?.value ?? "", "backend_secret:a")).toBe("alpha");

    expect(await reencryptAll(after, store)).toEqual({
      scanned: 3,
      reencrypted: 0,
      alreadyCurrent: 3,
      byPreviousKey: {},
      conflicts: 0,
    });
    expect(new Map([...byId].map(([id, stored]) => [id, stored.value]))).toEqual(values);
  });

  it("migrates legacy AES/ECB values (128 and 256-bit keys) to the active key", async () => {
    const current = cipherWith("v1", { v1 }, legacyKey128);
    const { store, byId } = memoryStore([
      { id: "old", context: "backend_secret:old", value: legacyEncrypt(legacyKey128, "from the old runtime") },
      row(current, "new", "already gcm"),
    ]);
    expect(await reencryptAll(current, store)).toEqual({
      scanned: 2,
      reencrypted: 1,
      alreadyCurrent: 1,
      byPreviousKey: { legacy: 1 },
      conflicts: 0,
    });
    const migrated = byId.get("old")?.value ?? "";
    expect(migrated).toMatch(/^gcm1:v1:/);
    // Now bound to its record's context, and readable without the legacy key.
    expect(cipherWith("v1", { v1 }).decrypt(migrated, "backend_secret:old")).toBe("from the old runtime");
    expect(() => current.decrypt(migrated, "backend_secret:new")).toThrow(EncryptionError);
    expect((await reencryptAll(current, store)).reencrypted).toBe(0);

    const wide = cipherWith("v2", { v2 }, legacyKey256);
    const second = memoryStore([{ id: "x", context: "c", value: legacyEncrypt(legacyKey256, "wide") }]);
    expect((await reencryptAll(wide, second.store)).byPreviousKey).toEqual({ legacy: 1 });
    expect(wide.decrypt(second.byId.get("x")?.value ?? "", "c")).toBe("wide");
  });

  it("leaves a value changed concurrently alone and counts a conflict", async () => {
    const old = cipherWith("v1", { v1 });
    const after = cipherWith("v2", { v1, v2 });
    const { store, byId } = memoryStore([row(old, "a", "alpha"), row(old, "b", "beta")], (id, rows) => {
      if (id === "a") rows.set("a", row(after, "a", "edited meanwhile"));
    });
    expect(await reencryptAll(after, store)).toEqual({
      scanned: 2,
      reencrypted: 1,
      alreadyCurrent: 0,
      byPreviousKey: { v1: 1 },
      conflicts: 1,
    });
    expect(after.decrypt(byId.get("a")?.value ?? "", "backend_secret:a")).toBe("edited meanwhile");
  });

  it("stops at a value whose key is missing, naming the record and the key; rewritten values stay", async () => {
    const v0 = cipherWith("v0", { v0: generateKey() });
    const old = cipherWith("v1", { v1 });
    const { store, byId } = memoryStore([row(old, "a", "alpha"), row(v0, "lost", "?"), row(old, "c", "gamma")]);
    const after = cipherWith("v2", { v1, v2 });
    const error = await reencryptAll(after, store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EncryptionError);
    expect(error).toMatchObject({
      code: "ENCRYPTION_KEY_MISSING",
      keyId: "v0",
      recordId: "lost",
      message:
        "secret record 'lost': a stored value is encrypted with key 'v0', which is not configured: add it to ATRIUM_ENCRYPTION_KEYS (Helm: encryptionKey.keys)",
    });
    expect(after.keyIdOf(byId.get("a")?.value ?? "")).toBe("v2");
    expect(after.keyIdOf(byId.get("c")?.value ?? "")).toBe("v1");
  });

  it("lets storage errors through unchanged", async () => {
    const old = cipherWith("v1", { v1 });
    const failure = new Error("connection reset");
    const store: SecretStore = {
      async *list() {
        yield row(old, "a", "alpha");
      },
      update: () => Promise.reject(failure),
    };
    await expect(reencryptAll(cipherWith("v2", { v1, v2 }), store)).rejects.toBe(failure);
  });
});

describe("assertAllDecryptable", () => {
  const old = cipherWith("v1", { v1 }, legacyKey128);
  const values = [
    row(old, "a", "alpha"),
    { id: "b", context: "backend_secret:b", value: legacyEncrypt(legacyKey128, "beta") },
    row(cipherWith("v2", { v2 }), "c", "gamma"),
  ];

  it("counts values by key id when every key is configured", async () => {
    const cipher = cipherWith("v2", { v1, v2 }, legacyKey128);
    expect(await assertAllDecryptable(cipher, values)).toEqual({
      scanned: 3,
      notCurrent: 2,
      byKeyId: { v1: 1, legacy: 1, v2: 1 },
    });
    async function* asyncValues() {
      yield* values;
    }
    expect((await assertAllDecryptable(cipher, asyncValues())).scanned).toBe(3);
    expect(await assertAllDecryptable(cipher, [])).toEqual({ scanned: 0, notCurrent: 0, byKeyId: {} });
  });

  it("fails with ENCRYPTION_KEY_MISSING naming a missing key id", async () => {
    const error = await assertAllDecryptable(cipherWith("v2", { v2 }, legacyKey128), values).catch((caught) => caught);
    expect(error).toMatchObject({ code: "ENCRYPTION_KEY_MISSING", keyId: "v1", recordId: "a" });
    expect((error as Error).message).toMatch(/key 'v1', which is not configured: add it to ATRIUM_ENCRYPTION_KEYS/);
  });

  it("fails naming ATRIUM_ENCRYPTION_LEGACY_KEY when legacy values remain without it", async () => {
    const error = await assertAllDecryptable(cipherWith("v2", { v1, v2 }), values).catch((caught) => caught);
    expect(error).toMatchObject({ code: "ENCRYPTION_KEY_MISSING", keyId: "legacy", recordId: "b" });
    expect((error as Error).message).toMatch(/set ATRIUM_ENCRYPTION_LEGACY_KEY/);
  });

  it("fails with ENCRYPTION_AUTH_FAILED when a key id holds other key material", async () => {
    const error = await assertAllDecryptable(cipherWith("v1", { v1: generateKey() }), values.slice(0, 1)).catch(
      (caught) => caught,
    );
    expect(error).toMatchObject({ code: "ENCRYPTION_AUTH_FAILED", keyId: "v1", recordId: "a" });
  });
});
