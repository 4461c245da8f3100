/**
 * Expositions and the playground in real Chromium against the gateway test stack
 * (gateway/src/testing.ts): a real control plane (in-memory PGlite) serving the built bundle, whose
 * CSP lets the page connect to the gateway; a real gateway allowing the control plane's origin
 * (CORS); the fixture pet store behind it. Publishing a plan (and a refused name), the endpoint
 * and the client configurations; an Exposition changed in place (a name already taken refused in
 * words) and deleted behind a confirmation; then the playground: a wrong API key, the tools with
 * their hints, getPet in both eras with the backend's status, an isError result; the Service's
 * resources read and its prompts got with their arguments, in both eras; and an OAuth plan's
 * endpoint called with a bearer token minted by a real authorization server (oidc-provider).
 */
import { freePort } from "@atrium/control-plane/testing";
import type { Gateway } from "@atrium/gateway";
import { startAuthorizationServer, type TestAuthorizationServer } from "@atrium/gateway/auth/testing";
import { type Stack, startStack, waitFor } from "@atrium/gateway/testing";
import { useBrowser } from "@atrium/test-browser";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUiBundle } from "./bundle.ts";
import { expectAccessible, expectNoHorizontalScroll, poll, screenshot, signIn } from "./testing.ts";

// biome-ignore lint/correctness/useHookAtTopLevel: the browser fixture, not a React hook (its name says "use" as vitest fixtures do)
const browser = useBrowser();
let stack: Stack;
let gatewayOrigin: string;
let authorizationServer: TestAuthorizationServer;
let gateway: Gateway;

beforeAll(async () => {
  const uiDir = (await ensureUiBundle()).dir;
  // The gateway's port is chosen first: the control plane's CSP names its origin.
  const port = await freePort();
  gatewayOrigin = `http://127.0.0.1:${port}`;
  stack = await startStack({ controlPlane: { config: { uiDir, uiGatewayOrigins: [gatewayOrigin] } } });
  authorizationServer = await startAuthorizationServer();
  gateway = await stack.startGateway({ port, fqdns: [`127.0.0.1:${port}`], corsOrigins: [stack.controlPlane.url] });
  // The page publishes its own Exposition of the stack's plan (fixture-plan) on its group (test).
  await stack.controlPlane.admin.call("DELETE", `/api/v1/expositions/${stack.expositionId}`);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await authorizationServer?.close();
});

