import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parserValidatorStats, reuseParserValidators } from "./parser-validators.ts";

const responses = { "200": { description: "ok" } };
const info = { title: "t", version: "1" };
/** Per version, a valid document and one with a meta-schema violation (a wrong type, a missing member). */
const documents = {
  "2.0": [
    { swagger: "2.0", info, paths: { "/a": { get: { operationId: "a", responses } } } },
    { swagger: "2.0", info, paths: { "/a": { get: { operationId: "a", parameters: [{ name: "q", in: "body" }] } } } },
  ],
  "3.0": [
    { openapi: "3.0.3", info, paths: { "/a": { get: { operationId: "a", responses } } } },
    { openapi: "3.0.3", info: { title: "t", version: 1 }, paths: { "/a": { get: { responses: { "200": {} } } } } },
  ],
  "3.1": [
    { openapi: "3.1.0", info, paths: { "/a": { get: { operationId: "a", responses } } } },
    { openapi: "3.1.0", info, paths: { "/a": { get: { parameters: [{ name: "q", in: "nowhere" }], responses } } } },
  ],
};
const all = Object.values(documents).flat();

/** The parser's verdict on each document (it works in place: each call gets its own copy). */
function verdicts(): Promise<unknown[]> {
  return Promise.all(all.map((document) => validate(structuredClone(document) as Parameters<typeof validate>[0])));
}

describe("reuseParserValidators", () => {
  it("keeps the parser's verdicts and messages, compiling each version's meta-schema once", async () => {
    const uncached = await verdicts();
    expect(uncached.map((verdict) => (verdict as { valid: boolean }).valid)).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
    ]);

    reuseParserValidators();
    reuseParserValidators(); // idempotent: one wrapper, not two
    expect(await verdicts()).toEqual(uncached);
    expect(await verdicts()).toEqual(uncached);
    // One compilation per version; every later validation of any version reused it.
    expect(parserValidatorStats()).toEqual({ compiled: 3, reused: 2 * all.length - 3 });
  });

  it("leaves any other schema to ajv", () => {
    reuseParserValidators();
    const before = parserValidatorStats();
    const ajv = new Ajv2020();
    expect(ajv.validate({ type: "string" }, 1)).toBe(false);
    expect(ajv.errors?.[0]?.message).toBe("must be string");
    expect(ajv.validate({ type: "string" }, "one")).toBe(true);
    expect(parserValidatorStats()).toEqual(before);
  });
});
