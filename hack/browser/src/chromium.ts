/**
 * Where the browser tests' Chromium comes from: Debian's `chromium` package, installed by
 * hack/browser/install.sh when missing (never a browser build downloaded by a tool). The install
 * runs once per test process; later calls reuse its answer.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The launcher script of Debian's chromium package (it execs /usr/lib/chromium/chromium). */
export const CHROMIUM_PATH = "/usr/bin/chromium";

const INSTALL_SCRIPT = resolve(import.meta.dirname, "../install.sh");
// apt-get may wait up to 10 min for another install's dpkg lock, then download ~100 MB.
const INSTALL_TIMEOUT_MS = 15 * 60_000;

let installed: Promise<string> | undefined;

/** Installs Chromium when missing; resolves with the Debian package's version. */
export function ensureChromium(log: (line: string) => void = () => {}): Promise<string> {
  installed ??= run("bash", [INSTALL_SCRIPT], { timeout: INSTALL_TIMEOUT_MS }).then(
    ({ stdout, stderr }) => {
      for (const line of stderr.split("\n").filter(Boolean)) log(`browser: ${line}`);
      return stdout.trim();
    },
    (error: Error & { stderr?: string }) => {
      installed = undefined; // a later call may try again (the lock holder may have finished)
      throw new Error(`hack/browser/install.sh failed: ${error.stderr?.trim() || error.message}`);
    },
  );
  return installed;
}
