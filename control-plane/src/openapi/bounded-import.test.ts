/**
 * Documents that used to stall, crash or poison the import (issue 11): shared schemas referring
 * to each other, deep nesting, cycles of references, external dynamic references, values the
 * gateways would refuse, and work past the time budget.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { importOpenApi } from "./import.ts";
import { ImportedDocument } from "./imported-document.ts";
import { maxDocumentDepth } from "./limits.ts";
import { importError, referenceChain } from "./test-documents.ts";

const document30 = (paths: unknown, components?: unknown) =>
  JSON.stringify({
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths,
    ...(components ? { components } : {}),
  });
const ok = { "200": { description: "ok" } };

describe("importOpenApi: bounded work", () => {
  // The first import starts a worker (loading the parser); the timings below are the import's own.
  beforeAll(async () => {
    await importOpenApi({ text: referenceChain(2) });
  });

  it.each([8, 12])("imports %i levels of schemas referring 8 times to the next one, small and fast", async (levels) => {
    const text = referenceChain(levels);
    expect(text.length).toBeLessThan(5_000);
    const started = performance.now();
    const document = await importOpenApi({ text });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(ImportedDocument.parse(document)).toEqual(document);
    const schema = document.operations[0]?.requestBody?.schema as { $defs: Record<string, unknown> };
    // Each shared schema once, referred to by name: linear in the document, not 8^levels.
    expect(Object.keys(schema.$defs)).toHaveLength(levels - 1);
    expect(schema).toMatchObject({ type: "object", properties: { p0: { $ref: "#/$defs/S1" } } });
    expect(schema.$defs.S1).toEqual({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, { $ref: "#/$defs/S2" }])),
    });
    expect(JSON.stringify(document).length).toBeLessThan(20 * text.length);
  });

  it("refuses non-schema references that would expand exponentially, before the validator sees them", async () => {
    const values: Record<string, unknown> = {};
    for (let level = 0; level < 30; level++) {
      values[`v${level}`] = { a: { $ref: `#/x-values/v${level + 1}` }, b: { $ref: `#/x-values/v${level + 1}` } };
    }
    values.v30 = "leaf";
    const text = JSON.stringify({
      ...JSON.parse(document30({ "/a": { get: { "x-data": { $ref: "#/x-values/v0" }, responses: ok } } })),
      "x-values": values,
    });
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toContain("JSON nodes");
  });

  it("stops an import past its time budget with a 422-class error", async () => {
    const error = await importError({ text: referenceChain(8) }, { budgetMs: 1 });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toContain("budget of 1 ms");
    // The next import gets a fresh worker and succeeds.
    expect((await importOpenApi({ text: referenceChain(3) })).operations).toHaveLength(1);
  });
});

describe("importOpenApi: bad input is a located 4xx, never a crash", () => {
  it.each([
    ["schemas", (depth: number) => `${'{"items":'.repeat(depth)}{}${"}".repeat(depth)}`],
    ["extensions", (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`],
  ])("refuses %s nested 5,000 levels deep, naming the limit", async (_kind, nested) => {
    // Built as text: the test's own JSON.stringify would overflow on such a value.
    const text = document30({
      "/a": {
        get: {
          "x-deep": "DEEP",
          responses: { "200": { description: "ok", content: { "application/json": { schema: "SCHEMA" } } } },
        },
      },
    })
      .replace('"DEEP"', nested(5_000))
      .replace('"SCHEMA"', nested(5_000));
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toContain(`more than ${maxDocumentDepth} levels deep`);
    expect(error.location?.line).toBe(1);
  });

  it("refuses YAML flow collections nested 20,000 levels deep as the nesting limit", async () => {
    const text = `openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      x-deep: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n      responses: {"200": {description: ok}}\n`;
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
    expect(error.message).toContain(`more than ${maxDocumentDepth} levels deep`);
  });

  it("refuses a $ref to an anchor, which would leave a schema that accepts anything", async () => {
    const text = document30({
      "/a": {
        post: {
          requestBody: { content: { "application/json": { schema: { $ref: "#pet" } } } },
          responses: ok,
        },
      },
    });
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("names an anchor");
    expect(error.location?.pointer).toBe("/paths/~1a/post/requestBody/content/application~1json/schema/$ref");
  });

  it("refuses a cycle of $refs between parameters, at the $ref", async () => {
    const text = document30(
      { "/a": { get: { parameters: [{ $ref: "#/components/parameters/A" }], responses: ok } } },
      { parameters: { A: { $ref: "#/components/parameters/B" }, B: { $ref: "#/components/parameters/A" } } },
    );
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("back to itself");
    expect(error.location?.pointer).toBe("/paths/~1a/get/parameters/0/$ref");
  });

  it.each(["https://example.invalid/meta#node", "other.json#node", "urn:example:node"])(
    "refuses $dynamicRef %s, at the keyword",
    async (ref) => {
      const text = JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/a": {
            post: { requestBody: { content: { "application/json": { schema: { $dynamicRef: ref } } } }, responses: ok },
          },
        },
      });
      const error = await importError({ text });
      expect(error.code).toBe("OPENAPI_EXTERNAL_REF");
      expect(error.location?.pointer).toBe("/paths/~1a/post/requestBody/content/application~1json/schema/$dynamicRef");
    },
  );

  it("refuses what the gateways' contract refuses (a parameter without a name), at the field", async () => {
    const text = document30({
      "/a": { get: { parameters: [{ name: "", in: "query", schema: { type: "string" } }], responses: ok } },
    });
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("'name' must be at least 1 character long");
    expect(error.location).toMatchObject({ pointer: "/paths/~1a/get/parameters/0/name", line: 1 });
  });

  it.each([
    ["C", { C: { allOf: [{ $ref: "#/components/schemas/C" }] } }],
    ["A", { A: { anyOf: [{ $ref: "#/components/schemas/B" }] }, B: { not: { $ref: "#/components/schemas/A" } } }],
  ])("refuses a schema that applies itself to the same value in a loop (%s)", async (name, schemas) => {
    const text = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          post: {
            requestBody: { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } },
            responses: ok,
          },
        },
      },
      components: { schemas },
    });
    const error = await importError({ text });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("applies itself to the same value in a loop");
    expect(error.location?.pointer).toMatch(/^\/components\/schemas\/[ABC]$/);
  });
});
