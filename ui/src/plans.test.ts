/**
 * The configuration plan pages in real Chromium against a real control plane (in-memory PGlite)
 * serving the built bundle: the list, creating a plan (its API key shown once, copied), editing it,
 * a refused save (the reasons beside the fields, nothing typed lost), renewing the key, and
 * deleting behind a confirmation. axe-core and both widths on each screen; with
 * ATRIUM_UI_SCREENSHOTS=<folder> the key screens are written there (docs/images/ui: see docs/ui.md).
 */

import { join } from "node:path";
import { createPetstore, expose, startTestControlPlane, type TestControlPlane } from "@atrium/control-plane/testing";
import { useBrowser } from "@atrium/test-browser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUiBundle } from "./bundle.ts";
import { expectAccessible, expectNoHorizontalScroll, poll, screenshot, signIn } from "./testing.ts";

// biome-ignore lint/correctness/useHookAtTopLevel: the browser fixture, not a React hook (its name says "use" as vitest fixtures do)
const browser = useBrowser();
let controlPlane: TestControlPlane;
let serviceId: string;
let secretId: string;

interface PlanRecord {
  id: string;
  name: string;
  hasApiKey: boolean;
  [field: string]: unknown;
}

beforeAll(async () => {
  const bundleDir = (await ensureUiBundle()).dir;
  controlPlane = await startTestControlPlane("pglite", { config: { uiDir: bundleDir } });
  serviceId = await createPetstore(controlPlane.admin);
  const secret = await controlPlane.admin.call("POST", "/api/v1/secrets", { name: "petstore-token", value: "s3cret" });
  secretId = secret.body.id;
}, 120_000);
afterAll(async () => {
  await controlPlane?.close();
});

async function plans(): Promise<PlanRecord[]> {
  return (await controlPlane.admin.call("GET", "/api/v1/configuration-plans")).body.items;
}

async function openSignedIn(page: Page, path: string, heading: string): Promise<void> {
  await signIn(page, controlPlane.url);
  await page.getByRole("heading", { name: "Services" }).waitFor();
  await page.goto(`${controlPlane.url}${path}`);
  await page.getByRole("heading", { name: heading }).waitFor();
}

