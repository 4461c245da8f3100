/**
 * The ledger of secrets a test run creates or receives, for the scan of every log at the end of
 * the run (scan.ts, global-setup.ts). Test support records each secret here: passwords sent,
 * tokens and API keys answered, secret values written, keys of test configs, tokens of test
 * issuers. Entries are JSON lines appended to `<run dir>/ledger/<pid>.jsonl`, one file per
 * process, so workers never share a file. Outside a run with a run dir (no
 * ATRIUM_TEST_RUN_DIR), recording does nothing.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** The variable the vitest global setup sets for the workers: the run's folder. */
export const RUN_DIR_VARIABLE = "ATRIUM_TEST_RUN_DIR";

/** Values shorter than this are not recorded: they would be found by chance in any log. */
export const MIN_SECRET_LENGTH = 8;

export interface LedgerEntry {
  /** What the secret is ("API token", "user password", …): what a hit reports. */
  kind: string;
  value: string;
}

/** The run's folder, when this process runs under the global setup. */
export function testRunDir(): string | undefined {
  return process.env[RUN_DIR_VARIABLE] || undefined;
}

const recorded = new Set<string>();

/**
 * Records a secret for the end-of-run scan. A Buffer (a key) is recorded in the text forms a
 * configuration or log could show it in: base64, base64url and hex.
 */
export function recordSecret(kind: string, value: string | Buffer | null | undefined): void {
  const dir = testRunDir();
  if (!dir || value === null || value === undefined) return;
  if (Buffer.isBuffer(value)) {
    for (const text of new Set([value.toString("base64"), value.toString("base64url"), value.toString("hex")]))
      recordSecret(kind, text);
    return;
  }
  if (value.length < MIN_SECRET_LENGTH || recorded.has(value)) return;
  recorded.add(value);
  const ledger = join(dir, "ledger");
  mkdirSync(ledger, { recursive: true });
  appendFileSync(join(ledger, `${process.pid}.jsonl`), `${JSON.stringify({ kind, value } satisfies LedgerEntry)}\n`);
}

/**
 * The REST API's fields that hold secrets (contract/src/rest): passwords in (login, users,
 * organization admins), tokens out (login, API tokens: shown once), API keys out (plans: shown
 * once), and backend secret values in (write-only, under /secrets).
 */
const SECRET_FIELDS: Record<string, string> = {
  password: "user password",
  token: "token",
  apiKey: "API key",
  clientSecret: "OAuth client secret",
  client_secret: "OAuth client secret",
  access_token: "OAuth access token",
  refresh_token: "OAuth refresh token",
};

/** The kind of an Atrium credential by its prefix (control-plane/src/auth/tokens.ts). */
function tokenKind(value: string, fallback: string): string {
  if (value.startsWith("atr_s_")) return "login token";
  if (value.startsWith("atr_t_")) return "API token";
  if (value.startsWith("atr_k_")) return "API key";
  return fallback;
}

/**
 * Records the secret fields of a REST body, request or answer, at any depth; `path` is the
 * request's, which tells a backend secret's `value` from any other.
 */
export function recordSecretFields(body: unknown, path = ""): void {
  if (!testRunDir() || body === null || typeof body !== "object") return;
  const secretValues = /\/secrets(\/|$|\?)/.test(path);
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === "string") {
      const kind = SECRET_FIELDS[key] ?? (secretValues && key === "value" ? "backend secret value" : undefined);
      if (kind) recordSecret(tokenKind(value, kind), value);
    } else recordSecretFields(value, path);
  }
}

/** Atrium credentials (control-plane/src/auth/tokens.ts: a prefix and 32 random bytes in base64url). */
export const ATRIUM_CREDENTIAL = /atr_[stk]_[A-Za-z0-9_-]{43}/g;

/** Records every Atrium credential in `text`, e.g. a CLI command's answer that shows a new token once. */
export function recordCredentialsIn(text: string): void {
  for (const [credential] of text.matchAll(ATRIUM_CREDENTIAL)) recordSecret(tokenKind(credential, "token"), credential);
}
