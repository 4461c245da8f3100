/**
 * The web UI's files served beside the API (ATRIUM_UI_DIR): content types, caching, the CSP, the
 * app-route fallback, and that the API's own paths stay problems. A small bundle written here
 * stands in for a `vite build` output (ui/src/pages.test.ts serves the real one in Chromium).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "./config.ts";
import { startTestControlPlane, type TestControlPlane } from "./testing.ts";
import { readUiBundle, UI_CONTENT_SECURITY_POLICY, UiBundleError } from "./ui-files.ts";

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-1a2b3c.js"></script></head></html>';
const SCRIPT = `console.log(${JSON.stringify("x".repeat(2000))});`;

let dir: string;
let controlPlane: TestControlPlane;

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await request(`${controlPlane.url}${path}`, { headers });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "atrium-ui-files-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), INDEX);
  writeFileSync(join(dir, "assets", "app-1a2b3c.js"), SCRIPT);
  writeFileSync(join(dir, "assets", "app-1a2b3c.css"), "body { margin: 0 }");
  writeFileSync(join(dir, "robots.txt"), "User-agent: *\nDisallow: /\n");
  controlPlane = await startTestControlPlane("pglite", { config: { uiDir: dir } });
});
afterAll(async () => {
  await controlPlane?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the web UI's files", () => {
  it("serves index.html at / and at every app route, never cached without revalidation, with the CSP", async () => {
    for (const path of ["/", "/services", "/services/3f1c?tab=operations", "/sign-in"]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.body.toString(), path).toBe(INDEX);
      expect(answer.headers).toMatchObject({
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": UI_CONTENT_SECURITY_POLICY,
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "no-referrer",
      });
    }
    expect(UI_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(UI_CONTENT_SECURITY_POLICY).not.toContain("unsafe");
  });

  it("lets the page connect to the gateway origins ATRIUM_UI_GATEWAY_ORIGINS lists, and refuses a wildcard", () => {
    const config = configFromEnv({ ATRIUM_UI_GATEWAY_ORIGINS: "https://gw.example.com, http://127.0.0.1:7777" });
    expect(config.uiGatewayOrigins).toEqual(["https://gw.example.com", "http://127.0.0.1:7777"]);
    const bundle = readUiBundle(dir, config.uiGatewayOrigins);
    expect(bundle.contentSecurityPolicy).toContain(
      "; connect-src 'self' https://gw.example.com http://127.0.0.1:7777; ",
    );
    expect(bundle.contentSecurityPolicy.replace(/connect-src [^;]*/, "")).toBe(
      UI_CONTENT_SECURITY_POLICY.replace(/connect-src [^;]*/, ""),
    );
    expect(() => configFromEnv({ ATRIUM_UI_GATEWAY_ORIGINS: "*" })).toThrow(
      "ATRIUM_UI_GATEWAY_ORIGINS: '*' is not an origin",
    );
  });

  it("serves hashed assets as immutable, with their content type, gzipped when asked", async () => {
    const script = await get("/assets/app-1a2b3c.js");
    expect(script.status).toBe(200);
    expect(script.body.toString()).toBe(SCRIPT);
    expect(script.headers).toMatchObject({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
    });
    const zipped = await get("/assets/app-1a2b3c.js", { "accept-encoding": "gzip" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).toString()).toBe(SCRIPT);
    // gzip;q=0 refuses gzip (RFC 9110 §12.5.3): the plain file.
    const refused = await get("/assets/app-1a2b3c.js", { "accept-encoding": "gzip;q=0, br" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.toString()).toBe(SCRIPT);
    expect((await get("/assets/app-1a2b3c.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    expect((await get("/robots.txt")).headers).toMatchObject({
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-cache",
    });
  });

  it("answers a matching ETag with 304", async () => {
    const first = await get("/");
    const again = await get("/", { "if-none-match": String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it("answers a missing file, an API path and a server path with a 404 problem, not the page", async () => {
    for (const path of [
      "/assets/app-old.js",
      "/favicon.ico",
      "/api/v1/no-such-route",
      "/api/v2",
      "/api",
      "/q/nothing",
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-type"], path).toBe("application/problem+json; charset=utf-8");
      expect(JSON.parse(answer.body.toString()), path).toMatchObject({ code: "ROUTE_NOT_FOUND" });
    }
  });

  it("leaves the API and its authentication as they are", async () => {
    expect((await get("/api/v1/services")).status).toBe(401);
    expect((await controlPlane.admin.call("GET", "/api/v1/services")).status).toBe(200);
    expect((await get("/q/health/live")).status).toBe(200);
    // A path that would walk out of the folder names no file: the app's page, never a file of the disk.
    const walked = await get("/..%2f..%2fetc%2fpasswd");
    expect(walked.body.toString()).toBe(INDEX);
  });
});

describe("ATRIUM_UI_DIR", () => {
  it("must hold a built UI: the start fails saying what to fix", () => {
    const empty = mkdtempSync(join(tmpdir(), "atrium-ui-empty-"));
    try {
      expect(() => readUiBundle(empty)).toThrow(UiBundleError);
      expect(() => readUiBundle(empty)).toThrow(/holds no index.html: point it at a built web UI/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("holds only the folder's own visible files: hidden files and symbolic links are left out", () => {
    const bundle = mkdtempSync(join(tmpdir(), "atrium-ui-hidden-"));
    const outside = mkdtempSync(join(tmpdir(), "atrium-ui-outside-"));
    try {
      writeFileSync(join(bundle, "index.html"), INDEX);
      writeFileSync(join(bundle, ".env"), "ATRIUM_SECRET=leaked");
      mkdirSync(join(bundle, ".git"));
      writeFileSync(join(bundle, ".git", "config"), "[core]");
      writeFileSync(join(outside, "host.txt"), "a file of the host");
      symlinkSync(join(outside, "host.txt"), join(bundle, "linked.txt"));
      symlinkSync(outside, join(bundle, "linked-folder"));
      expect([...readUiBundle(bundle).files.keys()]).toEqual(["/index.html"]);
    } finally {
      rmSync(bundle, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("unset, nothing is served at /", async () => {
    const bare = await startTestControlPlane("pglite");
    try {
      const answer = await request(`${bare.url}/`);
      expect(answer.statusCode).toBe(404);
      expect(await answer.body.json()).toMatchObject({ code: "ROUTE_NOT_FOUND" });
    } finally {
      await bare.close();
    }
  });
});
