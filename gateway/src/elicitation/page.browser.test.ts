/**
 * The elicitation page in real Chromium (Debian's, driven by playwright-core), against a real
 * control plane (PGlite): the heading and the label a screen reader reads, Tab landing on the
 * credential field first, a refused submit shown beside the field, a submit storing the
 * credential (the CSRF cookie and token round trip in a real browser) with the success page
 * saying to return to the agent, and the credential in no URL.
 */
import { randomBytes } from "node:crypto";
import { recordSecret } from "@atrium/reliability/secrets";
import { useBrowser } from "@atrium/test-browser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClusterKeyring } from "./cluster-keys.ts";
import { ElicitedCredentialStore, principalDigest } from "./credential-store.ts";
import { elicitingScope, type PageServer, startPageServer } from "./page-testing.ts";
import { PendingElicitations } from "./pending-elicitations.ts";
import { useElicitationStack } from "./testing.ts";

const bob = { iss: "https://id.example", sub: "bob-91c2" };
const stack = useElicitationStack();
const scope = () => elicitingScope(stack());
const browser = useBrowser();
const keyring = new ClusterKeyring([randomBytes(32)]);
const logLines: string[] = [];
const LABEL = "Your OpenWeather API key";
type Window = { getComputedStyle(element: unknown): { maxWidth: string } };

describe("the elicitation page in Chromium", () => {
  let server: PageServer;
  beforeAll(async () => {
    server = await startPageServer(stack(), keyring, logLines);
  });
  afterAll(async () => {
    await server?.app.close();
  });

  async function pageUrl(): Promise<string> {
    const pending = new PendingElicitations(stack().rest);
    const { id } = await pending.record(stack().expositionId, principalDigest(bob), "get_weather");
    return `${server.url}/elicitations/${id}`;
  }

  it("names the Exposition and what is asked; Tab reaches the credential field first, then the buttons", async () => {
    const page = await browser.page();
    await page.goto(await pageUrl());
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`weather: ${LABEL}`);
    expect(await page.getByLabel(LABEL).getAttribute("type")).toBe("password");
    // The stylesheet applies: its hash in the Content-Security-Policy matches what the page inlines.
    const maxWidth = await page.locator("main").evaluate(
      // Runs in the page (this project's TypeScript has no DOM types).
      (main) => (globalThis as unknown as Window).getComputedStyle(main).maxWidth,
    );
    expect(maxWidth).toBe("576px");
    const focusOrder: string[] = [];
    for (let step = 0; step < 3; step++) {
      await page.keyboard.press("Tab");
      focusOrder.push(await page.locator(":focus").ariaSnapshot());
    }
    expect(focusOrder).toEqual([
      `- textbox "${LABEL}"`,
      '- button "Save credential"',
      '- button "Remove my stored credential"',
    ]);
  });

  it("fills in and submits: the credential is stored, the page says to return to the agent, no URL carries it", async () => {
    const page = await browser.page();
    const url = await pageUrl();
    const credential = `sk-live-${randomBytes(16).toString("hex")}`;
    recordSecret("elicited credential", credential);
    await page.goto(url);

    // Too long first: refused beside the field, which keeps the focus order.
    await page.getByLabel(LABEL).fill("k".repeat(5000));
    await page.getByRole("button", { name: "Save credential" }).click();
    await page.waitForLoadState();
    expect(await page.title()).toBe(`Error: weather: ${LABEL}`);
    const field = page.getByLabel(LABEL);
    expect(await field.getAttribute("aria-invalid")).toBe("true");
    const describedBy = ((await field.getAttribute("aria-describedby")) ?? "").split(" ");
    expect(describedBy).toContain("credential-error");
    expect(await page.locator("#credential-error").textContent()).toContain("at most 4096 bytes");
    expect(await field.inputValue()).toBe("");
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").ariaSnapshot()).toBe(`- textbox "${LABEL}" [invalid]`);

    await page.keyboard.type(credential);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Credential saved" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain("You can return to your agent");
    expect(page.url()).toBe(url);
    expect(await new ElicitedCredentialStore(stack().rest, keyring).get(scope(), bob)).toBe(credential);

    // The link is used up: opening it again says so.
    const again = await page.goto(url);
    expect(again?.status()).toBe(410);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "This link has expired or was already used",
    );
    expect(logLines.join("")).not.toContain(credential);
  });
});
