/**
 * launchBrowser(): real headless Chromium (Debian's package) driven by playwright-core.
 *
 * Chromium runs as a Playwright browser server on 127.0.0.1 so that this module knows its process:
 * close() ends it (SIGKILL of its whole process group when a graceful close takes too long), and a
 * watchdog kills it and removes its temp folders (profile, artifacts) if the test process dies
 * without closing, even by SIGKILL. Every context gets bounded timeouts, so a page that never answers fails the test
 * instead of hanging it. Screenshots go to a temp folder of their own, kept for a look after the
 * run (its path is printed).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWatchdog } from "@atrium/kube-testenv";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type BrowserServer,
  chromium,
  type Page,
} from "playwright-core";
import { CHROMIUM_PATH, ensureChromium } from "./chromium.ts";

export interface LaunchedBrowser {
  browser: Browser;
  /** The Debian package's version, e.g. 156.0.8078.79-1~deb12u1. */
  packageVersion: string;
  /** The browser's own version, e.g. 156.0.8078.79. */
  version: string;
  /** The browser's main process (its process group holds the renderers and helpers). */
  pid: number;
  /** Chromium's temp profile (Playwright's), removed by close(). */
  profileDir: string;
  /** Playwright's downloads and traces folder, removed by close(). */
  artifactsDir: string;
  /** Temp folder for screenshots, made by the first one and kept after close() for a look. */
  screenshotDir: string;
  /** A fresh context (own cookies and storage) with bounded timeouts, and a page in it. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Screenshots every open page into screenshotDir; resolves with the files written. */
  screenshotAll(label: string): Promise<string[]>;
  /** Closes every context and the browser; no Chromium process is left. Idempotent. */
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Progress lines (install, launch, close). */
  log?: (line: string) => void;
}

// Root in a container: Chromium's sandbox needs user namespaces these machines refuse. /dev/shm is
// small in containers; the GPU is absent.
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"];
const LAUNCH_TIMEOUT_MS = 60_000; // a cold start on a loaded 2-core machine takes seconds
const ACTION_TIMEOUT_MS = 10_000;
const NAVIGATION_TIMEOUT_MS = 20_000;
const CLOSE_TIMEOUT_MS = 10_000;

// Run if the test process dies without close(), even by SIGKILL: ends the browser's process group
// and removes its profile and artifacts folders ($0 is the pid, $1 and $2 the folders).
const WATCHDOG_CLEANUP = 'kill -KILL -- "-$0" 2>/dev/null; sleep 1; rm -rf -- "$1" "$2"';

export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  const log = options.log ?? (() => {});
  const startedAt = Date.now();
  const packageVersion = await ensureChromium(log);
  // Playwright's downloads and traces folder: ours, so that the watchdog knows it. `artifactsDir`
  // is a launch parameter of Playwright's protocol that its TypeScript types do not list.
  const artifactsDir = await mkdtemp(join(tmpdir(), "atrium-browser-artifacts-"));
  let server: BrowserServer;
  try {
    server = await chromium.launchServer(
      Object.assign(
        {
          executablePath: CHROMIUM_PATH,
          headless: true,
          args: CHROMIUM_ARGS,
          host: "127.0.0.1",
          timeout: LAUNCH_TIMEOUT_MS,
        },
        { artifactsDir },
      ),
    );
  } catch (error) {
    await rm(artifactsDir, { recursive: true, force: true });
    throw error;
  }
  const pid = server.process().pid;
  const profileDir = pid === undefined ? undefined : await userDataDir(pid);
  if (pid === undefined || !profileDir) {
    await server.kill();
    await rm(artifactsDir, { recursive: true, force: true });
    throw new Error(`${CHROMIUM_PATH} did not start with a profile of Playwright's (pid ${pid})`);
  }
  const watchdog = startWatchdog(profileDir, ["sh", "-c", WATCHDOG_CLEANUP, String(pid), profileDir, artifactsDir]);
  let browser: Browser;
  try {
    browser = await chromium.connect(server.wsEndpoint(), { timeout: LAUNCH_TIMEOUT_MS });
  } catch (error) {
    await server.kill();
    await rm(artifactsDir, { recursive: true, force: true });
    watchdog.dispose();
    throw error;
  }
  // Made on the first screenshot only: a run without failures leaves no folder behind.
  const screenshotDir = join(tmpdir(), `atrium-browser-screenshots-${pid}-${Date.now()}`);
  log(`browser: Chromium ${browser.version()} (pid ${pid}) started in ${Date.now() - startedAt} ms`);
  const contexts = new Set<BrowserContext>();
  let closing: Promise<void> | undefined;
  return {
    browser,
    packageVersion,
    version: browser.version(),
    pid,
    profileDir,
    artifactsDir,
    screenshotDir,
    async newPage(contextOptions) {
      const context = await browser.newContext(contextOptions);
      contexts.add(context);
      context.on("close", () => contexts.delete(context));
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
      return context.newPage();
    },
    async screenshotAll(label) {
      const files: string[] = [];
      const pages = [...contexts].flatMap((context) => context.pages());
      if (pages.length > 0) await mkdir(screenshotDir, { recursive: true });
      for (const [index, page] of pages.entries()) {
        const file = join(screenshotDir, `${label.replace(/[^\w.-]+/g, "_").slice(0, 100)}-${index + 1}.png`);
        await page.screenshot({ path: file, fullPage: true, timeout: ACTION_TIMEOUT_MS }).then(
          () => files.push(file),
          (error: Error) => log(`browser: no screenshot of ${page.url()}: ${error.message}`),
        );
      }
      return files;
    },
    close() {
      closing ??= (async () => {
        const graceful = (async () => {
          await Promise.all([...contexts].map((context) => context.close().catch(() => {})));
          await browser.close();
          await server.close(); // Playwright removes its temp profile here
        })();
        const inTime = await Promise.race([
          graceful.then(() => true),
          new Promise<boolean>((done) => setTimeout(done, CLOSE_TIMEOUT_MS, false).unref()),
        ]).catch(() => false);
        if (!inTime) {
          log(`browser: close took over ${CLOSE_TIMEOUT_MS} ms; killing Chromium's process group`);
          killGroup(pid);
          await server.kill().catch(() => {});
        }
        killGroup(pid); // helpers that outlived the browser process, if any
        await Promise.all([profileDir, artifactsDir].map((dir) => rm(dir, { recursive: true, force: true })));
        watchdog.dispose();
        log(`browser: closed${existsSync(screenshotDir) ? `; screenshots kept in ${screenshotDir}` : ""}`);
      })();
      return closing;
    },
  };
}

/** The temp profile Playwright made for this browser, read from its command line. */
async function userDataDir(pid: number): Promise<string | undefined> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  const arg = cmdline.split("\0").find((part) => part.startsWith("--user-data-dir="));
  return arg?.slice("--user-data-dir=".length);
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL"); // Playwright starts Chromium detached: its pid is its group's id
  } catch {
    // already gone
  }
}
