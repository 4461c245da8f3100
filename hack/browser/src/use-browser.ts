/**
 * useBrowser(): one Chromium per vitest file. Call it at the top of a test file (or describe
 * block): the browser starts before the first test and is closed after the last. Each test takes
 * fresh pages with `page()`; they are closed when the test ends, and when a test fails every page
 * it opened is screenshotted first, the files' paths printed.
 */

import type { BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type LaunchedBrowser, launchBrowser } from "./launch.ts";

export interface BrowserFixture {
  /** The running browser (set once beforeAll has run). */
  readonly launched: LaunchedBrowser;
  /** A new page in a fresh context, closed at the end of the test. */
  page(options?: BrowserContextOptions): Promise<Page>;
}

// Install (first run: apt-get) and cold start both fit, on a loaded machine.
const START_TIMEOUT_MS = 16 * 60_000;

export function useBrowser(log: (line: string) => void = (line) => console.log(line)): BrowserFixture {
  let launched: LaunchedBrowser | undefined;
  let pages: Page[] = [];
  beforeAll(async () => {
    launched = await launchBrowser({ log });
  }, START_TIMEOUT_MS);
  afterEach(async (context) => {
    const opened = pages;
    pages = [];
    if (launched && context.task.result?.state === "fail") {
      const files = await launched.screenshotAll(context.task.name);
      if (files.length > 0) log(`browser: screenshots of "${context.task.name}": ${files.join(", ")}`);
    }
    await Promise.all(
      opened.map((page) =>
        page
          .context()
          .close()
          .catch(() => {}),
      ),
    );
  });
  afterAll(async () => {
    await launched?.close();
  });
  return {
    get launched() {
      if (!launched) throw new Error("useBrowser(): the browser starts in beforeAll; use it inside a test");
      return launched;
    },
    async page(options) {
      const page = await this.launched.newPage(options);
      pages.push(page);
      return page;
    },
  };
}
