import { describe, expect, it } from "vitest";
import { acceptsGzip } from "./accept-encoding.ts";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["GZIP", true],
    ["x-gzip", true],
    ["*", true],
    ["deflate, *;q=0.1", true],
    [["deflate", "gzip"], true],
    ["gzip;q=0", false],
    ["*, gzip;q=0", false],
    ["*;q=0", false],
    ["deflate, br", false],
    ["identity", false],
    ["", false],
    [undefined, false],
  ] as const)("%j → %s", (header, expected) => {
    expect(acceptsGzip(header as string | string[] | undefined)).toBe(expected);
  });
});
