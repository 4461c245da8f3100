/**
 * Property: for generated object schemas, documents valid against them and generated filters
 * (pointers and patches over the same keys, `*`, indexes and names that match nothing), the
 * filtered structuredContent is valid against the outputSchema derived through the filter, as a
 * strict Ajv2020 reads it — or the derivation says why there is none. Applying a filter never
 * throws.
 */
import { deriveOutputSchema } from "@atrium/contract/output-filter";
import { toolOutputFilter } from "@atrium/crds";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileDocumentFilter } from "./document.ts";

type Schema = Record<string, unknown>;
const KEYS = ["a", "b", "c", "d"] as const;

const leaf = fc.constantFrom<Schema>({ type: "integer" }, { type: "string" }, { type: ["string", "null"] });

const schemaOf = fc.letrec<{ object: Schema; member: Schema }>((tie) => ({
  object: fc
    .record({
      properties: fc.dictionary(fc.constantFrom(...KEYS), tie("member"), { maxKeys: 4 }),
      closed: fc.boolean(),
      requiredMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    })
    .map(({ properties, closed, requiredMask }) => {
      const required = Object.keys(properties).filter((_, index) => requiredMask[index]);
      return {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        ...(closed ? { additionalProperties: false } : {}),
      };
    }),
  member: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    tie("object"),
    tie("object").map((items) => ({ type: "array", items })),
    leaf.map((items) => ({ type: "array", items })),
  ),
}));

/** A document valid against `schema` (one of the shapes above). */
function documentOf(schema: Schema): fc.Arbitrary<unknown> {
  const type = schema.type;
  if (type === "integer") return fc.integer();
  if (type === "string") return fc.string({ maxLength: 5 });
  if (Array.isArray(type)) return fc.option(fc.string({ maxLength: 5 }), { nil: null });
  if (type === "array") return fc.array(documentOf(schema.items as Schema), { maxLength: 4 });
  const properties = schema.properties as Record<string, Schema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const members = Object.fromEntries(
    Object.entries(properties).map(([key, member]) => [
      key,
      required.has(key) ? documentOf(member) : fc.option(documentOf(member), { nil: undefined }),
    ]),
  );
  const extra =
    schema.additionalProperties === false ? fc.constant({}) : fc.option(fc.record({ x: fc.integer() }), { nil: {} });
  return fc.tuple(fc.record(members), extra).map(([kept, more]) => {
    const out: Record<string, unknown> = { ...more };
    for (const [key, value] of Object.entries(kept)) if (value !== undefined) out[key] = value;
    return out;
  });
}

const token = fc.constantFrom(...KEYS, "*", "0", "1", "x", "-");
const pointer = fc.array(token, { maxLength: 4 }).map((tokens) => tokens.map((t) => `/${t}`).join(""));
const path = fc.array(token, { minLength: 1, maxLength: 3 }).map((tokens) => tokens.map((t) => `/${t}`).join(""));
const value = fc.jsonValue({ maxDepth: 2 });
const patch = fc.oneof(
  fc.record({ op: fc.constant("remove"), path }),
  fc.record({ op: fc.constantFrom("add", "replace", "test"), path, value }),
  fc.record({ op: fc.constantFrom("move", "copy"), from: path, path }),
);
const filter = fc
  .record(
    {
      retain: fc.array(pointer, { maxLength: 5 }),
      patches: fc.array(patch, { maxLength: 4 }),
      format: fc.constantFrom("json", "toon"),
    },
    { requiredKeys: ["format"] },
  )
  .map((written) => toolOutputFilter.safeParse(written))
  .filter((parsed) => parsed.success)
  .map((parsed) => parsed.data as NonNullable<typeof parsed.data>);

const ajv = new Ajv2020({ strict: true });

describe("output filters (property)", () => {
  it("give results valid against the outputSchema derived through them", () => {
    fc.assert(
      fc.property(
        schemaOf.object.chain((schema) =>
          fc.tuple(fc.constant(schema), documentOf(schema) as fc.Arbitrary<Schema>, filter),
        ),
        ([schema, document, written]) => {
          expect(ajv.validate(schema, document)).toBe(true);
          const { structured, text } = compileDocumentFilter(written)(structuredClone(document));
          expect(typeof text).toBe("string");
          const derived = deriveOutputSchema(schema, written);
          if ("problem" in derived) return;
          expect(derived.schema.type).toBe("object");
          const valid = ajv.validate(derived.schema, structured);
          if (!valid)
            throw new Error(
              `not valid: ${ajv.errorsText()}\nschema ${JSON.stringify(derived.schema)}\nvalue ${JSON.stringify(structured)}`,
            );
        },
      ),
      { numRuns: 500 },
    );
  });
});
