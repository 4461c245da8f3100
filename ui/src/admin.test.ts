/**
 * The admin pages in real Chromium against a real control plane (in-memory PGlite) serving the
 * built bundle: gateway groups and gateways (what each serves, from a real registration and
 * Exposition), API tokens (the value once, copied, then revoked), write-only secrets, and custom
 * tools, resources and prompts (create, edit, delete, and the API's validation errors). Each page
 * is checked with axe-core and at 360 and 1440 px. With ATRIUM_UI_SCREENSHOTS=<folder> the key
 * screens are written there (docs/images/ui: see docs/ui.md).
 */
import {
  createPetstore,
  expose,
  registerGateway,
  startTestControlPlane,
  type TestControlPlane,
  tokenClient,
} from "@atrium/control-plane/testing";
import { useBrowser } from "@atrium/test-browser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUiBundle } from "./bundle.ts";
import { expectAccessible, expectNoHorizontalScroll, poll, screenshot, signIn } from "./testing.ts";

// biome-ignore lint/correctness/useHookAtTopLevel: the browser fixture, not a React hook (its name says "use" as vitest fixtures do)
const browser = useBrowser();
let controlPlane: TestControlPlane;

beforeAll(async () => {
  const bundle = await ensureUiBundle({ onBuild: (dir) => console.log(`ui: building the bundle into ${dir}`) });
  controlPlane = await startTestControlPlane("pglite", { config: { uiDir: bundle.dir } });
}, 120_000);
afterAll(async () => {
  await controlPlane?.close();
});

/** A signed-in page at `path`, once its heading shows. */
async function open(path: string, heading: string, options?: Parameters<typeof browser.page>[0]): Promise<Page> {
  const page = await browser.page(options);
  await signIn(page, controlPlane.url);
  await page.getByRole("heading", { name: "Services" }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: heading }).click();
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe(path);
  return page;
}

async function check(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await expectNoHorizontalScroll(page, name);
}

