/**
 * Every tool schema a gateway lists compiles in a strict JSON Schema 2020-12 validator: ajv's
 * `Ajv2020` with its default options (strict mode, Unicode-mode patterns) and ajv-formats, as
 * strict MCP clients compile them; a client that cannot compile one tool's schema may drop the
 * whole list. Over the OpenAPI documents the project imports in its tests (the importer's
 * fixtures, the gateway's and the conformance suite's backends, generated documents) and a
 * generated hostile set of patterns, which the importer rewrites or drops (unicode-pattern.ts).
 * The validator knows `x-mcp-header`, the tool-schema keyword MCP itself defines (SEP-2243).
 * A `format` ajv-formats does not know (the generated documents' `odd`) is dropped at import.
 * GraphQL tools too: the importer's store schema (recursive input objects, enums, custom scalars).
 */
import { readFileSync } from "node:fs";
import type { NormalizedOperation } from "@atrium/contract";
import { importGraphqlText, importOpenApi, storeSdl } from "@atrium/control-plane/testing";
import { fuzzParameters } from "@atrium/reliability/fuzz";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_OPENAPI } from "../../conformance/fixture.ts";
import { FIXTURE_OPENAPI } from "../testing.ts";
import { compileToolset } from "./compile.ts";
import { exposition } from "./fixtures.ts";
import type { JsonSchema } from "./mcp.ts";
import { validDocument } from "./openapi-arbitraries.ts";

const importerFixtures = new URL("../../../control-plane/src/openapi/fixtures/", import.meta.url);
const documents: Record<string, string> = {
  ...Object.fromEntries(
    ["petstore-2.0.yaml", "petstore-3.0.yaml", "petstore-3.1.json", "tree-3.0.yaml"].map((name) => [
      name,
      readFileSync(new URL(name, importerFixtures), "utf8"),
    ]),
  ),
  "gateway fixture backend": FIXTURE_OPENAPI,
  "conformance fixture backend": JSON.stringify(CONFORMANCE_OPENAPI),
};

/** The schemas a gateway lists for these operations and custom tools, each compiled by a strict Ajv2020. */
function strictCompileFailures(operations: NormalizedOperation[]) {
  const toolset = compileToolset(exposition({ operations }));
  expect(toolset.warnings).toEqual([]); // the gateway compiled each one as written, too
  const failures: string[] = [];
  for (const tool of toolset.tools) {
    for (const [use, schema] of [
      ["inputSchema", tool.inputSchema],
      ["outputSchema", tool.outputSchema],
    ] as const) {
      if (schema === undefined) continue;
      const ajv = new Ajv2020();
      ajvFormats.default(ajv);
      ajv.addKeyword("x-mcp-header");
      try {
        ajv.compile(schema as JsonSchema);
      } catch (error) {
        failures.push(`${tool.name} ${use}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { failures, tools: toolset.tools.length };
}

/** Pieces of patterns written for other dialects, or for none: joined at random. */
const patternPieces = fc.constantFrom(
  "a",
  "9",
  ".",
  "-",
  "_",
  "\\_",
  "\\#",
  "\\-",
  "\\@",
  "\\/",
  "\\.",
  "\\w",
  "\\d",
  "\\s",
  "[",
  "]",
  "[\\w-.]",
  "[a-z\\_\\-]",
  "[[:alpha:]]",
  "(",
  ")",
  "(?:",
  "(?!\\.)",
  "(?=a)",
  "(?<=a)",
  "(?>",
  "(?i)",
  "(?P<n>",
  "(?P=n)",
  "(?#c)",
  "+",
  "*",
  "?",
  "++",
  "{2}",
  "{1,3}",
  "{",
  "}",
  "|",
  "^",
  "$",
  "\\A",
  "\\z",
  "\\Z",
  "\\b",
  "\\Q.+\\E",
  "\\p{L}",
  "\\pL",
  "\\p{Greek}",
  "\\x{41}",
  "\\012",
  "\\k<n>",
  "\\G",
  "\\",
  "é",
);
const hostilePatterns = fc.array(patternPieces, { maxLength: 10 }).map((pieces) => pieces.join(""));

/** A 3.1 document whose one operation has `pattern` on a query parameter and as a patternProperties name of its body and answer. */
function withPatterns(pattern: string): string {
  const object = { type: "object", patternProperties: { [pattern]: { type: "string" } }, additionalProperties: false };
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "patterns", version: "1" },
    paths: {
      "/a": {
        post: {
          operationId: "a",
          parameters: [{ name: "q", in: "query", description: "q", schema: { type: "string", pattern } }],
          requestBody: { content: { "application/json": { schema: object } } },
          responses: { "200": { description: "ok", content: { "application/json": { schema: object } } } },
        },
      },
    },
  });
}

describe("tool schemas, compiled by a strict Ajv2020 as clients compile them", () => {
  it.each(Object.entries(documents))("%s: every inputSchema and outputSchema compiles", async (_name, text) => {
    const imported = await importOpenApi({ text });
    const { failures, tools } = strictCompileFailures(imported.operations);
    expect(failures).toEqual([]);
    expect(tools).toBe(imported.operations.length);
  });

  it("a GraphQL schema: every inputSchema and outputSchema compiles", () => {
    const imported = importGraphqlText(storeSdl);
    const { failures, tools } = strictCompileFailures(imported.operations);
    expect(failures).toEqual([]);
    expect(tools).toBe(imported.operations.length);
  });

  it("generated documents: every listed schema compiles", async () => {
    const { numRuns, seed } = fuzzParameters(100);
    await fc.assert(
      fc.asyncProperty(fc.oneof(validDocument("3.0"), validDocument("3.1")), async (document) => {
        const imported = await importOpenApi({ text: JSON.stringify(document) }).catch(() => undefined);
        if (imported === undefined) return; // refused with a coded error: the import fuzz test's business
        const { failures } = strictCompileFailures(imported.operations);
        expect(failures).toEqual([]);
      }),
      { numRuns, seed },
    );
  }, 120_000);

  it("hostile patterns are rewritten or dropped, never refused, and what is listed compiles", async () => {
    const { numRuns, seed } = fuzzParameters(200);
    const outcomes = { unchanged: 0, rewritten: 0, dropped: 0 };
    await fc.assert(
      fc.asyncProperty(hostilePatterns, async (pattern) => {
        const imported = await importOpenApi({ text: withPatterns(pattern) });
        expect(strictCompileFailures(imported.operations).failures).toEqual([]);
        const [operation] = imported.operations;
        const kept = operation?.parameters[0]?.schema.pattern;
        const codes = imported.warnings.map((warning) => warning.code);
        if (kept === pattern) {
          expect(codes).toEqual([]);
          outcomes.unchanged++;
        } else if (kept === undefined) {
          expect(codes).toContain("PATTERN_DROPPED");
          expect(operation?.parameters[0]?.description).toContain(
            `Not checked: the pattern ${JSON.stringify(pattern)}`,
          );
          outcomes.dropped++;
        } else {
          expect(codes).toContain("PATTERN_REWRITTEN");
          outcomes.rewritten++;
        }
      }),
      { numRuns, seed },
    );
    console.log(`hostile patterns: ${JSON.stringify(outcomes)}`);
    expect(outcomes.rewritten).toBeGreaterThan(0);
    expect(outcomes.dropped).toBeGreaterThan(0);
  }, 120_000);
});
