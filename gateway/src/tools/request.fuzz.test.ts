/**
 * Generated hostile arguments against request building (fast-check): whatever a tool call sends,
 * the built request stays under the backend's base path, keeps each value inside its own path
 * segment, and never puts CR, LF or another control character in a header. 10,000 cases per property by default;
 * ATRIUM_FUZZ_RUNS sets more. A failure prints the shrunk counterexample and the seed to replay it.
 */

import { bindParameters } from "@atrium/contract/tool-schema";
import { recordFigures } from "@atrium/reliability";
import { fuzzParameters } from "@atrium/reliability/fuzz";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { operation } from "./fixtures.ts";
import { compileOperationRequest, joinBackendUrl } from "./request.ts";

const { numRuns: runs, seed } = fuzzParameters(10_000);

const op = operation({
  operationId: "getFile",
  method: "GET",
  path: "/files/{name}/versions/{version}",
  parameters: [
    { name: "name", in: "path", required: true, schema: { type: "string" } },
    { name: "version", in: "path", required: true, schema: { type: "string" } },
    { name: "q", in: "query", required: false, schema: { type: "array", items: { type: "string" } } },
    { name: "x-trace", in: "header", required: false, schema: { type: "string" } },
  ],
});
const request = compileOperationRequest(op, bindParameters(op), undefined);

/** Any UTF-16 text, lone surrogates and controls included, with path tricks mixed in often. */
const hostile = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.constantFrom("..", ".", "%2e%2e", "..%2F..", "a/../b", "\r\nx-injected: 1", "x\u0000y", "?a=1#f", "\\..\\"),
  fc
    .array(fc.constantFrom("..", "/", "%", "2e", "\r", "\n", "?", "#", ";", "\\", "a"), { maxLength: 12 })
    .map((parts) => parts.join("")),
);
const args = fc.record({ name: hostile, version: hostile, q: fc.array(hostile, { maxLength: 4 }), "x-trace": hostile });

const base = "http://127.0.0.1:1/api/v1";

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1e6);
}

describe("request building under generated arguments", () => {
  const rssBefore = rssMb();
  const started = performance.now();
  let passed = 0;
  afterAll(() => {
    if (passed < 3) return; // figures only for a run whose three properties held
    recordFigures("fuzz-request-building", {
      tried: 3 * runs,
      unit: "generated argument sets",
      lost: 0,
      details: {
        properties: 3,
        "RSS before (MB)": rssBefore,
        "RSS after (MB)": rssMb(),
        seconds: Math.round((performance.now() - started) / 100) / 10,
      },
    });
  });

  it("stays under the base path, one segment per path value, when the path check passes", () => {
    fc.assert(
      fc.property(args, (values) => {
        if (request.checkPath(values).length > 0) return; // refused before any request is built
        const built = request.build(values);
        const target = joinBackendUrl(base, built.path).path;
        expect(target.startsWith("/api/v1/files/")).toBe(true);
        const [pathPart = ""] = target.split("?");
        const segments = pathPart.split("/");
        expect(segments).toHaveLength(7); // "", api, v1, files, name, versions, version
        expect(segments[5]).toBe("versions");
        for (const segment of segments.slice(1)) {
          expect(segment).not.toBe("");
          expect([".", ".."]).not.toContain(decodeURIComponent(segment));
        }
        expect(target).not.toContain("#");
      }),
      { numRuns: runs, seed },
    );
    passed++;
  });

  it("refuses exactly the path values that would be empty, '.' or '..'", () => {
    fc.assert(
      fc.property(args, (values) => {
        const leaves = ["", ".", ".."].includes(values.name) || ["", ".", ".."].includes(values.version);
        expect(request.checkPath(values).length > 0).toBe(leaves);
      }),
      { numRuns: runs, seed },
    );
    passed++;
  });

  it("never puts CR, LF, NUL or another control (HTAB aside: HTTP allows it) or non-ASCII in a header", () => {
    fc.assert(
      fc.property(args, (values) => {
        for (const value of Object.values(request.build(values).headers)) {
          expect(value).toMatch(/^[\t\x20-\x7e]*$/);
        }
      }),
      { numRuns: runs, seed },
    );
    passed++;
  });
});