async function openExpositions(page: Page): Promise<void> {
  await signIn(page, stack.controlPlane.url);
  await page.getByRole("heading", { name: "Services" }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Expositions" }).click();
  await page.getByRole("heading", { name: "Expositions" }).waitFor();
}

async function listTools(page: Page, options: { key: string; era?: string }): Promise<void> {
  if (options.era) await page.getByRole("radio", { name: new RegExp(`^${options.era}`) }).check();
  await page.getByLabel("API key", { exact: true }).fill(options.key);
  await page.getByRole("button", { name: "Connect" }).click();
}

describe("expositions", () => {
  it("publishes a plan, refuses a bad name in words, and shows the endpoint and client configurations", async () => {
    const page = await browser.page();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await openExpositions(page);
    await poll(() => page.getByRole("status").first().textContent()).toContain("No expositions yet");
    await expectAccessible(page, "expositions (empty)");
    await expectNoHorizontalScroll(page, "expositions (empty)");

    // A refused name: the control plane's words.
    await page.getByLabel("Name").fill("Not A Name");
    await page.getByLabel("Configuration plan").selectOption({ label: "fixture-plan" });
    await page.getByLabel("Gateway group").selectOption({ label: "test" });
    await page.getByRole("button", { name: "Publish" }).click();
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^The plan was not published: .*name/);
    await expectAccessible(page, "expositions (refused)");

    await page.getByLabel("Name").fill("pets");
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("heading", { name: "pets", exact: true }).waitFor();
    const url = `${gatewayOrigin}/mcp/default/pets`;
    // The endpoint appears once the gateway serves it (the page lists live gateways' FQDNs).
    await poll(async () => {
      await page.reload();
      return page.locator(".endpoints code").allTextContents();
    }).toEqual([url]);
    expect(await page.getByText("Clients authenticate with").locator("..").textContent()).toContain("API key");

    const snippet = page.locator(".snippet pre");
    const vsCode = JSON.parse((await snippet.textContent()) ?? "");
    expect(vsCode).toEqual({
      inputs: [{ type: "promptString", id: "atrium-key", description: "API key of pets", password: true }],
      servers: { pets: { type: "http", url, headers: { "x-atrium-key": "${input:atrium-key}" } } },
    });
    await page.getByRole("button", { name: "Cursor" }).click();
    expect(JSON.parse((await snippet.textContent()) ?? "")).toEqual({
      mcpServers: { pets: { url, headers: { "x-atrium-key": "<your API key>" } } },
    });
    await page.getByRole("button", { name: "Claude Desktop" }).click();
    expect(JSON.parse((await snippet.textContent()) ?? "").mcpServers.pets.args).toEqual([
      "-y",
      "mcp-remote",
      url,
      "--header",
      "x-atrium-key:${ATRIUM_KEY}",
    ]);
    await page.getByRole("button", { name: "curl" }).click();
    await page.getByRole("button", { name: "Copy the curl configuration" }).click();
    const curl = String(await page.evaluate("navigator.clipboard.readText()"));
    expect(curl).toContain(`curl -sS '${url}'`);
    expect(curl).toContain('-H "x-atrium-key: $ATRIUM_KEY"');
    expect(curl).not.toContain(stack.apiKey);
    await expectAccessible(page, "exposition");
    await expectNoHorizontalScroll(page, "exposition");
    await screenshot(page, "exposition", 1440);
  });

  it("says why an exposition cannot be shown", async () => {
    const page = await browser.page();
    await openExpositions(page);
    await page.goto(`${stack.controlPlane.url}/expositions/00000000-0000-4000-8000-000000000000`);
    await poll(() => page.getByRole("alert").textContent()).toMatch(/^Could not load the exposition: .*does not exist/);
    await expectAccessible(page, "exposition (not loaded)");
  });
});

describe("changing and deleting an exposition", () => {
  it("changes its name and group in place, refuses a name already taken in words, and deletes it once confirmed", async () => {
    const admin = stack.controlPlane.admin;
    const blue = await admin.call("POST", "/api/v1/gateway-groups", { name: "blue", labels: { color: "blue" } });
    const publish = (name: string) =>
      admin.call("POST", "/api/v1/expositions", {
        name,
        configurationPlanId: stack.planId,
        gatewayGroupId: stack.groupId,
      });
    await publish("taken");
    const { id } = (await publish("to-change")).body;
    const page = await browser.page();
    await openExpositions(page);
    await page.goto(`${stack.controlPlane.url}/expositions/${id}`);
    await page.getByRole("heading", { name: "to-change" }).waitFor();

    await page.getByRole("button", { name: "Change exposition to-change" }).click();
    const form = page.getByRole("form", { name: "Change to-change" });
    await poll(() => form.getByLabel("Gateway group").inputValue()).toBe(String(stack.groupId));
    expect(await form.getByLabel("Configuration plan").inputValue()).toBe(stack.planId);
    await form.getByLabel("Name").fill("taken");
    await form.getByRole("button", { name: "Save" }).click();
    await poll(() => form.getByRole("alert").textContent()).toMatch(
      /^The exposition was not changed: .*already exists/,
    );
    await expectAccessible(page, "exposition (change refused)");
    await expectNoHorizontalScroll(page, "exposition (change refused)");
    await screenshot(page, "exposition-change", 360);
    expect((await admin.call("GET", `/api/v1/expositions/${id}`)).body.name).toBe("to-change");

    await form.getByLabel("Name").fill("changed");
    await form.getByLabel("Gateway group").selectOption({ label: "blue" });
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "changed", exact: true }).waitFor();
    await poll(() => page.getByRole("status").first().textContent()).toBe("Saved the exposition changed.");
    expect(await page.getByText("Gateway group", { exact: true }).locator("..").textContent()).toContain("blue");
    expect((await admin.call("GET", `/api/v1/expositions/${id}`)).body).toMatchObject({
      id,
      name: "changed",
      gatewayGroupId: blue.body.id,
    });

    // Delete asks first; Cancel keeps it, Yes deletes it and goes back to the list.
    await page.getByRole("button", { name: "Delete exposition changed" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    expect((await admin.call("GET", `/api/v1/expositions/${id}`)).status).toBe(200);
    await page.getByRole("button", { name: "Delete exposition changed" }).click();
    await expectAccessible(page, "exposition (delete asked)");
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.getByRole("heading", { name: "Expositions" }).waitFor();
    await poll(async () => (await admin.call("GET", `/api/v1/expositions/${id}`)).status).toBe(404);
    await poll(() =>
      page.getByRole("table", { name: "Expositions" }).locator("tbody th").allTextContents(),
    ).not.toContain("changed");
    // Left as the other tests expect them: one Exposition (theirs) and the stack's group only.
    await admin.call(
      "DELETE",
      `/api/v1/expositions/${(await admin.call("GET", "/api/v1/expositions")).body.items.find((e: { name: string }) => e.name === "taken").id}`,
    );
    await admin.call("DELETE", `/api/v1/gateway-groups/${blue.body.id}`);
  });
});