describe("gateways", () => {
  it("shows each gateway's labels, health, last advertisement and what it serves; creates a group and edits its labels", async () => {
    const gateways = await tokenClient(controlPlane, "gateway-page");
    await registerGateway(gateways, { id: "gw-eu-1", instanceId: "instance-1" }, { env: "prod", region: "eu" });
    await expose(controlPlane.admin, "pets", { labels: { env: "prod" } });
    const page = await open("/gateways", "Gateways");

    const groups = page.getByRole("table", { name: "Gateway groups" }).locator("tbody tr");
    await poll(() => groups.locator("th").allTextContents()).toEqual(["pets"]);
    expect(await groups.first().locator("td").allTextContents()).toEqual(expect.arrayContaining(["env=prod", "pets"]));
    const gateway = page.getByRole("table", { name: "Gateways" }).locator("tbody tr");
    await poll(() => gateway.count()).toBe(1);
    const cells = await gateway.locator("th, td").allTextContents();
    expect(cells[0]).toBe("gw-eu-1gw-eu-1.example.com");
    expect(cells.slice(1, 3)).toEqual(["Up", "env=prodregion=eu"]);
    expect(cells[3]).toMatch(/\d/);
    expect(cells[4]).toBe("pets");
    await check(page, "gateways");
    await screenshot(page, "gateways", 1440);

    // A new group, with its labels.
    await page.getByLabel("Group name").fill("staging");
    await page.getByLabel("Labels the gateways must carry").fill("env=staging\ntier = web");
    await page.getByRole("button", { name: "Create group" }).click();
    await poll(() => page.getByRole("status").textContent()).toBe("Created the gateway group staging.");
    await poll(() => groups.locator("th").allTextContents()).toEqual(["pets", "staging"]);
    const created = (await controlPlane.admin.call("GET", "/api/v1/gateway-groups")).body as {
      items: { name: string; labels: Record<string, string> }[];
    };
    expect(created.items.find((g) => g.name === "staging")?.labels).toEqual({ env: "staging", tier: "web" });

    // Its labels edited: the form opens filled, focus on it.
    await page.getByRole("button", { name: "Edit group staging" }).click();
    await page.getByRole("heading", { name: "Edit the group staging" }).waitFor();
    expect(await page.evaluate("document.activeElement?.getAttribute('name')")).toBe("name");
    const labels = page.getByLabel("Labels the gateways must carry");
    expect(await labels.inputValue()).toBe("env=staging\ntier=web");
    await labels.fill("env=staging\ntier=api");
    await page.getByRole("button", { name: "Save group" }).click();
    await poll(() => page.getByRole("status").textContent()).toBe("Saved the gateway group staging.");
    const saved = (await controlPlane.admin.call("GET", "/api/v1/gateway-groups")).body as typeof created;
    expect(saved.items.find((g) => g.name === "staging")?.labels).toEqual({ env: "staging", tier: "api" });
  });

  it("shows a gateway that reports a problem with an Exposition, and a stale one", async () => {
    const gateways = await tokenClient(controlPlane, "gateway-page-qa");
    await registerGateway(gateways, { id: "gw-qa-1", instanceId: "instance-qa" }, { env: "qa" });
    const { expositionId } = await expose(controlPlane.admin, "qa-pets", { labels: { env: "qa" } });
    const reported = await gateways.call("PUT", "/api/v1/gateways/gw-qa-1/problems", {
      instanceId: "instance-qa",
      problems: [{ expositionId, message: "backend secret 'qa-key' is missing" }],
    });
    expect(reported.status).toBe(204);
    // A gateway that stopped advertising health: its last advertisement is older than the stale time.
    await registerGateway(gateways, { id: "gw-qa-old", instanceId: "instance-old" }, { env: "qa" });
    await controlPlane.database.db.execute(
      "update gateways set last_seen_at = now() - interval '400 seconds' where id = 'gw-qa-old'",
    );
    const page = await open("/gateways", "Gateways");
    const row = (id: string) => page.getByRole("table", { name: "Gateways" }).locator("tbody tr", { hasText: id });
    await poll(() => row("gw-qa-1").locator("td").last().textContent()).toBe(
      "nothingNot serving qa-pets: backend secret 'qa-key' is missing",
    );
    expect(await row("gw-qa-old").locator("td").allTextContents()).toEqual(
      expect.arrayContaining(["Stale", "nothing (stale)"]),
    );
    await check(page, "gateways (problem, stale)");
  });

  it("says why a group is not created", async () => {
    const page = await open("/gateways", "Gateways");
    await page.getByLabel("Group name").fill("broken");
    await page.getByLabel("Labels the gateways must carry").fill("env");
    await page.getByRole("button", { name: "Create group" }).click();
    await poll(() => page.getByRole("alert").textContent()).toBe(
      'Labels: "env" is not key=value. Write one key=value a line.',
    );
    // The control plane's own refusal, in its words: a label key Kubernetes would not accept.
    await page.getByLabel("Labels the gateways must carry").fill("not a key!=x");
    await page.getByRole("button", { name: "Create group" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^The group was not saved: .*labels/);
    await check(page, "gateways (refused)");
    await screenshot(page, "gateways-refused", 360);
  });
});

describe("API tokens", () => {
  it("shows a new token once, copies it, and revokes it after a confirmation", async () => {
    const page = await open("/api-tokens", "API tokens", { permissions: ["clipboard-read", "clipboard-write"] });
    await page.getByLabel("Token name").fill("ci");
    await page.getByLabel("Role").selectOption("admin");
    await page.getByLabel("Valid for (days)").fill("7");
    await page.getByRole("button", { name: "Create token" }).click();
    const shown = page.getByRole("region", { name: "The new token ci" });
    await shown.waitFor();
    expect(await shown.textContent()).toContain("this is the only time the value is shown");
    const value = (await shown.locator("code").textContent()) ?? "";
    expect((await controlPlane.api.withToken(value).call("GET", "/api/v1/services")).status).toBe(200);
    await shown.getByRole("button", { name: "Copy" }).click();
    await poll(() => shown.getByRole("status").textContent()).toBe("Copied to the clipboard.");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(value);
    await check(page, "API tokens (new token shown)");
    await screenshot(page, "api-token-created", 1440);

    // Gone once acknowledged, and never listed.
    await shown.getByRole("button", { name: "I have copied it" }).click();
    await poll(() => shown.count()).toBe(0);
    const rows = page.getByRole("table", { name: "API tokens" }).locator("tbody tr");
    await poll(() => rows.locator("th").allTextContents()).toContain("ci");
    expect(await page.content()).not.toContain(value);

    // Revoking asks first; Cancel keeps it.
    await page.getByRole("button", { name: "Revoke token ci" }).click();
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Yes, revoke");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe("Revoke token ci");
    await page.getByRole("button", { name: "Revoke token ci" }).click();
    expect(await page.getByRole("group", { name: /^Revoke token ci\?/ }).textContent()).toContain(
      "Whatever uses it is refused from now on.",
    );
    await check(page, "API tokens (revoke asked)");
    await page.getByRole("button", { name: "Yes, revoke" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Revoked the token ci.");
    await poll(() => rows.locator("th").allTextContents()).not.toContain("ci");
    expect((await controlPlane.api.withToken(value).call("GET", "/api/v1/services")).status).toBe(401);
  });

  it("says why a token is not created", async () => {
    const page = await open("/api-tokens", "API tokens");
    await page.getByLabel("Token name").fill("forever");
    await page.getByLabel("Valid for (days)").fill("100000");
    await page.getByRole("button", { name: "Create token" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^The token was not created: .*validityDays/);
    expect(await page.getByRole("region", { name: /new token/ }).count()).toBe(0);
    await check(page, "API tokens (refused)");

    // A gateway token bound to FQDNs and labels: the list shows its bounds.
    await page.getByLabel("Valid for (days)").fill("30");
    await page.getByLabel("Allowed FQDNs (optional)").fill("*.gw.example.com, edge.example.com");
    await page.getByLabel("Required labels (optional)").fill("env=prod");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByRole("region", { name: "The new token forever" }).waitFor();
    const row = page.getByRole("table", { name: "API tokens" }).locator("tbody tr", { hasText: "forever" });
    await poll(() => row.locator("td").nth(1).textContent()).toBe(
      "FQDNs: *.gw.example.com, edge.example.com; labels: env=prod",
    );
  });
});

describe("secrets", () => {
  it("creates, replaces and deletes a secret without ever showing its value", async () => {
    const page = await open("/secrets", "Secrets");
    await poll(() => page.getByRole("status").textContent()).toBe("No secrets yet. Create one below.");
    await page.getByLabel("Secret name").fill("backend-key");
    await page.getByLabel("Value", { exact: true }).fill("first-value-0001");
    expect(await page.getByLabel("Value", { exact: true }).getAttribute("type")).toBe("password");
    await page.getByRole("button", { name: "Create secret" }).click();
    await poll(() => page.getByRole("status").textContent()).toBe("Created the secret backend-key.");
    const rows = page.getByRole("table", { name: "Secrets" }).locator("tbody tr");
    await poll(() => rows.locator("th").allTextContents()).toEqual(["backend-key"]);
    expect(await page.getByLabel("Value", { exact: true }).inputValue()).toBe("");
    expect(await page.content()).not.toContain("first-value-0001");
    await check(page, "secrets");
    await screenshot(page, "secrets", 1440);

    await page.getByRole("button", { name: "Replace the value of backend-key" }).click();
    await page.getByRole("heading", { name: "Replace the value of backend-key" }).waitFor();
    await page.keyboard.type("second-value-0002");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("status").textContent()).toBe("Replaced the value of backend-key.");
    expect(await page.content()).not.toContain("second-value-0002");

    await page.getByRole("button", { name: "Delete secret backend-key" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Deleted the secret backend-key.");
    expect((await controlPlane.admin.call("GET", "/api/v1/secrets")).body).toEqual({ items: [] });
  });

  it("says why a secret is not saved, and empties the value", async () => {
    await controlPlane.admin.call("POST", "/api/v1/secrets", { name: "taken", value: "v" });
    const page = await open("/secrets", "Secrets");
    await page.getByLabel("Secret name").fill("taken");
    await page.getByLabel("Value", { exact: true }).fill("another-value-0003");
    await page.getByRole("button", { name: "Create secret" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^The secret was not saved: .*taken/);
    expect(await page.getByLabel("Value", { exact: true }).inputValue()).toBe("");
    expect(await page.content()).not.toContain("another-value-0003");
    await check(page, "secrets (refused)");
    await controlPlane.admin.call("DELETE", `/api/v1/secrets/${(await secretId("taken")) ?? ""}`);
  });
});

async function secretId(name: string): Promise<string | undefined> {
  const listed = (await controlPlane.admin.call("GET", "/api/v1/secrets")).body as {
    items: { id: string; name: string }[];
  };
  return listed.items.find((s) => s.name === name)?.id;
}

describe("custom tools, resources and prompts", () => {
  it("creates, edits and deletes a tool set, and shows the API's validation errors", async () => {
    await createPetstore(controlPlane.admin, "custom-petstore");
    const page = await open("/custom-tools", "Custom");
    await page.getByRole("heading", { name: "Custom tools", level: 1 }).waitFor();
    await poll(() => page.getByRole("status").textContent()).toBe("No tool sets yet. Create one below.");
    await page.getByLabel("Set name").fill("extras");
    await page.getByLabel("Service").selectOption({ label: "custom-petstore 1.0.0" });
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await poll(() => page.getByRole("status").textContent()).toBe("Created extras.");
    expect(await page.getByLabel("Set name").inputValue()).toBe("");
    const rows = page.getByRole("table", { name: "Custom tools" }).locator("tbody tr");
    await poll(() => rows.first().locator("th, td").allTextContents()).toEqual(
      expect.arrayContaining(["extras", "custom-petstore", "1 tool"]),
    );
    await check(page, "custom tools");

    // Edit: a tool without a description is refused, in the API's words and at its field.
    await page.getByRole("button", { name: "Edit extras" }).click();
    await page.getByRole("heading", { name: "Edit extras" }).waitFor();
    const definitions = page.getByLabel("Definitions (JSON)");
    const current = JSON.parse(await definitions.inputValue()) as { tools: Record<string, unknown>[] };
    expect(current.tools.map((t) => t.name)).toEqual(["findPetsByTag"]);
    await definitions.fill(JSON.stringify({ tools: [{ ...current.tools[0], description: undefined }] }, null, 2));
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^Not saved: .*tools\.0\.description/);
    await check(page, "custom tools (refused)");
    await screenshot(page, "custom-tools-refused", 360);
    await definitions.fill("{ not json");
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^The definitions are not JSON: /);

    const second = { ...current.tools[0], name: "countPets", description: "Counts the pets." };
    await definitions.fill(JSON.stringify({ tools: [current.tools[0], second] }));
    await page.getByRole("button", { name: "Save" }).click();
    await poll(() => page.getByRole("status").textContent()).toBe("Saved extras.");
    await poll(() => rows.first().locator("td").allTextContents()).toContain("2 tools");

    await page.getByRole("button", { name: "Delete extras" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Deleted extras.");
    expect((await controlPlane.admin.call("GET", "/api/v1/custom-tools")).body).toEqual({ items: [] });
  });

  it("creates resources and prompts from their examples", async () => {
    const page = await open("/custom-tools", "Custom");
    for (const [tab, noun, holds] of [
      ["Resources", "resource set", "1 resource, 1 template"],
      ["Prompts", "prompt set", "1 prompt"],
    ] as const) {
      await page.getByRole("navigation", { name: "Custom definitions" }).getByRole("link", { name: tab }).click();
      await page.getByRole("heading", { name: tab, level: 1 }).waitFor();
      await poll(() => page.getByRole("status").textContent()).toBe(`No ${noun}s yet. Create one below.`);
      await page.getByLabel("Set name").fill(`${tab.toLowerCase()}-set`);
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await poll(() => page.getByRole("status").textContent()).toBe(`Created ${tab.toLowerCase()}-set.`);
      const row = page.getByRole("table", { name: tab }).locator("tbody tr");
      await poll(() => row.locator("td").allTextContents()).toContain(holds);
      await check(page, tab);
    }
  });
});
