/**
 * The end-of-run scan on planted logs: a recorded secret found as is and in its encoded forms,
 * Atrium credentials and password hashes found unrecorded, short values and clean files left
 * alone, a report that names kind, file and line but never shows the secret; and the run dir
 * kept on a hit, removed when clean or when its run has ended.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { concludeRun, OWNER_FILE, RUN_DIR_PREFIX, removeFinishedRuns, setup } from "./global-setup.ts";
import { type LedgerEntry, RUN_DIR_VARIABLE } from "./ledger.ts";
import { formatHits, scanRunDir } from "./scan.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A run dir of its own (not this run's): a ledger of `secrets` and log files of the given text. */
function plantedRun(secrets: LedgerEntry[], logs: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "atrium-scan-test-"));
  dirs.push(dir);
  mkdirSync(join(dir, "ledger"));
  mkdirSync(join(dir, "logs", "nested"), { recursive: true });
  writeFileSync(join(dir, "ledger", "1.jsonl"), secrets.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
  for (const [name, text] of Object.entries(logs)) writeFileSync(join(dir, "logs", name), text);
  return dir;
}

const TOKEN = "atr_t_Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg";
const PASSWORD = "correct horse/battery+staple";
const clean = '{"level":20,"msg":"incoming request","req":{"method":"GET","url":"/api/v1/services"}}\n';

describe("scanRunDir", () => {
  it("finds a recorded secret as is, with its kind, file and line, masked in the report", () => {
    const dir = plantedRun([{ kind: "API token", value: TOKEN }], {
      "control-plane-1-1.log": `${clean}${clean}{"msg":"authenticated","token":"${TOKEN}"}\n${clean}`,
    });
    const result = scanRunDir(dir);
    // Once, under its recorded kind (the credential pattern matches the same text).
    expect(result.hits).toEqual([
      expect.objectContaining({ kind: "API token", form: "as is", file: "logs/control-plane-1-1.log", line: 3 }),
    ]);
    const report = formatHits(result.hits);
    expect(report).toContain("logs/control-plane-1-1.log:3");
    expect(report).toContain('"token":"«');
    expect(report).not.toContain(TOKEN);
    expect(report).not.toContain(TOKEN.slice(0, 12));
    expect(result).toMatchObject({ secrets: 1, logFiles: 1, logLines: 4 });
  });

  it("finds the base64, hex, URL-encoded, JSON-escaped and SHA-256 forms", () => {
    const value = 'pass"word/with+signs';
    const forms = {
      base64: Buffer.from(value).toString("base64"),
      hex: Buffer.from(value).toString("hex"),
      "URL-encoded": encodeURIComponent(value),
      "JSON-escaped": JSON.stringify(value).slice(1, -1),
      "sha256 hex": createHash("sha256").update(value).digest("hex"),
    };
    const lines = Object.values(forms).map((text) => `{"msg":"x","field":"${text}"}\n`);
    const dir = plantedRun([{ kind: "user password", value }], { "nested/gateway-2-3.log": lines.join("") });
    const hits = scanRunDir(dir).hits;
    expect(hits.map((hit) => [hit.form, hit.line])).toEqual(Object.keys(forms).map((form, index) => [form, index + 1]));
    expect(hits.every((hit) => hit.file === "logs/nested/gateway-2-3.log")).toBe(true);
  });

  it("finds Atrium credentials, Argon2id hashes and encrypted values that were never recorded", () => {
    const hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g";
    const cipher = `gcm1:test:${"A".repeat(60)}`;
    const dir = plantedRun([], {
      "operator-3-1.log": `${clean}key ${TOKEN.replace("atr_t_", "atr_k_")}\n${hash}\n${cipher}\n`,
    });
    const hits = scanRunDir(dir).hits;
    expect(hits.map((hit) => [hit.kind, hit.line])).toEqual([
      ["Atrium credential (login token, API token or API key)", 2],
      ["password hash (Argon2id)", 3],
      ["encrypted secret value", 4],
    ]);
  });

  it("leaves short values and clean logs alone", () => {
    const dir = plantedRun(
      [
        { kind: "user password", value: "admin12" },
        { kind: "user password", value: PASSWORD },
      ],
      { "cli-1.log": `${clean}user admin12 logged in\n`, "webhook-1-1.log": clean },
    );
    const result = scanRunDir(dir);
    expect(result.hits).toEqual([]);
    expect(result).toMatchObject({ secrets: 1, logFiles: 2, logLines: 3 });
  });

  it("finds a secret at the very start and the very end of a file", () => {
    const dir = plantedRun([{ kind: "user password", value: PASSWORD }], {
      "a.log": `${PASSWORD}${clean}`,
      "b.log": `${clean}${PASSWORD}`,
    });
    expect(scanRunDir(dir).hits.map((hit) => [hit.file, hit.line])).toEqual([
      ["logs/a.log", 1],
      ["logs/b.log", 2],
    ]);
  });
});

describe("the end of a run", () => {
  it("fails on a hit, keeping the run dir, and removes a clean one", () => {
    const hit = plantedRun([{ kind: "user password", value: PASSWORD }], { "a.log": `x ${PASSWORD}\n` });
    expect(() => concludeRun(hit, scanRunDir(hit))).toThrow(
      new RegExp(
        `1 secret\\(s\\) found .*run dir kept for inspection: ${hit}\\n- user password \\(as is, corr…\\(28 chars\\)\\) in logs/a.log:1`,
      ),
    );
    expect(existsSync(hit)).toBe(true);
    const clean = plantedRun([{ kind: "user password", value: PASSWORD }], { "a.log": "nothing here\n" });
    concludeRun(clean, scanRunDir(clean));
    expect(existsSync(clean)).toBe(false);
  });

  it("removes the run dirs of ended runs and keeps those of running ones", () => {
    const parent = mkdtempSync(join(tmpdir(), "atrium-runs-test-"));
    dirs.push(parent);
    const run = (name: string, owner: number) => {
      mkdirSync(join(parent, `${RUN_DIR_PREFIX}${name}`));
      writeFileSync(join(parent, `${RUN_DIR_PREFIX}${name}`, OWNER_FILE), String(owner));
    };
    run("ended", 2 ** 22 + 1); // above Linux's pid_max: never a live process
    run("running", process.pid);
    mkdirSync(join(parent, `${RUN_DIR_PREFIX}starting`)); // no owner yet
    removeFinishedRuns(parent);
    expect(existsSync(join(parent, `${RUN_DIR_PREFIX}ended`))).toBe(false);
    expect(existsSync(join(parent, `${RUN_DIR_PREFIX}running`))).toBe(true);
    expect(existsSync(join(parent, `${RUN_DIR_PREFIX}starting`))).toBe(true);
  });
});

describe("a run dir removed during the run", () => {
  it("fails the run instead of passing a scan of what is left", () => {
    const ours = process.env[RUN_DIR_VARIABLE];
    const teardown = setup();
    const theirs = String(process.env[RUN_DIR_VARIABLE]);
    process.env[RUN_DIR_VARIABLE] = ours;
    rmSync(theirs, { recursive: true, force: true });
    expect(teardown).toThrow(`the run dir ${theirs} was removed during the test run`);
  });
});
