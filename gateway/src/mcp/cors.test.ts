/**
 * CORS on the MCP endpoints: off by default (no preflight route, no headers, a foreign Origin
 * refused as before); with ATRIUM_GATEWAY_CORS_ORIGINS, a listed origin's preflight and calls
 * are answered with its exact origin, and any other origin is still refused.
 */
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../config.ts";
import type { Gateway } from "../gateway.ts";
import { modernRequest, type Stack, useStack } from "../testing.ts";
import { corsOrigins } from "./cors.ts";

const UI = "https://console.example.com";
let stack: Stack;
let plain: Gateway;
let withCors: Gateway;

useStack(async (started) => {
  stack = started;
  [plain, withCors] = await Promise.all([stack.startGateway(), stack.startGateway({ corsOrigins: [UI] })]);
});

function preflight(gateway: Gateway, origin: string) {
  return request(`${gateway.url}${stack.mcpPath}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, x-atrium-key, mcp-protocol-version",
    },
  });
}

function listTools(gateway: Gateway, origin: string) {
  return request(
    `${gateway.url}${stack.mcpPath}`,
    modernRequest("tools/list", {}, { headers: { origin, "x-atrium-key": stack.apiKey } }),
  );
}

describe("CORS on /mcp", () => {
  it("is off by default: no preflight, no headers, a foreign origin refused", async () => {
    const answered = await preflight(plain, UI);
    await answered.body.dump();
    expect(answered.statusCode).toBe(404);
    expect(answered.headers["access-control-allow-origin"]).toBeUndefined();
    const call = await listTools(plain, UI);
    expect(call.statusCode).toBe(403);
    expect(await call.body.text()).toContain("DNS-rebinding protection");
  });

  it("answers a listed origin's preflight and calls with that origin", async () => {
    const answered = await preflight(withCors, UI);
    await answered.body.dump();
    expect(answered.statusCode).toBe(204);
    expect(answered.headers["access-control-allow-origin"]).toBe(UI);
    expect(answered.headers["access-control-allow-methods"]).toBe("POST, GET, DELETE");
    expect(String(answered.headers["access-control-allow-headers"])).toContain("x-atrium-key");
    expect(answered.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(answered.headers.vary).toContain("Origin");

    const call = await listTools(withCors, UI);
    expect(call.statusCode).toBe(200);
    expect(call.headers["access-control-allow-origin"]).toBe(UI);
    expect(call.headers["access-control-expose-headers"]).toContain("mcp-session-id");
    expect(((await call.body.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);

    // A refusal is readable by the page too (a wrong key, in words).
    const refused = await request(
      `${withCors.url}${stack.mcpPath}`,
      modernRequest("tools/list", {}, { headers: { origin: UI, "x-atrium-key": "wrong" } }),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["access-control-allow-origin"]).toBe(UI);
    await refused.body.dump();
  });

  it("refuses any other origin, preflight and call", async () => {
    const other = "https://evil.example.com";
    const answered = await preflight(withCors, other);
    expect(answered.statusCode).toBe(403);
    expect(answered.headers["access-control-allow-origin"]).toBeUndefined();
    await answered.body.dump();
    const call = await listTools(withCors, other);
    expect(call.statusCode).toBe(403);
    expect(call.headers["access-control-allow-origin"]).toBeUndefined();
    await call.body.dump();
  });
});

describe("ATRIUM_GATEWAY_CORS_ORIGINS", () => {
  it("takes exact origins and refuses wildcards, paths and other schemes with the value named", () => {
    expect(corsOrigins(undefined)).toEqual([]);
    expect(corsOrigins(" https://Console.example.com , http://localhost:5173/ ")).toEqual([
      "https://console.example.com",
      "http://localhost:5173",
    ]);
    for (const bad of ["*", "https://console.example.com/ui", "console.example.com", "ftp://x.example"]) {
      expect(() => corsOrigins(bad)).toThrow(`ATRIUM_GATEWAY_CORS_ORIGINS: '${bad}' is not an origin`);
    }
    const config = configFromEnv({
      ATRIUM_CONTROL_PLANE_TOKEN: "t",
      ATRIUM_GATEWAY_ID: "gw",
      ATRIUM_GATEWAY_CORS_ORIGINS: UI,
    });
    expect(config.corsOrigins).toEqual([UI]);
  });
});
