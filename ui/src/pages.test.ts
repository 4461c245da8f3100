/**
 * The web UI in real Chromium against a real control plane (in-memory PGlite) serving the built
 * bundle: sign-in (good and bad password), the Services list (empty, then after imports), the
 * import's located errors, a Service's operations, axe-core on every page, both widths, and the first load's size.
 * With ATRIUM_UI_SCREENSHOTS=<folder> the key screens are written there (docs/images/ui: see
 * docs/ui.md).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { sampleOpenApi, startTestControlPlane, TEST_ADMIN, type TestControlPlane } from "@atrium/control-plane/testing";
import { useBrowser } from "@atrium/test-browser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUiBundle } from "./bundle.ts";
import { expectAccessible, expectNoHorizontalScroll, poll, screenshot, signIn as signInAt } from "./testing.ts";

const MAX_FIRST_LOAD_GZIPPED_JS = 200 * 1024;
/** A document the importer accepts with a pattern rewritten for ECMAScript's Unicode mode (`\_` → `_`). */
const PATTERN_DOCUMENT = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "patterns", version: "1" },
  paths: {
    "/a": {
      get: {
        parameters: [{ name: "q", in: "query", schema: { type: "string", pattern: "^a\\_b$" } }],
        responses: { "200": { description: "ok" } },
      },
    },
  },
});

/** A document the importer refuses with a location: the operation lacks `responses` (line 7, column 5). */
const BROKEN_DOCUMENT = `openapi: 3.0.3
info:
  title: Broken
  version: "1"
paths:
  /pets:
    get:
      operationId: listPets
`;

// biome-ignore lint/correctness/useHookAtTopLevel: the browser fixture, not a React hook (its name says "use" as vitest fixtures do)
const browser = useBrowser();
let bundleDir: string;
let controlPlane: TestControlPlane;

beforeAll(async () => {
  bundleDir = (await ensureUiBundle({ onBuild: (dir) => console.log(`ui: building the bundle into ${dir}`) })).dir;
  controlPlane = await startTestControlPlane("pglite", { config: { uiDir: bundleDir } });
}, 120_000);
afterAll(async () => {
  await controlPlane?.close();
});

const signIn = (page: Page, password?: string) => signInAt(page, controlPlane.url, password);

describe("the bundle", () => {
  it("loads under 200 KB of gzipped JS at first", () => {
    const html = readFileSync(join(bundleDir, "index.html"), "utf8");
    const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g)].map(
      (match) => match[1] ?? "",
    );
    expect(scripts.length).toBeGreaterThan(0);
    const sizes = scripts.map((src) => gzipSync(readFileSync(join(bundleDir, src))).length);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    console.log(
      `ui: first load ${(total / 1024).toFixed(1)} KB of gzipped JS (${scripts.length} file(s); limit ${MAX_FIRST_LOAD_GZIPPED_JS / 1024} KB)`,
    );
    expect(total).toBeLessThanOrEqual(MAX_FIRST_LOAD_GZIPPED_JS);
  });
});

describe("sign-in", () => {
  it("refuses a wrong password in words and stays on the page", async () => {
    const page = await browser.page();
    await signIn(page, "not-the-password");
    await poll(() => page.getByRole("alert").textContent()).toBe("Organization, user name or password is wrong");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await expectAccessible(page, "sign-in (refused)");
    await expectNoHorizontalScroll(page, "sign-in");
    await screenshot(page, "sign-in-refused", 360);
  });

  it("is used with the keyboard alone, and so is the shell", async () => {
    const page = await browser.page();
    await page.goto(`${controlPlane.url}/services`);
    await page.getByRole("heading", { name: "Sign in to Atrium" }).waitFor();
    const focused = () =>
      page.evaluate("document.activeElement?.getAttribute('name') ?? document.activeElement?.textContent");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("organization");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("username");
    await page.keyboard.type(TEST_ADMIN.username);
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("password");
    await page.keyboard.type(TEST_ADMIN.password);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Services" }).waitFor();
    expect(await page.title()).toBe("Services · Atrium");
    // Focus is on the page itself: Tab leads into it; before it come the shell's controls and the skip link.
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("name");
    // Every navigation entry, whichever pages exist, then the skip link.
    const entries = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    for (const before of ["Sign out", ...entries.reverse(), "Skip to content"]) {
      await page.keyboard.press("Shift+Tab");
      expect(await focused()).toBe(before);
    }
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement?.id")).toBe("main");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("name");
  });
});

