import { describe, expect, it } from "vitest";
import { acceptsEventStream, acceptsGzip } from "./accept-encoding.ts";

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

describe("acceptsEventStream", () => {
  it.each([
    ["application/json, text/event-stream", true],
    ["text/event-stream", true],
    ["TEXT/EVENT-STREAM;q=0.5, application/json", true],
    [["application/json", "text/event-stream"], true],
    ["application/json, text/event-stream;q=0", false],
    ["application/json", false],
    ["*/*", false],
    ["text/*", false],
    ["", false],
    [undefined, false],
  ] as const)("%j → %s", (header, expected) => {
    expect(acceptsEventStream(header as string | string[] | undefined)).toBe(expected);
  });
});