describe("playground", () => {
  it("lists the tools with their hints, calls getPet in both eras, shows isError and a wrong key", async () => {
    const page = await browser.page();
    await openExpositions(page);
    const rows = page.getByRole("table", { name: "Expositions" }).locator("tbody tr");
    await poll(() => rows.locator("td").allTextContents()).toEqual([
      "test",
      `127.0.0.1:${new URL(gatewayOrigin).port}`,
      "none",
    ]);
    await expectAccessible(page, "expositions (listed)");
    await expectNoHorizontalScroll(page, "expositions (listed)");
    await screenshot(page, "expositions", 1440);
    await page.getByRole("link", { name: "pets", exact: true }).click();
    await page.getByRole("heading", { name: "Playground" }).waitFor();
    await poll(() => page.getByLabel("Endpoint URL").inputValue()).toBe(`${gatewayOrigin}/mcp/default/pets`);

    // A wrong key: the gateway's refusal, in words.
    await listTools(page, { key: "not-the-key" });
    await poll(() => page.getByRole("alert").textContent()).toBe("Could not list the tools: Invalid API key");

    await listTools(page, { key: stack.apiKey });
    const tools = page.getByRole("table", { name: "Tools" }).locator("tbody tr");
    await poll(() => tools.locator("th").allTextContents()).toContain("Try getPet");
    const getPetRow = tools.filter({ has: page.locator("th", { hasText: /^Try getPet$/ }) });
    expect(await getPetRow.locator(".badge").allTextContents()).toContain("read-only");
    expect(await tools.filter({ hasText: "deletePet" }).locator(".badge").allTextContents()).toContain("destructive");
    await expectAccessible(page, "playground (tools)");

    // getPet 1: the pet, as structured content.
    await page.getByRole("button", { name: "Try getPet" }).click();
    await page.getByLabel(/^petId/).fill("1");
    await page.getByRole("button", { name: "Call the tool" }).click();
    const result = page.getByRole("region", { name: "Result of getPet" });
    await poll(() => result.locator("pre").last().textContent()).toContain('"name": "Rex"');
    const facts = async (): Promise<Record<string, string>> => {
      const [terms, values] = await Promise.all([
        result.locator(".facts dt").allTextContents(),
        result.locator(".facts dd").allTextContents(),
      ]);
      return Object.fromEntries(terms.map((term, index) => [term, values[index] ?? ""]));
    };
    expect(await facts()).toMatchObject({
      isError: "false",
      "Gateway HTTP status": "200",
      "Backend status": "HTTP 200",
    });
    expect((await facts()).Latency).toMatch(/^\d+ ms$/);
    await expectAccessible(page, "playground (result)");
    await expectNoHorizontalScroll(page, "playground (result)");
    await screenshot(page, "playground", 1440);

    // A pet that does not exist: isError, with the backend's status.
    await page.getByLabel(/^petId/).fill("99");
    await page.getByRole("button", { name: "Call the tool" }).click();
    await poll(async () => (await facts()).isError).toBe("true");
    expect((await facts())["Backend status"]).toBe("HTTP 404 Not Found");
    await poll(() => result.getByRole("alert").textContent()).toContain("isError");
    await screenshot(page, "playground-error", 360);

    // A number the schema refuses never leaves the page.
    await page.getByLabel(/^petId/).fill("1.5");
    await page.getByRole("button", { name: "Call the tool" }).click();
    await poll(() => page.getByRole("alert").first().textContent()).toBe("petId must be a whole number");

    // The 2025-11-25 era: initialize, then the session's calls.
    await listTools(page, { key: stack.apiKey, era: "2025-11-25" });
    await page.getByRole("button", { name: "Try getPet" }).click();
    await page.getByLabel(/^petId/).fill("2");
    await page.getByRole("button", { name: "Call the tool" }).click();
    await poll(() => result.locator("pre").last().textContent()).toContain('"name": "Tom"');
    expect(stack.backend.received.at(-1)?.url).toBe("/api/pets/2");
  });
});

