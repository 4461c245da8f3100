import { describe, expect, it } from "vitest";
import { isLogLevel, LOG_LEVELS, reaches, SessionLogLevels } from "./log-levels.ts";

describe("log levels", () => {
  it("orders the RFC 5424 severities, least severe first", () => {
    expect(reaches("error", "warning")).toBe(true);
    expect(reaches("warning", "warning")).toBe(true);
    expect(reaches("info", "warning")).toBe(false);
    expect(reaches("emergency", "debug")).toBe(true);
    expect(reaches("debug", "emergency")).toBe(false);
    expect(LOG_LEVELS.every(isLogLevel)).toBe(true);
    for (const other of ["DEBUG", "warn", "", 3, null, undefined]) expect(isLogLevel(other)).toBe(false);
  });

  it("keeps at most its bound of sessions, forgetting the one whose level changed longest ago", () => {
    const levels = new SessionLogLevels(2);
    levels.set("a", "debug");
    levels.set("b", "info");
    levels.set("a", "error"); // a changed after b
    levels.set("c", "warning");
    expect([levels.get("a"), levels.get("b"), levels.get("c")]).toEqual(["error", undefined, "warning"]);
    levels.forget("a");
    expect(levels.get("a")).toBeUndefined();
    expect(new SessionLogLevels().get("a")).toBeUndefined();
  });
});
