/**
 * The browser harness, proven on a real page: Debian's Chromium loads a form served on 127.0.0.1,
 * finds its fields by their labels and roles, fills and submits it, and the server receives the
 * POST with its CSRF token; Tab moves the focus through the fields in order. Then the harness's
 * own promises: close() leaves no Chromium process and no profile, and a test process killed
 * with SIGKILL leaves none either.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./launch.ts";
import { useBrowser } from "./use-browser.ts";

interface Submission {
  contentType: string | undefined;
  fields: URLSearchParams;
}

// A server-rendered form, usable without JavaScript, with a CSRF token in a hidden field.
function formPage(csrf: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Backend credential</title></head>
<body><main>
<h1>Backend credential for pets</h1>
<form method="post" action="/submit">
  <input type="hidden" name="csrf" value="${csrf}">
  <p><label for="user">Account name</label> <input id="user" name="user" autocomplete="username"></p>
  <p><label for="key">API key</label> <input id="key" name="key" type="password"></p>
  <p><label><input type="checkbox" name="remember" value="yes"> Remember on this device</label></p>
  <button type="submit">Save credential</button>
</form>
</main></body></html>`;
}

async function startFormServer(csrf: string, submissions: Submission[]): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/form") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(formPage(csrf));
      return;
    }
    if (request.method === "POST" && request.url === "/submit") {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const fields = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
        submissions.push({ contentType: request.headers["content-type"], fields });
        const ok = fields.get("csrf") === csrf;
        response
          .writeHead(ok ? 200 : 403, { "content-type": "text/html; charset=utf-8" })
          .end(`<!doctype html><title>Saved</title><p role="status">${ok ? "Credential saved" : "Bad CSRF token"}</p>`);
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return server;
}

/** The pids in a process group, as pgrep sees them. */
function groupMembers(pgid: number): number[] {
  const found = spawnSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" });
  return found.stdout.split("\n").filter(Boolean).map(Number);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pgid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    if (!groupAlive(pgid)) return true;
  }
  return !groupAlive(pgid);
}

describe("a form in real Chromium", () => {
  const browser = useBrowser();
  const csrf = randomBytes(16).toString("base64url");
  const submissions: Submission[] = [];
  let server: Server;
  let formUrl: string;

  beforeAll(async () => {
    server = await startFormServer(csrf, submissions);
    formUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/form`;
  });
  afterAll(async () => {
    await new Promise((done) => server?.close(done));
  });

  it("runs Debian's Chromium", () => {
    expect(browser.launched.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(browser.launched.packageVersion.startsWith(browser.launched.version)).toBe(true);
  });

  it("fills the form by its labels, submits it, and the server receives the POST with the CSRF token", async () => {
    const page = await browser.page();
    await page.goto(formUrl);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Backend credential for pets");
    await page.getByLabel("Account name").fill("alice");
    await page.getByLabel("API key").fill("sk-test-123");
    await page.getByRole("checkbox", { name: "Remember on this device" }).check();
    await page.getByRole("button", { name: "Save credential" }).click();
    await page.waitForURL(/\/submit$/);
    expect(await page.getByRole("status").textContent()).toBe("Credential saved");
    expect(submissions).toHaveLength(1);
    const [submission] = submissions;
    expect(submission?.contentType).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(submission?.fields ?? [])).toEqual({
      csrf,
      user: "alice",
      key: "sk-test-123",
      remember: "yes",
    });
  });

  it("moves the keyboard focus through the fields in order with Tab", async () => {
    const page = await browser.page();
    await page.goto(formUrl);
    const focusOrder: string[] = [];
    for (let step = 0; step < 4; step++) {
      await page.keyboard.press("Tab");
      // The focused element as assistive technology sees it: its role and accessible name.
      focusOrder.push(await page.locator(":focus").ariaSnapshot());
    }
    expect(focusOrder).toEqual([
      '- textbox "Account name"',
      '- textbox "API key"',
      '- checkbox "Remember on this device"',
      '- button "Save credential"',
    ]);
    // The hidden CSRF field never takes the focus; Enter on the button submits.
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/submit$/);
    expect(submissions.at(-1)?.fields.get("csrf")).toBe(csrf);
  });
});

describe("no Chromium left behind", () => {
  it("close() ends every process of the browser and removes its temp folders", async () => {
    const launched = await launchBrowser();
    const page = await launched.newPage();
    await page.setContent("<p>renderer up</p>");
    // The browser, its zygotes and the renderer share the browser's process group.
    expect(groupMembers(launched.pid).length).toBeGreaterThan(1);
    expect(existsSync(launched.profileDir) && existsSync(launched.artifactsDir)).toBe(true);
    await launched.close();
    expect(await waitUntilGone(launched.pid, 5_000)).toBe(true);
    expect(groupMembers(launched.pid)).toEqual([]);
    expect(existsSync(launched.profileDir) || existsSync(launched.artifactsDir)).toBe(false);
    expect(existsSync(launched.screenshotDir)).toBe(false); // no screenshot taken: no folder
  });

  it("a test process killed with SIGKILL leaves no Chromium and no temp folder", async () => {
    const script = `import { launchBrowser } from ${JSON.stringify(resolve(import.meta.dirname, "launch.ts"))};
const launched = await launchBrowser();
const page = await launched.newPage();
await page.setContent("<p>renderer up</p>");
console.log(JSON.stringify({ pid: launched.pid, dirs: [launched.profileDir, launched.artifactsDir] }));
setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const started = await new Promise<{ pid: number; dirs: string[] }>((done, fail) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) done(JSON.parse(out.split("\n")[0] ?? ""));
      });
      child.on("exit", (code) => fail(new Error(`the child exited (${code}) before starting Chromium`)));
    });
    expect(groupMembers(started.pid).length).toBeGreaterThan(1);
    expect(started.dirs.filter((dir) => existsSync(dir))).toEqual(started.dirs);
    child.kill("SIGKILL");
    expect(await waitUntilGone(started.pid, 10_000)).toBe(true);
    expect(groupMembers(started.pid)).toEqual([]);
    // The watchdog removes the folders a second after the kill.
    const leftOver = () => started.dirs.filter((dir) => existsSync(dir));
    for (const deadline = Date.now() + 5_000; leftOver().length > 0 && Date.now() < deadline; ) await sleep(100);
    expect(leftOver()).toEqual([]);
  }, 60_000);
});
