/**
 * The Go SDK contestant's build cache (go-sdk-build.ts) with the real `go`, on small programs
 * beside the contestant's own go.mod and go.sum: built once per version and source, never again
 * from a warm cache, and a failed build is an error that says what failed.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGoSdkServer, GO_SDK_SOURCE_DIR, goSdkServerPath, goSdkVersion } from "./go-sdk-build.ts";

let scratch: string;
let sourceDir: string;
let env: NodeJS.ProcessEnv;

/** A copy of the contestant's module whose main.go is `main`. */
function writeSource(main: string): void {
  cpSync(join(GO_SDK_SOURCE_DIR, "go.mod"), join(sourceDir, "go.mod"));
  cpSync(join(GO_SDK_SOURCE_DIR, "go.sum"), join(sourceDir, "go.sum"));
  writeFileSync(join(sourceDir, "main.go"), main);
}

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "atrium-go-sdk-build-"));
  sourceDir = join(scratch, "source");
  cpSync(GO_SDK_SOURCE_DIR, sourceDir, { recursive: true });
  env = { ...process.env, ATRIUM_CACHE_DIR: join(scratch, "cache") };
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe("the Go SDK server's build cache", () => {
  it("is keyed by the go-sdk version go.mod pins and by the sources", () => {
    const version = goSdkVersion(sourceDir);
    expect(version).toMatch(/^v\d+\.\d+\.\d+$/);
    const path = goSdkServerPath(sourceDir, env);
    expect(path.startsWith(join(scratch, "cache", "go-sdk-server", `${version}-`))).toBe(true);
    expect(goSdkServerPath(sourceDir, env)).toBe(path);

    writeFileSync(join(sourceDir, "main.go"), "package main\n\nfunc main() {}\n");
    expect(goSdkServerPath(sourceDir, env)).not.toBe(path);
  });

  it("refuses a go.mod that pins no go-sdk version, naming the file", () => {
    writeFileSync(join(sourceDir, "go.mod"), "module example.com/other\n\ngo 1.26\n");
    expect(() => goSdkVersion(sourceDir)).toThrow(`${join(sourceDir, "go.mod")} pins no version of`);
  });

  it("builds once, printing progress, and a warm cache builds nothing", async () => {
    writeSource('package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("built") }\n');
    const lines: string[] = [];
    const binary = await buildGoSdkServer((line) => lines.push(line), sourceDir, env);
    expect(binary).toBe(goSdkServerPath(sourceDir, env));
    expect(statSync(binary).mode & 0o111).not.toBe(0);
    expect(lines[0]).toMatch(/^building the Go SDK server \(github\.com\/modelcontextprotocol\/go-sdk v\d/);
    expect(lines.at(-1)).toMatch(/^built the Go SDK server in \d+\.\d s$/);

    const again: string[] = [];
    const built = statSync(binary).mtimeMs;
    expect(await buildGoSdkServer((line) => again.push(line), sourceDir, env)).toBe(binary);
    expect(again).toEqual([]);
    expect(statSync(binary).mtimeMs).toBe(built);
  }, 120_000);

  it("rejects a failed build with go's own message, and caches nothing", async () => {
    writeSource("package main\n\nfunc main() { undefinedName() }\n");
    await expect(buildGoSdkServer(() => undefined, sourceDir, env)).rejects.toThrow(
      /could not build the Go SDK server: go build .* exited with 1; its last output:\n[\s\S]*undefined: undefinedName/,
    );
    expect(existsSync(goSdkServerPath(sourceDir, env))).toBe(false);
  }, 120_000);

  it("says Go is needed when there is no go on the PATH", async () => {
    await expect(
      buildGoSdkServer(() => undefined, sourceDir, { ...env, PATH: join(scratch, "no-go-here") }),
    ).rejects.toThrow(/the Go SDK contestant needs Go on the PATH/);
  });
});