describe("configuration plans", () => {
  it("lists none, creates a plan whose API key is shown once and copied, then edits it", async () => {
    const page = await browser.page();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signIn(page, controlPlane.url);
    await page.getByRole("heading", { name: "Services" }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Plans" }).click();
    await page.getByRole("heading", { name: "Configuration plans" }).waitFor();
    await poll(() => page.getByRole("status").textContent()).toContain("No configuration plans yet");
    await expectAccessible(page, "plans (empty)");
    await expectNoHorizontalScroll(page, "plans (empty)");

    await page.getByRole("link", { name: "New configuration plan" }).click();
    await page.getByRole("heading", { name: "New configuration plan" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("petstore-plan");
    expect(await page.getByLabel("Service").inputValue()).toBe(serviceId);
    await poll(() => page.getByText("This service has listPets, createPet, getPet, deletePet.").count()).toBe(1);
    await page.getByLabel("Backend endpoint").fill("https://petstore.example.com/v1");
    await page.getByLabel("Included operations").fill("listPets, getPet");
    await page.getByRole("radio", { name: /^API key/ }).check();
    await page.getByLabel("What the gateway sends to the backend").selectOption("secretId");
    await page.getByLabel("Stored secret").selectOption({ label: "petstore-token" });
    await page.getByLabel("Prefix").fill("Bearer ");
    await page.getByLabel("Fixed headers sent to the backend").fill("x-source: atrium");
    await page.getByLabel("Calls per second").fill("5");
    await page.getByLabel("Failures before it opens").fill("3");
    await page.getByRole("checkbox", { name: /audit event/ }).check();
    await page.getByRole("checkbox", { name: /required arguments a call lacks/ }).check();
    await expectAccessible(page, "plan form (new)");
    await expectNoHorizontalScroll(page, "plan form (new)");
    await firstScreen(page, "plan-form", 1440);
    await page.getByRole("button", { name: "Create plan" }).click();

    await poll(() => page.getByRole("status").first().textContent()).toBe(
      "Created the configuration plan petstore-plan.",
    );
    const shown = page.getByRole("region", { name: "API key" });
    const apiKey = (await shown.locator("code").textContent()) ?? "";
    expect(apiKey).toMatch(/^atr_k_/);
    expect(await shown.textContent()).toContain("this is the only time the value is shown");
    await shown.getByRole("button", { name: "Copy" }).click();
    await poll(() => shown.getByRole("status").textContent()).toBe("Copied to the clipboard.");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(apiKey);
    await expectAccessible(page, "plan created (API key shown)");
    await expectNoHorizontalScroll(page, "plan created");
    await screenshot(page, "plan-created-key", 1440);

    const [created] = await plans();
    expect(created).toMatchObject({
      name: "petstore-plan",
      serviceId,
      backendEndpoint: "https://petstore.example.com/v1",
      hasApiKey: true,
      includedOperations: ["listPets", "getPet"],
      backendSecret: { secretId, in: "header", name: "Authorization", prefix: "Bearer " },
      headerPolicy: { setRequestHeaders: { "x-source": "atrium" } },
      limits: { per: "plan", requestsPerSecond: 5 },
      circuitBreaker: { enabled: true, consecutiveFailures: 3, coolDownSeconds: 30 },
      audit: true,
      elicitMissingArguments: true,
      toolExposureMode: "PerOperation",
    });

    // Done with the key: the plan's page, which never shows it again.
    await shown.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("heading", { name: "petstore-plan" }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/plans/${created?.id}`);
    expect(await page.content()).not.toContain(apiKey);

    // Edit: the form holds what was saved; a change keeps the rest.
    expect(await page.getByLabel("Included operations").inputValue()).toBe("listPets, getPet");
    expect(await page.getByRole("radio", { name: /^API key/ }).isChecked()).toBe(true);
    await page.getByLabel("Backend timeout (ms)").fill("5000");
    await page.getByRole("radio", { name: /^Discovery/ }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Saved petstore-plan.");
    const [edited] = await plans();
    expect(edited).toMatchObject({
      backendTimeoutMs: 5000,
      toolExposureMode: "Discovery",
      hasApiKey: true,
      includedOperations: ["listPets", "getPet"],
      backendSecret: { secretId, prefix: "Bearer " },
      audit: true,
      elicitMissingArguments: true,
    });
    expect(await page.getByRole("region", { name: /API key/ }).count()).toBe(0);
    await expectAccessible(page, "plan (edited)");
    await expectNoHorizontalScroll(page, "plan (edited)");

    await page.getByRole("link", { name: "All configuration plans" }).click();
    const rows = page.getByRole("table", { name: "Configuration plans" }).locator("tbody tr");
    await poll(() => rows.count()).toBe(1);
    expect(await rows.first().locator("th, td").allTextContents()).toEqual([
      "petstore-plan",
      "petstore 1.0.0",
      "https://petstore.example.com/v1",
      "API key",
      "Discovery",
    ]);
    await expectAccessible(page, "plans (listed)");
    await expectNoHorizontalScroll(page, "plans (listed)");
    await screenshot(page, "plans", 1440);
  });

  it("shows why a save was refused beside the fields, keeping everything typed", async () => {
    const page = await browser.page();
    await openSignedIn(page, "/plans/new", "New configuration plan");
    const before = (await plans()).length;

    // What the form cannot read is refused before any request.
    await page.getByLabel("Name", { exact: true }).fill("refused");
    await page.getByLabel("Backend endpoint").fill("https://petstore.example.com");
    await page.getByLabel("Calls per second").fill("fast");
    await page.getByRole("button", { name: "Create plan" }).click();
    await poll(() => page.getByRole("alert").textContent()).toContain("Some fields cannot be read");
    expect(await page.getByLabel("Calls per second").getAttribute("aria-invalid")).toBe("true");
    expect(await accessibleDescription(page, "Calls per second")).toBe('"fast" is not a number');

    // The control plane's validation: each reason beside its field, the summary above the button.
    await page.getByLabel("Calls per second").fill("");
    await page.getByLabel("Name", { exact: true }).fill("Not A Name!");
    await page.getByLabel("Backend endpoint").fill("not a url");
    await page.getByRole("radio", { name: /^OAuth/ }).check();
    await page.getByLabel("Issuer", { exact: true }).fill("https://issuer.example.com");
    await page.getByLabel("Required scopes").fill("pets.read pets.write");
    await page.getByRole("button", { name: "Create plan" }).click();
    const alert = page.getByRole("alert");
    await poll(() => alert.textContent()).toContain("The plan was not saved: The request is invalid");
    expect(await alert.textContent()).toContain("backendEndpoint:");
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Backend endpoint").getAttribute("aria-invalid")).toBe("true");
    expect(await accessibleDescription(page, "Backend endpoint")).toMatch(/\S/);
    // Nothing typed is lost.
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Not A Name!");
    expect(await page.getByLabel("Issuer", { exact: true }).inputValue()).toBe("https://issuer.example.com");
    expect(await page.getByLabel("Required scopes").inputValue()).toBe("pets.read pets.write");
    expect(await page.evaluate("document.activeElement?.getAttribute('role')")).toBe("alert");
    await expectAccessible(page, "plan form (refused)");
    await expectNoHorizontalScroll(page, "plan form (refused)");
    await firstScreen(page, "plan-refused", 1440);

    // A reference the database refuses: an operation the Service lacks.
    await page.getByLabel("Name", { exact: true }).fill("refused");
    await page.getByLabel("Backend endpoint").fill("https://petstore.example.com");
    await page.getByLabel("Excluded operations").fill("noSuchOperation");
    await page.getByRole("button", { name: "Create plan" }).click();
    await poll(() => accessibleDescription(page, "Excluded operations")).toContain(
      "unknown operationId(s) noSuchOperation",
    );
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBeNull();
    expect(await plans()).toHaveLength(before);

    // Fixed, it saves.
    await page.getByLabel("Excluded operations").fill("deletePet");
    await page.getByRole("button", { name: "Create plan" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Created the configuration plan refused.");
    const saved = (await plans()).find((plan) => plan.name === "refused");
    expect(saved).toMatchObject({
      hasApiKey: false,
      excludedOperations: ["deletePet"],
      oauth: { issuer: "https://issuer.example.com", requiredScopes: ["pets.read", "pets.write"] },
    });
    expect(await page.getByRole("region", { name: "API key" }).count()).toBe(0);
  });

  it("renews the API key, shown once, and refuses to delete a plan in use", async () => {
    const exposed = await expose(controlPlane.admin, "in-use", { serviceId, plan: { apiKey: true } });
    const page = await browser.page();
    await openSignedIn(page, `/plans/${exposed.planId}`, "in-use");
    await page.getByRole("button", { name: "Renew the API key of in-use" }).click();
    await page.getByRole("button", { name: "Yes, renew" }).click();
    const shown = page.getByRole("region", { name: "New API key" });
    const renewed = (await shown.locator("code").textContent()) ?? "";
    expect(renewed).toMatch(/^atr_k_/);
    expect(renewed).not.toBe(exposed.apiKey);
    expect(await page.getByRole("status").first().textContent()).toBe(
      "Renewed the API key of in-use: the old key stops working as soon as the gateways receive the change.",
    );
    await expectAccessible(page, "plan (key renewed)");
    await expectNoHorizontalScroll(page, "plan (key renewed)");
    await firstScreen(page, "plan-key-renewed", 360);
    await shown.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.content()).not.toContain(renewed);
    await page.reload();
    await page.getByRole("heading", { name: "in-use" }).waitFor();
    expect(await page.content()).not.toContain(renewed);

    await page.getByRole("button", { name: "Delete plan in-use" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await poll(() => page.getByRole("alert").textContent()).toBe(
      "The plan was not deleted: The record is still used by others (such as Expositions of a plan): delete those first",
    );
    expect((await plans()).some((plan) => plan.id === exposed.planId)).toBe(true);
  });

  it("keeps a backend grant each user authorizes as saved: shown in words, no inputs for it, saved unchanged", async () => {
    const saved = await controlPlane.admin.call("POST", "/api/v1/configuration-plans", {
      name: "granted",
      serviceId,
      backendEndpoint: "https://petstore.example.com",
      backendSecret: {
        oauth2AuthorizationCode: {
          issuer: "https://auth.example.com/",
          clientId: "atrium-gateway",
          clientSecret: { secretId },
          scopes: ["offline_access", "pets:read"],
          description: "Let the agent see your pets",
        },
      },
    });
    expect(saved.status).toBe(201);
    const page = await browser.page();
    await openSignedIn(page, `/plans/${saved.body.id}`, "granted");
    const source = page.getByLabel("What the gateway sends to the backend");
    expect(await source.inputValue()).toBe("oauth2AuthorizationCode");
    expect(await source.locator("option:checked").textContent()).toBe(
      "Each user's own authorization (OAuth authorization code), kept as saved",
    );
    const help = await page.locator(`[id="${await source.getAttribute("aria-describedby")}"]`).textContent();
    expect(help).toBe(
      "Each user authorizes the backend once at https://auth.example.com/, client atrium-gateway, scopes " +
        "offline_access pets:read; its redirect URI is <gateway origin>/elicitations/authorized. Change it with " +
        "the atrium CLI or the REST API.",
    );
    // The grant's token always goes in Authorization as a bearer: nothing to place.
    expect(await page.getByLabel("Header or parameter name").count()).toBe(0);
    expect(await page.getByLabel("Prefix").count()).toBe(0);
    await expectAccessible(page, "plan with a kept backend grant");

    await page.getByLabel("Backend timeout (ms)").fill("7000");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Saved granted.");
    const edited = (await plans()).find((plan) => plan.name === "granted");
    expect(edited?.backendTimeoutMs).toBe(7000);
    expect(edited?.backendSecret).toEqual(saved.body.backendSecret);
  });

  it("turns the API key on (shown once), and deletes a plan after confirmation, not before", async () => {
    const created = await controlPlane.admin.call("POST", "/api/v1/configuration-plans", {
      name: "short-lived",
      serviceId,
      backendEndpoint: "https://petstore.example.com",
    });
    const page = await browser.page();
    await openSignedIn(page, `/plans/${created.body.id}`, "short-lived");
    expect(await page.getByRole("button", { name: /Renew/ }).count()).toBe(0);
    // Turning the API key on makes one, shown once.
    await page.getByRole("radio", { name: /^API key/ }).check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Saved short-lived. Its new API key:");
    expect(await page.getByRole("region", { name: "New API key" }).locator("code").textContent()).toMatch(/^atr_k_/);
    expect((await plans()).find((plan) => plan.name === "short-lived")?.hasApiKey).toBe(true);
    await page.getByRole("button", { name: "Renew the API key of short-lived" }).waitFor();

    await page.getByRole("button", { name: "Delete plan short-lived" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await plans()).some((plan) => plan.name === "short-lived")).toBe(true);
    // By keyboard: the question's answer takes the focus, and Enter confirms.
    await page.getByRole("button", { name: "Delete plan short-lived" }).focus();
    await page.keyboard.press("Enter");
    expect(await page.getByRole("group", { name: "Delete plan short-lived?" }).textContent()).toContain(
      "This cannot be undone.",
    );
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Yes, delete");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("status").textContent()).toBe("Deleted the configuration plan short-lived.");
    expect((await plans()).some((plan) => plan.name === "short-lived")).toBe(false);

    // Its page now says it is gone, in the control plane's words.
    await page.goto(`${controlPlane.url}/plans/${created.body.id}`);
    await poll(() => page.getByRole("alert").textContent()).toMatch(
      /^Could not load the configuration plan: Configuration plan '.*' does not exist/,
    );
    await expectAccessible(page, "plan (not found)");
  });
});

/** Like screenshot(), but only the top of the page: the plan form is too long for a whole-page picture. */
async function firstScreen(page: Page, name: string, width: number): Promise<void> {
  const folder = process.env.ATRIUM_UI_SCREENSHOTS;
  if (!folder) return;
  await page.setViewportSize({ width, height: width < 800 ? 720 : 900 });
  await page.evaluate("scrollTo(0, 0)");
  await page.screenshot({ path: join(folder, `${name}.png`) });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The text an input's aria-describedby points at that is an error (the reason beside the field). */
async function accessibleDescription(page: Page, label: string): Promise<string> {
  const ids = (await page.getByLabel(label, { exact: true }).getAttribute("aria-describedby")) ?? "";
  const errors = ids.split(" ").filter((id) => id.endsWith("-error"));
  const texts = await Promise.all(errors.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(" ");
}
