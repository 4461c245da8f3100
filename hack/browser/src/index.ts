/**
 * @atrium/test-browser: real Chromium for tests. Debian's `chromium` package (installed by
 * hack/browser/install.sh when missing) driven by playwright-core, headless, with a temp profile,
 * bounded timeouts and no process left behind. See docs/testing.md, "Browser tests".
 */
export { CHROMIUM_PATH, ensureChromium } from "./chromium.ts";
export { CHROMIUM_ARGS, type LaunchedBrowser, type LaunchOptions, launchBrowser } from "./launch.ts";
export { type BrowserFixture, useBrowser } from "./use-browser.ts";
