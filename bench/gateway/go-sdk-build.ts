/**
 * Builds the official Go SDK contestant (go-sdk-server/) once, with the Go module proxy, into
 * ~/.cache/atrium/go-sdk-server/<sdk version>-<source hash>/ (ATRIUM_CACHE_DIR and
 * XDG_CACHE_HOME honoured), as hack/kube/build.sh caches the Kubernetes binaries: another SDK
 * version pinned in go.mod, or any change to main.go, go.mod or go.sum, builds another binary;
 * a warm cache builds nothing. `go build -v` lists the packages it compiles as progress.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const GO_SDK_SOURCE_DIR = join(import.meta.dirname, "go-sdk-server");
const GO_SDK_MODULE = "github.com/modelcontextprotocol/go-sdk";
const SOURCE_FILES = ["main.go", "go.mod", "go.sum"];
/** A cold build (module downloads, the SDK compiled) takes about a minute on 2 shared cores. */
const BUILD_TIMEOUT_MS = 5 * 60_000;
const OUTPUT_TAIL_CHARS = 4_000;

/** The go-sdk version `sourceDir`'s go.mod pins. */
export function goSdkVersion(sourceDir = GO_SDK_SOURCE_DIR): string {
  const goMod = readFileSync(join(sourceDir, "go.mod"), "utf8");
  const version = new RegExp(`^\\s*(?:require\\s+)?${GO_SDK_MODULE.replaceAll(".", "\\.")}\\s+(v\\S+)`, "m").exec(
    goMod,
  )?.[1];
  if (!version) throw new Error(`${join(sourceDir, "go.mod")} pins no version of ${GO_SDK_MODULE}`);
  return version;
}

/** Where the binary of `sourceDir` lives in the cache: its folder is named by SDK version and source hash. */
export function goSdkServerPath(sourceDir = GO_SDK_SOURCE_DIR, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash("sha256");
  for (const file of SOURCE_FILES)
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(sourceDir, file)));
  const cache = env.ATRIUM_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "atrium");
  const key = `${goSdkVersion(sourceDir)}-${hash.digest("hex").slice(0, 16)}`;
  return join(cache, "go-sdk-server", key, "go-sdk-server");
}

/**
 * The path of the built server, building it first when the cache has none. Progress goes to
 * `log` (one line each); a missing `go` or a failed build rejects with what went wrong and
 * go's last output.
 */
export async function buildGoSdkServer(
  log: (line: string) => void,
  sourceDir = GO_SDK_SOURCE_DIR,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const binary = goSdkServerPath(sourceDir, env);
  if (existsSync(binary)) return binary;
  const version = goSdkVersion(sourceDir);
  const folder = join(binary, "..");
  mkdirSync(folder, { recursive: true });
  // Built beside it and renamed into place: two runs building at once never see half a binary.
  const partial = `${binary}.build-${process.pid}`;
  log(`building the Go SDK server (${GO_SDK_MODULE} ${version}) into ${folder}; a cold build takes about a minute`);
  const started = performance.now();
  try {
    await runGo(["build", "-v", "-trimpath", "-ldflags", "-s -w", "-o", partial, "."], sourceDir, env, log);
    renameSync(partial, binary);
  } finally {
    rmSync(partial, { force: true });
  }
  log(`built the Go SDK server in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return binary;
}

function runGo(args: string[], cwd: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const what = `go ${args.join(" ")} (in ${cwd})`;
  return new Promise((resolve, reject) => {
    // The toolchain installed here, the module's own go.mod and go.sum as committed, no C compiler needed.
    const child = spawn("go", args, {
      cwd,
      env: { ...env, GOTOOLCHAIN: "local", GOWORK: "off", CGO_ENABLED: "0", GOFLAGS: "-mod=readonly" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let tail = "";
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      tail = (tail + text).slice(-OUTPUT_TAIL_CHARS);
      for (const line of text.split("\n")) if (line.trim()) log(`  ${line.trim()}`);
    };
    child.stdout.on("data", onOutput);
    child.stderr.on("data", onOutput);
    const timer = setTimeout(() => child.kill("SIGKILL"), BUILD_TIMEOUT_MS);
    child.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new Error(
          error.code === "ENOENT"
            ? `the Go SDK contestant needs Go on the PATH to build ${cwd} (Go 1.26; the Go module proxy must be reachable), and found none`
            : `${what} could not start: ${error.message}`,
        ),
      );
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `could not build the Go SDK server: ${what} ${signal === "SIGKILL" ? `took more than ${BUILD_TIMEOUT_MS / 1000} s` : `exited with ${code ?? signal}`}; its last output:\n${tail.trim()}`,
          ),
        );
    });
  });
}
