/**
 * The cluster key (ATRIUM_GATEWAY_CLUSTER_KEY_FILE, the chart's keystore entry `cluster-key`):
 * every gateway of one cluster holds the same secret, and derives from it with HKDF-SHA256 one
 * AES-256-GCM key per purpose, so a sealed MRTR requestState can never be opened as an elicited
 * credential or the other way round (nor a credential's requestState as a missing-arguments one; the page's sign-in state
 * and proof, and a backend authorization's state, have keys of their own too),
 * and one HMAC-SHA256 key for the elicitation page's CSRF tokens. Each key has a short id (also derived) written in front of
 * what it seals: a keyring holds the current key and older ones, so a rotation can open what the
 * previous key sealed while sealing only with the new one.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** What a derived key is for; part of the HKDF info, so each purpose gets an unrelated key. */
export type KeyPurpose =
  | "request-state"
  | "argument-state"
  | "elicited-credential"
  | "sign-in-state"
  | "sign-in-proof"
  | "grant-state";
/** What a derived HMAC-SHA256 key signs (integrity without secrecy): the elicitation page's CSRF tokens. */
export type SignPurpose = "elicitation-form";

/** Least length of the cluster key, in bytes (as for the session key). */
export const CLUSTER_KEY_MIN_BYTES = 32;

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Salt of the derivation: fixed, the key itself is uniformly random. */
const SALT = Buffer.from("atrium cluster key v1");

export type OpenFailure = "malformed" | "unknown-key" | "tampered";

interface DerivedKeys {
  id: string;
  keys: Record<KeyPurpose | SignPurpose, Buffer>;
}

function derive(master: Buffer): DerivedKeys {
  if (master.length < CLUSTER_KEY_MIN_BYTES)
    throw new Error(`a cluster key needs at least ${CLUSTER_KEY_MIN_BYTES} bytes`);
  const hkdf = (info: string, length: number) => Buffer.from(hkdfSync("sha256", master, SALT, info, length));
  return {
    // 48 bits: only tells keys of one keyring apart, never a secret.
    id: hkdf("atrium key id", 6).toString("base64url"),
    keys: {
      "request-state": hkdf("atrium request-state", 32),
      "argument-state": hkdf("atrium argument-state", 32),
      "elicited-credential": hkdf("atrium elicited-credential", 32),
      "sign-in-state": hkdf("atrium sign-in-state", 32),
      "sign-in-proof": hkdf("atrium sign-in-proof", 32),
      "grant-state": hkdf("atrium grant-state", 32),
      "elicitation-form": hkdf("atrium elicitation-form", 32),
    },
  };
}

export class ClusterKeyring {
  private readonly current: DerivedKeys;
  private readonly byId = new Map<string, DerivedKeys>();

  /** `keys[0]` seals; every key opens. */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error("a keyring needs at least one cluster key");
    const derived = keys.map(derive);
    this.current = derived[0] as DerivedKeys;
    for (const entry of derived) if (!this.byId.has(entry.id)) this.byId.set(entry.id, entry);
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  /**
   * `<key id>.<base64url(iv | ciphertext | tag)>`. `context` is authenticated, not stored: open
   * succeeds only with the same context (what the sealed value is bound to).
   */
  seal(purpose: KeyPurpose, plaintext: Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.current.keys[purpose], iv);
    cipher.setAAD(additionalData(purpose, this.current.id, context));
    const body = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return `${this.current.id}.${body.toString("base64url")}`;
  }

  open(
    purpose: KeyPurpose,
    sealed: string,
    context: string,
  ): { ok: true; plaintext: Buffer } | { ok: false; reason: OpenFailure } {
    const dot = sealed.indexOf(".");
    if (dot <= 0 || !/^[A-Za-z0-9_-]+$/.test(sealed.slice(dot + 1))) return { ok: false, reason: "malformed" };
    const keyId = sealed.slice(0, dot);
    const entry = this.byId.get(keyId);
    if (!entry) return { ok: false, reason: "unknown-key" };
    const body = Buffer.from(sealed.slice(dot + 1), "base64url");
    if (body.length < IV_BYTES + TAG_BYTES) return { ok: false, reason: "malformed" };
    try {
      const decipher = createDecipheriv("aes-256-gcm", entry.keys[purpose], body.subarray(0, IV_BYTES));
      decipher.setAAD(additionalData(purpose, keyId, context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const plaintext = Buffer.concat([
        decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return { ok: true, plaintext };
    } catch {
      return { ok: false, reason: "tampered" };
    }
  }

  /** `<key id>.<base64url(HMAC-SHA256(message))>` with the current key. */
  sign(purpose: SignPurpose, message: string): string {
    return `${this.current.id}.${mac(this.current.keys[purpose], message)}`;
  }

  /** Whether `signature` is sign(purpose, message) under any key of the ring (compared in constant time). */
  verify(purpose: SignPurpose, message: string, signature: string): boolean {
    const dot = signature.indexOf(".");
    const entry = dot > 0 ? this.byId.get(signature.slice(0, dot)) : undefined;
    if (!entry) return false;
    const expected = Buffer.from(mac(entry.keys[purpose], message));
    const given = Buffer.from(signature.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function mac(key: Buffer, message: string): string {
  return createHmac("sha256", key).update(message).digest("base64url");
}

function additionalData(purpose: KeyPurpose, keyId: string, context: string): Buffer {
  return Buffer.from(JSON.stringify([purpose, keyId, context]));
}
