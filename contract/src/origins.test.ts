import { describe, expect, it } from "vitest";
import { parseOrigins, webOrigin } from "./origins.ts";

describe("origins", () => {
  it("parseOrigins normalizes case and a trailing slash, and names a value that is not an origin", () => {
    expect(parseOrigins("X", " HTTPS://UI.example.com/ , http://localhost:5173")).toEqual([
      "https://ui.example.com",
      "http://localhost:5173",
    ]);
    expect(parseOrigins("X", undefined)).toEqual([]);
    for (const bad of [
      "https://*.example.com",
      "https://ui.example.com/app",
      "ftp://ui.example.com",
      "ui.example.com",
    ]) {
      expect(() => parseOrigins("X", bad)).toThrow(`X: '${bad}' is not an origin`);
    }
  });

  it("webOrigin takes an origin as parseOrigins writes it, and refuses anything else", () => {
    for (const good of ["https://atrium.example.com", "http://localhost:5555", "http://127.0.0.1:8080"]) {
      expect(webOrigin.parse(good)).toBe(good);
    }
    const bad = [
      "https://atrium.example.com/",
      "https://Atrium.example.com",
      "https://*.example.com",
      "https://atrium.example.com/ui",
      "ftp://atrium.example.com",
      "atrium.example.com",
      "https://atrium.example.com:443",
      "http://atrium.example.com:80",
      "https://atrium.example.com:0",
    ];
    for (const value of bad) expect(webOrigin.safeParse(value).success, value).toBe(false);
  });
});
