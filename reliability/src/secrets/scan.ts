/**
 * The scan of a run's logs for its secrets: every value of the ledger (ledger.ts), in the forms
 * a log could carry it (as is, base64, base64url, hex, URL-encoded, JSON-escaped, and its
 * SHA-256 hex, the stored form of Atrium tokens and keys), searched in every file under the run
 * dir's `logs/`; and, whether recorded or not, anything shaped like an Atrium credential
 * (`atr_s_…`, `atr_t_…`, `atr_k_…`), an Argon2id password hash or an encrypted secret value
 * (`gcm1:…`). A hit names the secret's kind, the form, the file and the line, never the secret
 * in full.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ATRIUM_CREDENTIAL, type LedgerEntry, MIN_SECRET_LENGTH } from "./ledger.ts";

export interface SecretHit {
  kind: string;
  /** How it appeared: "as is", "base64", "sha256 hex", "pattern", … */
  form: string;
  /** Relative to the run dir. */
  file: string;
  line: number;
  /** The line, shortened, with every secret found in it masked. */
  context: string;
  /** The start of the secret and its length, e.g. `atr_…(49 chars)`. */
  preview: string;
}

export interface ScanResult {
  secrets: number;
  /** Forms searched: secrets × their distinct forms. */
  needles: number;
  logFiles: number;
  logLines: number;
  logBytes: number;
  hits: SecretHit[];
}

interface Needle {
  text: string;
  kind: string;
  form: string;
  secret: string;
}

/** Shapes no log may show, recorded or not. */
const PATTERNS: { kind: string; pattern: RegExp }[] = [
  { kind: "Atrium credential (login token, API token or API key)", pattern: ATRIUM_CREDENTIAL },
  {
    kind: "password hash (Argon2id)",
    pattern: /\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+/g,
  },
  { kind: "encrypted secret value", pattern: /gcm1:[A-Za-z0-9._-]+:[A-Za-z0-9_-]{40,}/g },
];

/** The ledger entries of every process of the run, each value once. */
export function readLedger(runDir: string): LedgerEntry[] {
  const byValue = new Map<string, LedgerEntry>();
  for (const file of filesUnder(join(runDir, "ledger"))) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line) continue;
      const entry = JSON.parse(line) as LedgerEntry;
      if (entry.value.length >= MIN_SECRET_LENGTH && !byValue.has(entry.value)) byValue.set(entry.value, entry);
    }
  }
  return [...byValue.values()];
}

/** The forms a log could show `value` in, each once. */
export function formsOf(value: string): { form: string; text: string }[] {
  const bytes = Buffer.from(value, "utf8");
  const forms = [
    { form: "as is", text: value },
    { form: "base64", text: bytes.toString("base64") },
    { form: "base64url", text: bytes.toString("base64url") },
    { form: "hex", text: bytes.toString("hex") },
    { form: "URL-encoded", text: encodeURIComponent(value) },
    { form: "JSON-escaped", text: JSON.stringify(value).slice(1, -1) },
    { form: "sha256 hex", text: createHash("sha256").update(value).digest("hex") },
  ];
  const seen = new Set<string>();
  return forms.filter(({ text }) => text.length >= MIN_SECRET_LENGTH && !seen.has(text) && seen.add(text));
}

export function scanRunDir(runDir: string): ScanResult {
  const entries = readLedger(runDir);
  const needles = entries.flatMap((entry) =>
    formsOf(entry.value).map(({ form, text }) => ({ text, form, kind: entry.kind, secret: entry.value })),
  );
  const index = indexByPrefix(needles);
  const result: ScanResult = {
    secrets: entries.length,
    needles: needles.length,
    logFiles: 0,
    logLines: 0,
    logBytes: 0,
    hits: [],
  };
  for (const file of filesUnder(join(runDir, "logs"))) {
    const text = readFileSync(file, "utf8");
    result.logFiles += 1;
    result.logBytes += Buffer.byteLength(text);
    result.logLines += countLines(text);
    result.hits.push(...hitsIn(text, relative(runDir, file), index));
  }
  return result;
}

