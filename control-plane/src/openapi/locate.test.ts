import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineCounter, parseDocument } from "yaml";
import { childPointer } from "./json-pointer.ts";
import { textLocator } from "./locate.ts";

/** The locator from the YAML parser's positions, which JSON texts used to get (JSON is YAML). */
function yamlLocator(text: string) {
  const lineCounter = new LineCounter();
  return textLocator(text, { document: parseDocument(text, { lineCounter }), lineCounter });
}

/** Every pointer of `value`, and one below each leaf (reported at that leaf). */
function pointers(value: unknown, pointer = ""): string[] {
  if (value === null || typeof value !== "object") return [pointer, childPointer(pointer, "missing")];
  const children = Object.entries(value).flatMap(([key, child]) => pointers(child, childPointer(pointer, key)));
  return [pointer, childPointer(pointer, "missing"), ...children];
}

describe("textLocator on JSON", () => {
  it("places every node where the YAML parser places it, following $refs", () => {
    const document = {
      openapi: "3.0.3",
      "a/b~c": { 'é\\"': [1, { x: null }, [], {}], "": "empty key" },
      paths: { "/p": { get: { parameters: [{ $ref: "#/components/parameters/P" }] } } },
      components: { parameters: { P: { name: "q", schema: { $ref: "#/components/schemas/S" } } }, schemas: { S: {} } },
    };
    const through = ["/paths/~1p/get/parameters/0/name", "/paths/~1p/get/parameters/0/schema/type"];
    for (const text of [
      JSON.stringify(document),
      JSON.stringify(document, null, 2),
      JSON.stringify(document, null, "\t"),
    ]) {
      const json = textLocator(text, undefined);
      const yaml = yamlLocator(text);
      for (const pointer of [...pointers(document), ...through]) expect(json(pointer), pointer).toEqual(yaml(pointer));
    }
    // Through the $ref to where the referenced member is written.
    expect(textLocator(JSON.stringify(document, null, 2), undefined)(through[0] as string)).toMatchObject({
      line: 28,
      column: 9,
    });
  });

  it("agrees with the YAML parser on generated JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const json = textLocator(text, undefined);
        const yaml = yamlLocator(text);
        for (const pointer of pointers(value)) expect(json(pointer), pointer).toEqual(yaml(pointer));
      }),
      { numRuns: 300, seed: 20_261_124 },
    );
  });

  it("takes the last of duplicated keys, as JSON.parse does, and survives nesting deeper than the stack", () => {
    expect(textLocator('{"a": 1,\n "a": 2}', undefined)("/a")).toEqual({ pointer: "/a", line: 2, column: 2 });
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(textLocator(deep, undefined)(`/0`.repeat(100_000))).toMatchObject({ line: 1, column: 100_000 });
  });
});
