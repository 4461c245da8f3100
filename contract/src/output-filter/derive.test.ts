import { describe, expect, it } from "vitest";
import { deriveOutputSchema } from "./derive.ts";

const order = {
  type: "object",
  required: ["id", "customer", "items"],
  properties: {
    id: { type: "integer" },
    customer: { $ref: "#/$defs/Customer" },
    items: { type: "array", minItems: 1, items: { $ref: "#/$defs/Item" } },
    status: { type: ["string", "null"] },
  },
  $defs: {
    Customer: {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, email: { type: "string" } },
    },
    Item: { type: "object", required: ["sku"], properties: { sku: { type: "string" }, qty: { type: "integer" } } },
  },
};

describe("deriveOutputSchema", () => {
  it("keeps the schemas of what retain keeps, required only when kept whole and required before", () => {
    const derived = deriveOutputSchema(order, { retain: ["/id", "/customer/name", "/items/*/sku", "/status"] });
    expect(derived).toEqual({
      schema: {
        type: "object",
        properties: {
          id: { type: "integer" },
          // A branch kept only when something under it is: required inside it, not in its parent.
          customer: {
            type: "object",
            properties: { name: { type: "string" } },
            additionalProperties: false,
            required: ["name"],
          },
          items: {
            type: "array",
            items: {
              type: "object",
              properties: { sku: { type: "string" } },
              additionalProperties: false,
              required: ["sku"],
            },
          },
          status: { type: ["string", "null"] },
        },
        additionalProperties: false,
        required: ["id"],
        $defs: order.$defs,
      },
    });
  });

  it("derives patches through plain properties", () => {
    const derived = deriveOutputSchema(order, {
      patches: [
        { op: "remove", path: "/status" },
        { op: "add", path: "/source", value: { system: "shop" } },
        { op: "move", from: "/id", path: "/orderId" },
        { op: "replace", path: "/customer/email", value: "hidden" },
      ],
    });
    expect("schema" in derived && derived.schema).toMatchObject({
      properties: {
        source: {
          type: "object",
          properties: { system: { const: "shop" } },
          required: ["system"],
          additionalProperties: false,
        },
        orderId: { type: "integer" },
        customer: { properties: { name: { type: "string" }, email: { const: "hidden" } }, required: ["name"] },
      },
    });
    const schema = "schema" in derived ? derived.schema : {};
    expect(Object.keys(schema.properties as object)).not.toContain("status");
    expect(Object.keys(schema.properties as object)).not.toContain("id");
    // A required member moved within its object always lands.
    expect(schema.required).toEqual(["customer", "items", "source", "orderId"]);
  });

  it("accepts the document as before the patches too when a test may fail", () => {
    const derived = deriveOutputSchema(order, {
      patches: [
        { op: "test", path: "/status", value: "open" },
        { op: "remove", path: "/id" },
      ],
    });
    expect("schema" in derived && derived.schema.anyOf).toHaveLength(2);
  });

  it("says why a patch cannot be derived", () => {
    expect(deriveOutputSchema(order, { patches: [{ op: "remove", path: "/items/0" }] })).toEqual({
      problem:
        "patches[0] (remove /items/0): the output schema has no plain object shape at '/items', so no outputSchema",
    });
    expect(deriveOutputSchema(order, { patches: [{ op: "replace", path: "", value: {} }] })).toEqual({
      problem: "patches[0] (replace ): it patches the whole document, so no outputSchema",
    });
  });
  it("derives no schema for a patch through __proto__, constructor or prototype, which the patch library does not follow", () => {
    const schema = { type: "object", properties: { a: { type: "integer" } } };
    for (const path of ["/__proto__", "/constructor/x", "/a/prototype/x"]) {
      const derived = deriveOutputSchema(schema, { patches: [{ op: "add", path, value: { polluted: 1 } }] });
      expect(derived).toMatchObject({ problem: expect.stringContaining("the patch library skips") });
    }
    const moved = deriveOutputSchema(schema, { patches: [{ op: "copy", from: "/__proto__", path: "/b" }] });
    expect(moved).toMatchObject({ problem: expect.stringContaining("the patch library skips") });
  });
  it("derives no schema, rather than exponentially many nodes, for pointers crossing a recursive schema", () => {
    const depth = 20;
    const retain = Array.from({ length: depth }, (_, k) => `${"/*".repeat(k)}/a${"/*".repeat(depth - k - 1)}/x${k}`);
    const node = {
      type: "object",
      properties: { a: { $ref: "#/$defs/N" } },
      additionalProperties: { $ref: "#/$defs/N" },
    };
    const derived = deriveOutputSchema({ ...node, $defs: { N: node } }, { retain });
    expect(derived).toEqual({ problem: expect.stringContaining("schema nodes, so no outputSchema") });
  });
});