/** The hits, one a line, for a failed run's report. */
export function formatHits(hits: SecretHit[]): string {
  return hits
    .map((hit) => `- ${hit.kind} (${hit.form}, ${hit.preview}) in ${hit.file}:${hit.line}\n    ${hit.context}`)
    .join("\n");
}

const PREFIX = MIN_SECRET_LENGTH;
const BASE = 31;
const BASE_TO_PREFIX = (() => {
  let power = 1;
  for (let i = 1; i < PREFIX; i++) power = Math.imul(power, BASE);
  return power;
})();

function prefixHash(text: string, start: number): number {
  let hash = 0;
  for (let i = start; i < start + PREFIX; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

/** Needles by a hash of their first characters, so one pass over a log finds them all. */
function indexByPrefix(needles: Needle[]): Map<number, Needle[]> {
  const index = new Map<number, Needle[]>();
  for (const needle of needles) {
    const hash = prefixHash(needle.text, 0);
    const bucket = index.get(hash);
    if (bucket) bucket.push(needle);
    else index.set(hash, [needle]);
  }
  return index;
}

interface Found {
  start: number;
  end: number;
  kind: string;
  form: string;
  secret: string;
}

function hitsIn(text: string, file: string, index: Map<number, Needle[]>): SecretHit[] {
  const found: Found[] = [];
  if (text.length >= PREFIX && index.size > 0) {
    // A rolling hash of the PREFIX characters at each position (Rabin-Karp), checked against the index.
    let hash = prefixHash(text, 0);
    for (let i = 0; ; i++) {
      const bucket = index.get(hash);
      if (bucket) {
        for (const needle of bucket) {
          if (text.startsWith(needle.text, i))
            found.push({
              start: i,
              end: i + needle.text.length,
              kind: needle.kind,
              form: needle.form,
              secret: needle.secret,
            });
        }
      }
      if (i + PREFIX >= text.length) break;
      hash = (Math.imul(hash - Math.imul(text.charCodeAt(i), BASE_TO_PREFIX), BASE) + text.charCodeAt(i + PREFIX)) | 0;
    }
  }
  for (const { kind, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern))
      found.push({ start: match.index, end: match.index + match[0].length, kind, form: "pattern", secret: match[0] });
  }
  return withoutOverlaps(found).map((hit) => describe(text, file, hit, found));
}

/** One hit per occurrence: a form inside another of the same secret (base64url in base64, a recorded token its pattern) is dropped. */
function withoutOverlaps(found: Found[]): Found[] {
  const kept: Found[] = [];
  for (const hit of found) {
    const inside = (other: Found) => other.secret === hit.secret && other.start <= hit.start && other.end >= hit.end;
    if (!kept.some(inside)) kept.push(hit);
  }
  return kept;
}

function describe(text: string, file: string, hit: Found, all: Found[]): SecretHit {
  const lineStart = text.lastIndexOf("\n", hit.start - 1) + 1;
  const newline = text.indexOf("\n", hit.start);
  const lineEnd = newline === -1 ? text.length : newline;
  // Every secret found on the line is masked, not only this one.
  let context = "";
  let at = lineStart;
  for (const other of all.filter((o) => o.start < lineEnd && o.end > lineStart).sort((a, b) => a.start - b.start)) {
    if (other.start < at) {
      at = Math.max(at, other.end);
      continue;
    }
    context += `${text.slice(at, other.start)}«${other.kind}»`;
    at = other.end;
  }
  context += text.slice(at, lineEnd);
  return {
    kind: hit.kind,
    form: hit.form,
    file,
    line: countLines(text.slice(0, hit.start)) + 1,
    context: context.length > 240 ? `${context.slice(0, 240)}…` : context,
    preview: `${hit.secret.slice(0, 4)}…(${hit.secret.length} chars)`,
  };
}

function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines += 1;
  return lines;
}

function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return names.map((name) => join(dir, name)).filter((path) => statSync(path).isFile());
}
