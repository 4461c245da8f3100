/**
 * The cipher a control plane starts with. Keys come from ATRIUM_ENCRYPTION_*; without them an
 * embedded database gets a generated key kept beside it (0600), so the local stack needs no
 * set-up, while PostgreSQL deployments must configure keys shared by every replica.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSecretCipher, type SecretCipher } from "./cipher.ts";
import { generateKey, type KeySet, parseKeySet } from "./key-set.ts";

export function cipherFor(options: {
  keys: KeySet | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
}): SecretCipher {
  if (options.keys) return createSecretCipher(options.keys);
  if (options.databaseUrl) {
    throw new Error(
      "ATRIUM_ENCRYPTION_KEYS is required with ATRIUM_DATABASE_URL (for example v1=<base64 of 32 random bytes>) " +
        "and ATRIUM_ENCRYPTION_ACTIVE_KEY_ID=v1; every replica needs the same keys",
    );
  }
  if (!options.dataDir)
    return createSecretCipher(parseKeySet({ activeKeyId: "local", keys: { local: generateKey() } }));
  const file = join(options.dataDir, "encryption-key");
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(file, `${generateKey()}\n`, { mode: 0o600, flag: "wx" });
  }
  return createSecretCipher(parseKeySet({ activeKeyId: "local", keys: { local: readFileSync(file, "utf8").trim() } }));
}