describe("services", () => {
  it("shows the empty list, then imports pasted text, a file, refuses a document where it is wrong, and lists an import's warnings", async () => {
    const page = await browser.page();
    await signIn(page);
    await page.getByRole("heading", { name: "Services" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/services");
    await poll(() => page.getByRole("status").first().textContent()).toContain("No services yet");
    await poll(
      async () => (await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents())[0],
    ).toBe("Services");
    await expectAccessible(page, "services (empty)");
    await expectNoHorizontalScroll(page, "services (empty)");
    await screenshot(page, "services-empty", 360);

    // A refused document: the importer's message, and its line and column.
    await page.getByLabel("Name").fill("broken");
    await page.getByLabel("OpenAPI document (JSON or YAML)").fill(BROKEN_DOCUMENT);
    await page.getByRole("button", { name: "Import" }).click();
    const alert = page.getByRole("alert");
    await poll(() => alert.textContent()).toContain("must have required property 'responses'");
    expect(await alert.textContent()).toContain("Line 7, column 5 at /paths/~1pets/get");
    expect(await alert.locator("pre").textContent()).toBe("7 |     get:\n        ^");
    await expectAccessible(page, "services (import refused)");
    await expectNoHorizontalScroll(page, "services (import refused)");
    await screenshot(page, "services-import-error", 1440);

    // Pasted text.
    await page.getByLabel("Name").fill("petstore");
    await page.getByLabel("OpenAPI document (JSON or YAML)").fill(sampleOpenApi());
    await page.getByRole("button", { name: "Import" }).click();
    await poll(() => page.getByRole("status").textContent()).toMatch(/^Imported petstore 1\.0\.0: \d+ operations\.$/);

    // A file.
    await page.getByLabel("Name").fill("petstore-file");
    await page.getByLabel("Version").fill("2.0.0");
    await page.getByRole("radio", { name: "File" }).check();
    await page
      .getByLabel("OpenAPI file")
      .setInputFiles({ name: "petstore.yaml", mimeType: "application/yaml", buffer: Buffer.from(sampleOpenApi()) });
    await page.getByRole("button", { name: "Import" }).click();
    await poll(() => page.getByRole("status").textContent()).toMatch(/^Imported petstore-file 2\.0\.0/);

    const rows = page.getByRole("table", { name: "Services" }).locator("tbody tr");
    await poll(() => rows.count()).toBe(2);
    expect(await rows.locator("th").allTextContents()).toEqual(["petstore", "petstore-file"]);
    const listed = await controlPlane.admin.call("GET", "/api/v1/services");
    expect((listed.body as { items: { name: string }[] }).items.map((s) => s.name)).toEqual([
      "petstore",
      "petstore-file",
    ]);
    await expectAccessible(page, "services (listed)");
    await expectNoHorizontalScroll(page, "services (listed)");
    await screenshot(page, "services", 1440);

    // A URL the control plane may not fetch (loopback, refused by its SSRF policy): why, in words.
    await page.getByRole("radio", { name: "URL" }).check();
    await page.getByLabel("Name").fill("from-url");
    await page.getByLabel("Document URL").fill(`${controlPlane.url}/api/v1/openapi.json`);
    await page.getByRole("button", { name: "Import" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(
      /^The document was not imported: The control plane does not download from .*: it is a loopback address/,
    );

    // An accepted document whose pattern the importer rewrote: the warning, in words.
    await page.getByRole("radio", { name: "Paste" }).check();
    await page.getByLabel("Name").fill("patterns");
    await page.getByLabel("OpenAPI document (JSON or YAML)").fill(PATTERN_DOCUMENT);
    await page.getByRole("button", { name: "Import" }).click();
    await poll(() => page.getByRole("status").textContent()).toMatch(/^Imported patterns 1\.0\.0: 1 operation\.$/);
    const warnings = page.getByRole("list", { name: "Import warnings" }).getByRole("listitem");
    expect(await warnings.allTextContents()).toEqual([
      expect.stringMatching(
        /^pattern "\^a\\\\_b\$" at \/paths\/~1a\/get\/parameters\/0\/schema\/pattern .* is written "\^a_b\$"/,
      ),
    ]);
    await expectAccessible(page, "services (import warnings)");

    // A Service's detail: its operations, as the control plane normalized them.
    await page.getByRole("link", { name: "petstore", exact: true }).click();
    await page.getByRole("heading", { name: "petstore 1.0.0" }).waitFor();
    const operations = page.getByRole("table", { name: "Operations of petstore" }).locator("tbody tr");
    await poll(() => operations.count()).toBe(4);
    expect(await operations.locator("th").allTextContents()).toEqual(["listPets", "createPet", "getPet", "deletePet"]);
    expect(await operations.first().locator("td").first().textContent()).toBe("GET");
    await expectAccessible(page, "service detail");
    await expectNoHorizontalScroll(page, "service detail");
    await screenshot(page, "service-detail", 1440);
    await page.getByRole("link", { name: "All services" }).click();
    await page.getByRole("heading", { name: "Services" }).waitFor();
  });

  it("says why a Service cannot be shown", async () => {
    const page = await browser.page();
    await signIn(page);
    await page.getByRole("heading", { name: "Services" }).waitFor();
    await page.goto(`${controlPlane.url}/services/00000000-0000-4000-8000-000000000000`);
    await poll(() => page.getByRole("alert").textContent()).toBe(
      "Could not load the service: Service '00000000-0000-4000-8000-000000000000' does not exist in this organization",
    );
    await page.goto(`${controlPlane.url}/services/not-an-id`);
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^Could not load the service: .*id/);
    await expectAccessible(page, "service detail (not loaded)");
  });

  it("says why when the list cannot be loaded, and tries again", async () => {
    const page = await browser.page();
    await signIn(page);
    await page.getByRole("heading", { name: "Services" }).waitFor();
    await page.context().setOffline(true);
    await page.getByRole("link", { name: "Services" }).click();
    const alert = page.getByRole("alert");
    await poll(() => alert.textContent()).toContain("Could not load the services: The control plane did not answer");
    await expectAccessible(page, "services (not loaded)");
    await page.context().setOffline(false);
    await alert.getByRole("button", { name: "Try again" }).click();
    await poll(() => page.getByRole("alert").count()).toBe(0);
  });

  it("sends an ended session back to sign-in, saying so", async () => {
    const page = await browser.page();
    await signIn(page);
    await page.getByRole("heading", { name: "Services" }).waitFor();
    // The session is revoked behind the page's back (as by a sign-out elsewhere).
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("atrium.session") ?? "{}").token);
    const loggedOut = await controlPlane.api.withToken(token).call("POST", "/api/v1/logout");
    expect(loggedOut.status).toBe(204);
    await page.getByRole("link", { name: "Services" }).click();
    await page.getByRole("heading", { name: "Sign in to Atrium" }).waitFor();
    expect(await page.getByRole("status").textContent()).toBe("Your session has ended: sign in again.");
  });

  it("signs out", async () => {
    const page = await browser.page();
    await signIn(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to Atrium" }).waitFor();
    expect(await page.getByRole("status").textContent()).toBe("You have signed out.");
    expect(await page.evaluate(() => sessionStorage.getItem("atrium.session"))).toBeNull();
  });

  it("signs in on the way to the page asked for; an unknown page says so and leads back", async () => {
    const page = await browser.page();
    await page.goto(`${controlPlane.url}/no-such-page`);
    await poll(() => new URL(page.url()).pathname).toBe("/sign-in");
    await page.getByLabel("User name").fill(TEST_ADMIN.username);
    await page.getByLabel("Password").fill(TEST_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/no-such-page");
    await expectAccessible(page, "page not found");
    await expectNoHorizontalScroll(page, "page not found");
    await page.getByRole("link", { name: "Go to Services" }).click();
    await page.getByRole("heading", { name: "Services" }).waitFor();
  });
});
