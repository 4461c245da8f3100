/**
 * Password hashing with Argon2id (node:crypto), stored as a PHC string
 * `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>` so parameters can change later
 * without invalidating existing hashes.
 */
import { argon2, randomBytes, timingSafeEqual } from "node:crypto";

/** OWASP's minimum recommendation for Argon2id: 19 MiB, 2 passes, 1 lane. */
const PARAMETERS = { memory: 19456, passes: 2, parallelism: 1 };
const TAG_LENGTH = 32;

function derive(
  password: string,
  nonce: Buffer,
  memory: number,
  passes: number,
  parallelism: number,
  tagLength: number,
) {
  return new Promise<Buffer>((resolve, reject) =>
    argon2("argon2id", { message: password, nonce, memory, passes, parallelism, tagLength }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const { memory, passes, parallelism } = PARAMETERS;
  const salt = randomBytes(16);
  const hash = await derive(password, salt, memory, passes, parallelism, TAG_LENGTH);
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return false;
  const [, memory, passes, parallelism, salt, expected] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const want = Buffer.from(expected, "base64url");
  const got = await derive(password, Buffer.from(salt, "base64url"), +memory, +passes, +parallelism, want.length);
  return timingSafeEqual(got, want);
}