describe("playground: resources and prompts", () => {
  it("reads a resource and a template's, and gets a prompt with its arguments, in both eras", async () => {
    const admin = stack.controlPlane.admin;
    // The samples' resources and prompt (crds/samples/valid), on the fixture Service.
    await admin.call("POST", "/api/v1/resources", {
      name: "petstore-resources",
      serviceId: stack.serviceId,
      resources: [
        {
          uri: "docs://petstore/policy",
          name: "adoption-policy",
          title: "Adoption policy",
          mimeType: "text/markdown",
          text: "# Adoption policy\nPets are sold to adults only.",
        },
      ],
      resourceTemplates: [
        {
          uriTemplate: "petstore://pets/{petId}",
          name: "pet",
          description: "A pet as JSON.",
          mimeType: "application/json",
          fromBackend: { path: "/pets/{{petId}}" },
        },
      ],
    });
    await admin.call("POST", "/api/v1/prompts", {
      name: "petstore-prompts",
      serviceId: stack.serviceId,
      prompts: [
        {
          name: "recommend_pet",
          title: "Recommend a pet",
          description: "Asks for a pet recommendation for a household.",
          arguments: [{ name: "household", description: "Who the pet is for", required: true }],
          messages: [{ role: "user", text: "Recommend an available pet for {{household}}, using the listPets tool." }],
        },
      ],
    });
    const pets = (await admin.call("GET", "/api/v1/expositions")).body.items.find(
      (item: { name: string }) => item.name === "pets",
    );
    await waitFor(
      () => (gateway.registry.byId(pets.id)?.exposition.prompts.length ?? 0) > 0,
      "the gateway serving the prompts",
    );
    const page = await browser.page();
    await openExpositions(page);
    await page.goto(`${stack.controlPlane.url}/expositions/${pets.id}`);
    await page.getByRole("heading", { name: "Playground" }).waitFor();

    for (const era of ["2026-07-28", "2025-11-25"]) {
      await listTools(page, { key: stack.apiKey, era });
      const resources = page.getByRole("table", { name: "Resources" });
      await poll(() => resources.locator("tbody th code").allTextContents()).toEqual([
        "docs://petstore/policy",
        "petstore://pets/{petId}",
      ]);
      await page.getByRole("button", { name: "Read docs://petstore/policy" }).click();
      const policy = page.getByRole("region", { name: "Contents of docs://petstore/policy" });
      await poll(() => policy.locator("pre").textContent()).toBe("# Adoption policy\nPets are sold to adults only.");

      await page.getByRole("button", { name: "Fill in petstore://pets/{petId}" }).click();
      expect(await page.getByLabel("Resource URI").inputValue()).toBe("petstore://pets/{petId}");
      await page.getByLabel("Resource URI").fill("petstore://pets/1");
      await page.getByRole("button", { name: "Read", exact: true }).click();
      const pet = page.getByRole("region", { name: "Contents of petstore://pets/1" });
      await poll(() => pet.locator("pre").textContent()).toContain('"Rex"');
      expect(stack.backend.received.at(-1)?.url).toBe("/api/pets/1");

      await page.getByRole("button", { name: "Get recommend_pet" }).click();
      await page.getByRole("button", { name: "Get the prompt" }).click();
      await poll(() => page.getByRole("alert").first().textContent()).toBe("household is required");
      await page.getByLabel(/^household/).fill("a family with a cat");
      await page.getByRole("button", { name: "Get the prompt" }).click();
      const messages = page.getByRole("region", { name: "Messages of recommend_pet" });
      await poll(() => messages.locator("pre").textContent()).toBe(
        "Recommend an available pet for a family with a cat, using the listPets tool.",
      );
      expect(await messages.locator(".facts").textContent()).toContain("Gateway HTTP status200");
    }
    // An unknown URI: the gateway's refusal, in words.
    await page.getByLabel("Resource URI").fill("docs://nothing");
    await page.getByRole("button", { name: "Read", exact: true }).click();
    const missing = page.getByRole("region", { name: "Contents of docs://nothing" });
    await poll(() => missing.getByRole("alert").textContent()).toMatch(/^The read failed: .*docs:\/\/nothing/);
    await expectAccessible(page, "playground (resources and prompts)");
    await expectNoHorizontalScroll(page, "playground (resources and prompts)");
    await screenshot(page, "playground-resources", 1440);
  });
});

