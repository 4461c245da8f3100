/**
 * What the web UI's browser tests share: the accessibility and width checks, screenshots, signing
 * in, and a patient poll. The tests start their own control plane and pass its URL.
 */
import { join } from "node:path";
import { TEST_ADMIN } from "@atrium/control-plane/testing";
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** Waits as long as a Playwright action would (imports on a loaded machine take more than poll's 1 s). */
export const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });
const WIDTHS = [360, 1440];

/** Fails on any serious or critical axe-core violation, listing them; prints the page's figures. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  console.log(
    `ui: axe-core on ${name}: ${results.violations.length} violations (${severe.length} serious or critical), ${results.passes.length} rules passed`,
  );
  expect(severe.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** At each width, the page fits: no horizontal scroll. */
export async function expectNoHorizontalScroll(page: Page, name: string): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // A string: the test's TypeScript has no DOM types.
    const { scrollWidth, clientWidth } = await page.evaluate<{ scrollWidth: number; clientWidth: number }>(
      "({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth })",
    );
    expect(scrollWidth, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(clientWidth);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The page at `width`, written as <name>.png when ATRIUM_UI_SCREENSHOTS names a folder. */
export async function screenshot(page: Page, name: string, width: number): Promise<void> {
  const folder = process.env.ATRIUM_UI_SCREENSHOTS;
  if (!folder) return;
  await page.setViewportSize({ width, height: width < 800 ? 720 : 800 });
  const path = join(folder, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`ui: screenshot ${path}`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Opens the app at `baseUrl` and submits the sign-in form as the test admin (with `password`). */
export async function signIn(page: Page, baseUrl: string, password = TEST_ADMIN.password): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await poll(() => new URL(page.url()).pathname).toBe("/sign-in");
  await page.getByLabel("Organization").fill(TEST_ADMIN.organization);
  await page.getByLabel("User name").fill(TEST_ADMIN.username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}
