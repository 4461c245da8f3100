/**
 * A benchmark stopped by a signal (vitest's timeout, Ctrl-C) leaves no scratch folder behind:
 * a real node process makes one with `scratchFolder`, is signalled, and the folder is gone.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const script = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchFolder } from ${JSON.stringify(join(import.meta.dirname, "processes.ts"))};
const folder = scratchFolder("processes-test");
writeFileSync(join(folder, "file"), "kept until exit");
console.log(folder);
setInterval(() => undefined, 1000);
`;

/** The folder a fresh process made, and how that process ended after `signal`. */
async function signalled(signal: "SIGTERM" | "SIGINT") {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const folder = await new Promise<string>((resolve) =>
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  const existedBefore = existsSync(join(folder, "file"));
  child.kill(signal);
  return { folder, existedBefore, code: await exited };
}

describe("scratchFolder", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`is removed when the benchmark gets ${signal}`, async () => {
      const { folder, existedBefore, code } = await signalled(signal);
      expect(existedBefore).toBe(true);
      expect(code).toBe(130);
      expect(existsSync(folder)).toBe(false);
    }, 30_000);
  }
});