describe("playground with a bearer token", () => {
  it("lists and calls the tools of an OAuth plan in the 2025-11-25 era", async () => {
    const { issuer, jwksUri } = authorizationServer;
    const { expositionId } = await stack.expose("oauth-pets", {
      plan: { oauth: { issuer, jwksUri, audience: "pets-api" } },
    });
    await waitFor(() => gateway.registry.byId(expositionId) !== undefined, "the gateway serving oauth-pets");
    const page = await browser.page();
    await openExpositions(page);
    await page.goto(`${stack.controlPlane.url}/expositions/${expositionId}`);
    await page.getByRole("heading", { name: "oauth-pets" }).waitFor();
    expect(await page.getByText("Clients authenticate with").locator("..").textContent()).toContain(
      "OAuth bearer token",
    );
    // No key for an OAuth endpoint: the client finds the authorization server from the challenge.
    const vsCode = JSON.parse((await page.locator(".snippet pre").textContent()) ?? "");
    expect(vsCode.inputs).toBeUndefined();
    expect(vsCode.servers["oauth-pets"].headers).toBeUndefined();

    expect(await page.getByRole("radio", { name: /^Bearer token/ }).isChecked()).toBe(true);
    await page.getByRole("radio", { name: /^2025-11-25/ }).check();
    await page.getByLabel("Endpoint URL").fill(`${gatewayOrigin}/mcp/default/oauth-pets`);
    const token = await authorizationServer.mint({ aud: "pets-api", sub: "alice" });
    await page.getByLabel("Bearer token", { exact: true }).fill(token);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("button", { name: "Try getPet" }).click();
    await page.getByLabel(/^petId/).fill("1");
    await page.getByRole("button", { name: "Call the tool" }).click();
    const result = page.getByRole("region", { name: "Result of getPet" });
    await poll(() => result.locator("pre").last().textContent()).toContain('"name": "Rex"');
    expect(await page.content()).not.toContain(token);
  });
});
