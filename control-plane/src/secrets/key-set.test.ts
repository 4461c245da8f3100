/**
 * Key-set configuration: parsing, validation messages, and that key material never shows.
 */
import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { thrown as thrownError } from "../testing.ts";
import { EncryptionError } from "./errors.ts";
import { generateKey, keySetFromEnv, parseKeySet } from "./key-set.ts";

const thrown = (work: () => unknown) => thrownError(work, EncryptionError);

const v1 = generateKey();
const v2 = generateKey();
const legacy = randomBytes(16).toString("base64");

describe("parseKeySet", () => {
  it("holds the keys by id, the active id and the legacy key", () => {
    const keySet = parseKeySet({ activeKeyId: "v2", keys: { v1, v2 }, legacyKey: legacy });
    expect(keySet.activeKeyId).toBe("v2");
    expect(keySet.keyIds).toEqual(["v1", "v2"]);
    expect(keySet.hasLegacyKey).toBe(true);
    expect(keySet.key("v1")?.export().toString("base64")).toBe(v1);
    expect(keySet.key("v3")).toBeUndefined();
    expect(keySet.legacyKey()?.symmetricKeySize).toBe(16);
  });

  it("makes a single key active when no active id is given", () => {
    expect(parseKeySet({ keys: { v1 } }).activeKeyId).toBe("v1");
  });

  it("accepts the URL alphabet, missing padding and surrounding whitespace", () => {
    const bytes = Buffer.alloc(32, 0xfb);
    const keySet = parseKeySet({
      activeKeyId: "a",
      keys: { a: `${bytes.toString("base64url")}\n`, b: ` ${bytes.toString("base64")} ` },
    });
    expect(keySet.key("a")?.export()).toEqual(bytes);
    expect(keySet.key("b")?.export()).toEqual(bytes);
  });

  it("rejects a key that is not 32 bytes, naming the id and the length", () => {
    const error = thrown(() => parseKeySet({ keys: { v1: randomBytes(16).toString("base64") } }));
    expect(error.code).toBe("ENCRYPTION_KEY_INVALID");
    expect(error.keyId).toBe("v1");
    expect(error.message).toBe("encryption key 'v1' must be base64 of exactly 32 bytes, got 16 bytes");
  });

  it.each([
    ["not base64 at all", "this is not a key!"],
    ["a dangling character", `${v1.replace(/=$/, "")}AA`],
    ["bad padding", "AAAAA=="],
    ["empty", ""],
  ])("rejects a key that is not base64 (%s)", (_, value) => {
    const error = thrown(() => parseKeySet({ keys: { v1: value } }));
    expect(error.code).toBe("ENCRYPTION_KEY_INVALID");
    expect(error.message).toBe(
      "encryption key 'v1' must be base64 of exactly 32 bytes, got a value that is not base64",
    );
  });

  it("rejects no keys at all, even with a legacy key", () => {
    for (const input of [{}, { keys: {} }, { legacyKey: legacy }]) {
      const error = thrown(() => parseKeySet(input));
      expect(error.code).toBe("ENCRYPTION_CONFIG_INVALID");
      expect(error.message).toMatch(/^no encryption keys are configured: set ATRIUM_ENCRYPTION_KEYS/);
    }
  });

  it("rejects an active key id that is not among the keys", () => {
    const error = thrown(() => parseKeySet({ activeKeyId: "v3", keys: { v1, v2 } }));
    expect(error.code).toBe("ENCRYPTION_CONFIG_INVALID");
    expect(error.message).toBe(
      "the active encryption key id 'v3' (ATRIUM_ENCRYPTION_ACTIVE_KEY_ID) is not among the configured keys (v1, v2): add it to ATRIUM_ENCRYPTION_KEYS",
    );
  });

  it("requires the active key id when there are several keys", () => {
    const error = thrown(() => parseKeySet({ keys: { v1, v2 } }));
    expect(error.code).toBe("ENCRYPTION_CONFIG_INVALID");
    expect(error.message).toMatch(
      /several encryption keys are configured \(v1, v2\): set ATRIUM_ENCRYPTION_ACTIVE_KEY_ID/,
    );
  });

  it.each(["legacy", "a:b", "", "-v1", "x".repeat(33)])("rejects the key id %j", (keyId) => {
    const error = thrown(() => parseKeySet({ keys: { [keyId]: v1 } }));
    expect(error.code).toBe("ENCRYPTION_CONFIG_INVALID");
    expect(error.message).toMatch(/^an encryption key id is invalid/);
  });

  it("rejects a legacy key that is not 16, 24 or 32 bytes", () => {
    const error = thrown(() => parseKeySet({ keys: { v1 }, legacyKey: randomBytes(20).toString("base64") }));
    expect(error.code).toBe("ENCRYPTION_KEY_INVALID");
    expect(error.keyId).toBe("legacy");
    expect(error.message).toBe(
      "the legacy encryption key (ATRIUM_ENCRYPTION_LEGACY_KEY) must be base64 of 16, 24 or 32 bytes, got 20 bytes",
    );
  });

  it.each([16, 24, 32])("accepts a %i-byte legacy key", (bytes) => {
    const keySet = parseKeySet({ keys: { v1 }, legacyKey: randomBytes(bytes).toString("base64") });
    expect(keySet.legacyKey()?.symmetricKeySize).toBe(bytes);
  });
});

