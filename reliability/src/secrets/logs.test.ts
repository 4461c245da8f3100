/**
 * Where test support puts the output of what it starts: a child's standard output and error each
 * in a file of the run dir (found by the scan), drained outside a run so a child never blocks;
 * collected text appended under a name made safe for a file.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RUN_DIR_VARIABLE } from "./ledger.ts";
import { appendToLog, captureOutput, testLogLevel } from "./logs.ts";
import { scanRunDir } from "./scan.ts";

const TOKEN = "atr_k_Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg";
let runDir: string;
const thisRun = process.env[RUN_DIR_VARIABLE];

beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), "atrium-logs-test-"));
  process.env[RUN_DIR_VARIABLE] = runDir;
});
afterEach(() => {
  process.env[RUN_DIR_VARIABLE] = thisRun;
  rmSync(runDir, { recursive: true, force: true });
});

/** A node child that writes `out` to stdout and `err` to stderr, a lot of each, then exits. */
function child(out: string, err: string) {
  const script = `for (let i = 0; i < 2000; i++) { process.stdout.write(${JSON.stringify(`${out}\n`)}); process.stderr.write(${JSON.stringify(`${err}\n`)}); }`;
  return spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] });
}

const exited = (process: ReturnType<typeof child>) => new Promise((resolve) => process.on("close", resolve));

describe("captureOutput", () => {
  it("copies a child's stdout and stderr to files of their own in the run dir, where the scan finds them", async () => {
    const running = child(`{"msg":"out","key":"${TOKEN}"}`, "err line");
    captureOutput("bench gateway atrium-1", running.stdout, running.stderr);
    await exited(running);
    const files = readdirSync(join(runDir, "logs")).sort();
    const lines = () => files.map((file) => readFileSync(join(runDir, "logs", file), "utf8").split("\n").length - 1);
    // The copies' last writes land just after the child's streams end.
    for (let waited = 0; lines().some((count) => count < 2000) && waited < 5_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(files).toEqual([
      expect.stringMatching(new RegExp(`^bench_gateway_atrium-1-${process.pid}-\\d+\\.log$`)),
      expect.stringMatching(new RegExp(`^bench_gateway_atrium-1-${process.pid}-\\d+\\.log$`)),
    ]);
    const texts = files.map((file) => readFileSync(join(runDir, "logs", file), "utf8")).sort();
    expect(lines()).toEqual([2000, 2000]);
    expect(texts[0]).toMatch(/^err line\n/);
    expect(texts[1]).toContain(TOKEN);
    const scan = scanRunDir(runDir);
    expect(scan.logFiles).toBe(2);
    expect(scan.hits).toHaveLength(2000);
  });

  it("outside a run, writes nothing and drains the streams: a child with much output still exits", async () => {
    delete process.env[RUN_DIR_VARIABLE];
    const running = child("x".repeat(1000), "y".repeat(1000)); // 2 MB each: far beyond a pipe's buffer
    captureOutput("quiet", running.stdout, running.stderr);
    expect(await exited(running)).toBe(0);
    expect(readdirSync(runDir)).toEqual([]);
    expect(testLogLevel("warn")).toBe("warn");
  });
});

describe("appendToLog", () => {
  it("appends collected text (a container's, a pod's) under a file-safe name; the scan reads it", () => {
    appendToLog("pod-atrium-system/gateway 1", "first collection");
    appendToLog("pod-atrium-system/gateway 1", `second {"token":"${TOKEN}"}\n`);
    const file = `pod-atrium-system_gateway_1-${process.pid}.log`;
    expect(readdirSync(join(runDir, "logs"))).toEqual([file]);
    expect(readFileSync(join(runDir, "logs", file), "utf8")).toBe(`first collection\nsecond {"token":"${TOKEN}"}\n`);
    expect(scanRunDir(runDir).hits.map((hit) => hit.line)).toEqual([2]);
    expect(testLogLevel("warn")).toBe("debug");
  });
});
