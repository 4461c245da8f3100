/**
 * The web UI's end-to-end journey (issue 16), in real Chromium against the gateway test stack
 * (gateway/src/testing.ts: a real control plane on in-memory PGlite serving the built bundle, a
 * real gateway allowing the control plane's origin) and the demo's own pet store
 * (`atrium run --demo`'s backend, which serves its OpenAPI document). Every step goes through the
 * pages: sign in, import the demo pet store by its URL, create a plan with an API key, publish it,
 * copy the key from its one-time display, and call getPet with it in the playground. The REST API
 * only starts the stack and checks the results. axe-core runs on each screen; each step's time is
 * printed.
 */
import type { Server } from "node:http";
import { freePort, TEST_ADMIN } from "@atrium/control-plane/testing";
import { startDemoBackend } from "@atrium/demo";
import { type Stack, startStack } from "@atrium/gateway/testing";
import { useBrowser } from "@atrium/test-browser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUiBundle } from "./bundle.ts";
import { expectAccessible, poll } from "./testing.ts";

// biome-ignore lint/correctness/useHookAtTopLevel: the browser fixture, not a React hook (its name says "use" as vitest fixtures do)
const browser = useBrowser();
let stack: Stack;
let demo: { server: Server; url: string };
let gatewayOrigin: string;

beforeAll(async () => {
  const uiDir = (await ensureUiBundle()).dir;
  demo = await startDemoBackend(0);
  // The demo imports its pet store from a loopback URL, which the SSRF policy refuses unless opened
  // (as `atrium run --demo` does); the control plane reads the setting when it starts.
  const allowHosts = process.env.ATRIUM_IMPORT_ALLOW_HOSTS;
  process.env.ATRIUM_IMPORT_ALLOW_HOSTS = new URL(demo.url).host;
  // The gateway's port is chosen first: the control plane's CSP names its origin.
  const port = await freePort();
  gatewayOrigin = `http://127.0.0.1:${port}`;
  try {
    stack = await startStack({ controlPlane: { config: { uiDir, uiGatewayOrigins: [gatewayOrigin] } } });
  } finally {
    if (allowHosts === undefined) delete process.env.ATRIUM_IMPORT_ALLOW_HOSTS;
    else process.env.ATRIUM_IMPORT_ALLOW_HOSTS = allowHosts;
  }
  await stack.startGateway({ port, fqdns: [`127.0.0.1:${port}`], corsOrigins: [stack.controlPlane.url] });
  // The gateway started with the stack's own Exposition; the journey publishes its own.
  await stack.controlPlane.admin.call("DELETE", `/api/v1/expositions/${stack.expositionId}`);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => demo?.server.close(resolve));
});

/** Prints how long each step took since the previous one. */
function stopwatch(): (step: string) => void {
  let last = performance.now();
  return (step) => {
    const now = performance.now();
    console.log(`ui journey: ${step} in ${Math.round(now - last)} ms`);
    last = now;
  };
}

async function navigate(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link }).click();
  await page.getByRole("heading", { name: heading, exact: true }).waitFor();
}