describe("keySetFromEnv", () => {
  it("reads the three variables; base64 padding survives the `=` separator", () => {
    const padded = randomBytes(32).toString("base64");
    expect(padded.endsWith("=")).toBe(true);
    const keySet = keySetFromEnv({
      ATRIUM_ENCRYPTION_KEYS: ` v1=${padded} , v2=${v2},`,
      ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "v2",
      ATRIUM_ENCRYPTION_LEGACY_KEY: legacy,
    });
    expect(keySet.keyIds).toEqual(["v1", "v2"]);
    expect(keySet.activeKeyId).toBe("v2");
    expect(keySet.key("v1")?.export().toString("base64")).toBe(padded);
    expect(keySet.hasLegacyKey).toBe(true);
  });

  it("treats empty variables as unset", () => {
    const keySet = keySetFromEnv({
      ATRIUM_ENCRYPTION_KEYS: `v1=${v1}`,
      ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "",
      ATRIUM_ENCRYPTION_LEGACY_KEY: "",
    });
    expect(keySet.activeKeyId).toBe("v1");
    expect(keySet.hasLegacyKey).toBe(false);
  });

  it("rejects no variables at all", () => {
    expect(thrown(() => keySetFromEnv({})).code).toBe("ENCRYPTION_CONFIG_INVALID");
  });

  it("rejects an entry without an id, without echoing it", () => {
    const error = thrown(() => keySetFromEnv({ ATRIUM_ENCRYPTION_KEYS: `v1=${v1},${v2}` }));
    expect(error.code).toBe("ENCRYPTION_CONFIG_INVALID");
    expect(error.message).toMatch(
      /^entry 2 of ATRIUM_ENCRYPTION_KEYS is not of the form <keyId>=<base64 key>, where a key id/,
    );
    const bare = thrown(() => keySetFromEnv({ ATRIUM_ENCRYPTION_KEYS: "v1" }));
    expect(bare.message).toMatch(/^entry 1 of ATRIUM_ENCRYPTION_KEYS is not of the form/);
  });

  it("rejects an id given twice", () => {
    const error = thrown(() => keySetFromEnv({ ATRIUM_ENCRYPTION_KEYS: `v1=${v1},v1=${v2}` }));
    expect(error.message).toBe("ATRIUM_ENCRYPTION_KEYS names key 'v1' twice");
  });
});

describe("generateKey", () => {
  it("returns base64 of 32 random bytes", () => {
    const key = generateKey();
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(generateKey()).not.toBe(key);
    expect(parseKeySet({ keys: { v1: key } }).activeKeyId).toBe("v1");
  });
});

describe("key material never shows", () => {
  const keySet = parseKeySet({ activeKeyId: "v1", keys: { v1, v2 }, legacyKey: legacy });
  const material = [v1, v2, legacy].flatMap((key) => {
    const bytes = Buffer.from(key, "base64");
    return [key, key.replace(/=+$/, ""), bytes.toString("base64url"), bytes.toString("hex"), bytes.toString("latin1")];
  });
  const renderings = {
    "JSON.stringify": JSON.stringify(keySet),
    "JSON.stringify (nested)": JSON.stringify({ config: { keySet } }),
    String: String(keySet),
    template: `${keySet}`,
    inspect: inspect(keySet),
    "inspect (all)": inspect(keySet, { showHidden: true, depth: Number.POSITIVE_INFINITY, customInspect: false }),
    "inspect (key object)": inspect(keySet.key("v1"), { showHidden: true, depth: Number.POSITIVE_INFINITY }),
    "Object.entries": JSON.stringify(Object.entries(keySet)),
  };

  it.each(Object.entries(renderings))("in %s", (_, rendering) => {
    for (const secret of material) expect(rendering).not.toContain(secret);
  });

  it("while ids still show", () => {
    expect(String(keySet)).toBe("KeySet(active v1; keys v1, v2, legacy key)");
    expect(inspect(keySet)).toBe(String(keySet));
    expect(JSON.parse(JSON.stringify(keySet))).toEqual({ activeKeyId: "v1", keyIds: ["v1", "v2"], hasLegacyKey: true });
  });

  it("in configuration errors", () => {
    const short = randomBytes(31).toString("base64");
    const legacyWrong = randomBytes(20).toString("base64");
    const errors = [
      thrown(() => parseKeySet({ keys: { v1: short } })),
      thrown(() => parseKeySet({ keys: { v1 }, legacyKey: legacyWrong })),
      thrown(() => parseKeySet({ keys: { [v1.slice(0, 40)]: v2 } })),
      thrown(() => parseKeySet({ activeKeyId: v1, keys: { v2 } })),
      thrown(() => keySetFromEnv({ ATRIUM_ENCRYPTION_KEYS: v1 })),
      thrown(() => keySetFromEnv({ ATRIUM_ENCRYPTION_KEYS: `${v1.replace(/=+$/, "")}=v1` })),
    ];
    for (const error of errors) {
      const shown = `${error.message}\n${inspect(error)}\n${JSON.stringify(error)}`;
      for (const secret of [short, legacyWrong, v1, v1.replace(/=+$/, ""), v1.slice(0, 40), v2]) {
        expect(shown).not.toContain(secret);
      }
    }
  });
});