describe("the journey", () => {
  it("signs in, imports the demo pet store, creates a plan with a key, publishes it and calls getPet with the copied key", async () => {
    const done = stopwatch();
    const admin = stack.controlPlane.admin;
    const page = await browser.page();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);

    // Sign in.
    await page.goto(`${stack.controlPlane.url}/`);
    await poll(() => new URL(page.url()).pathname).toBe("/sign-in");
    await expectAccessible(page, "journey: sign-in");
    await page.getByLabel("Organization").fill(TEST_ADMIN.organization);
    await page.getByLabel("User name").fill(TEST_ADMIN.username);
    await page.getByLabel("Password").fill(TEST_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Services", exact: true }).waitFor();
    done("signed in");

    // Import the demo pet store from the URL its backend serves it at, as `atrium run --demo` does.
    await expectAccessible(page, "journey: services");
    await page.getByLabel("Name").fill("demo-petstore");
    await page.getByLabel("Version").fill("1.0.0");
    await page.getByRole("radio", { name: "URL" }).check();
    await page.getByLabel("Document URL").fill(`${demo.url}/openapi.json`);
    await page.getByRole("button", { name: "Import" }).click();
    await poll(() => page.getByRole("status").first().textContent()).toMatch(
      /^Imported demo-petstore 1\.0\.0: \d+ operations\.$/,
    );
    const rows = page.getByRole("table", { name: "Services" }).locator("tbody tr th");
    await poll(() => rows.allTextContents()).toContain("demo-petstore");
    await expectAccessible(page, "journey: services (imported)");
    const services = (await admin.call("GET", "/api/v1/services")).body.items as { id: string; name: string }[];
    const service = services.find((item) => item.name === "demo-petstore");
    expect(service).toBeDefined();
    done("imported the demo pet store");

    // A plan with an API key, on the Plans page.
    await navigate(page, "Plans", "Configuration plans");
    await page.getByRole("link", { name: "New configuration plan" }).click();
    await page.getByRole("heading", { name: "New configuration plan" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("demo-petstore");
    await page.getByLabel("Service").selectOption({ label: "demo-petstore 1.0.0" });
    await page.getByLabel("Backend endpoint").fill(demo.url);
    await page.getByRole("radio", { name: /^API key/ }).check();
    await expectAccessible(page, "journey: new plan");
    await page.getByRole("button", { name: "Create plan" }).click();
    const shown = page.getByRole("region", { name: "API key" });
    await shown.waitFor();
    const displayed = (await shown.locator("code").textContent()) ?? "";
    expect(displayed).toMatch(/^atr_k_/);
    await expectAccessible(page, "journey: plan created (API key shown)");
    const plans = (await admin.call("GET", "/api/v1/configuration-plans")).body.items as Record<string, unknown>[];
    expect(plans.find((plan) => plan.name === "demo-petstore")).toMatchObject({
      serviceId: service?.id,
      backendEndpoint: demo.url,
      hasApiKey: true,
    });
    done("created the plan");

    // Copy the key from its one-time display: the clipboard holds it.
    await shown.getByRole("button", { name: "Copy" }).click();
    await poll(() => shown.getByRole("status").textContent()).toBe("Copied to the clipboard.");
    const copied = String(await page.evaluate("navigator.clipboard.readText()"));
    expect(copied).toBe(displayed);
    await shown.getByRole("button", { name: "I have copied it" }).click();
    await page.getByRole("heading", { name: "demo-petstore", exact: true }).waitFor();
    expect(await page.content()).not.toContain(copied);
    done("copied the key");

    // Publish the plan on the gateways' group, on the Expositions page.
    await navigate(page, "Expositions", "Expositions");
    await page.getByLabel("Name").fill("demo-petstore");
    await page.getByLabel("Configuration plan").selectOption({ label: "demo-petstore" });
    await page.getByLabel("Gateway group").selectOption({ label: "test" });
    await expectAccessible(page, "journey: expositions");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("heading", { name: "demo-petstore", exact: true }).waitFor();
    const url = `${gatewayOrigin}/mcp/default/demo-petstore`;
    // The endpoint appears once the gateway serves the new Exposition.
    await poll(async () => {
      await page.reload();
      return page.locator(".endpoints code").allTextContents();
    }).toEqual([url]);
    await expectAccessible(page, "journey: exposition");
    done("published the plan");

    // The playground: the copied key pasted, the tools listed, getPet called. Pet 2 is the demo
    // store's Whiskers (the stack's fixture store has another pet 2): the call reached the demo.
    await page.getByRole("heading", { name: "Playground" }).waitFor();
    await poll(() => page.getByLabel("Endpoint URL").inputValue()).toBe(url);
    const keyField = page.getByLabel("API key", { exact: true });
    await keyField.focus();
    await page.keyboard.press("ControlOrMeta+V");
    expect(await keyField.inputValue()).toBe(copied);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("button", { name: "Try getPet" }).click();
    await page.getByLabel(/^petId/).fill("2");
    await page.getByRole("button", { name: "Call the tool" }).click();
    const result = page.getByRole("region", { name: "Result of getPet" });
    await poll(() => result.locator("pre").last().textContent()).toContain('"name": "Whiskers"');
    expect(JSON.parse((await result.locator("pre").last().textContent()) ?? "")).toEqual({
      id: 2,
      name: "Whiskers",
      status: "available",
    });
    const [terms, values] = await Promise.all([
      result.locator(".facts dt").allTextContents(),
      result.locator(".facts dd").allTextContents(),
    ]);
    const facts = Object.fromEntries(terms.map((term, index) => [term, values[index] ?? ""]));
    expect(facts).toMatchObject({ isError: "false", "Gateway HTTP status": "200", "Backend status": "HTTP 200" });
    expect(await page.content()).not.toContain(copied);
    await expectAccessible(page, "journey: playground (getPet)");
    done("called getPet in the playground");
  });
});
