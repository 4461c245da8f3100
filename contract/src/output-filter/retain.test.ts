import { describe, expect, it } from "vitest";
import { compileRetain, pointerTokens, retainDocument } from "./retain.ts";

const order = {
  id: 7,
  customer: { name: "Ada", email: "ada@example.com", "a/b": 1, "m~n": 2 },
  items: [{ sku: "pen", qty: 2, price: 1.5 }, { sku: "ink", qty: 1 }, { note: "gift" }],
  totals: { net: 4, tax: 0.8 },
};

const retain = (...pointers: string[]) => retainDocument(order, compileRetain(pointers));

describe("retain", () => {
  it("reads RFC 6901 tokens, ~1 and ~0 included", () => {
    expect(pointerTokens("")).toEqual([]);
    expect(pointerTokens("/a~1b/m~0n/~01")).toEqual(["a/b", "m~n", "~1"]);
    expect(retain("/customer/a~1b", "/customer/m~0n")).toEqual({ customer: { "a/b": 1, "m~n": 2 } });
  });

  it("keeps the branches named and drops the rest", () => {
    expect(retain("/id", "/customer/name")).toEqual({ id: 7, customer: { name: "Ada" } });
  });

  it("keeps the whole document for the empty pointer", () => {
    expect(retain("", "/id")).toEqual(order);
  });

  it("reads * as every array item or object member; items left with nothing are dropped", () => {
    expect(retain("/items/*/sku")).toEqual({ items: [{ sku: "pen" }, { sku: "ink" }] });
    expect(retain("/totals/*")).toEqual({ totals: order.totals });
    expect(retain("/*/name")).toEqual({ customer: { name: "Ada" } });
  });

  it("merges a literal index with *", () => {
    expect(retain("/items/*/sku", "/items/0/price")).toEqual({
      items: [{ sku: "pen", price: 1.5 }, { sku: "ink" }],
    });
    expect(retain("/items/2", "/items/0/qty", "/items/9")).toEqual({ items: [{ qty: 2 }, { note: "gift" }] });
  });

  it("keeps nothing for a pointer that matches nothing, and no error", () => {
    expect(retain("/missing", "/id/deeper", "/items/x", "/items/-")).toEqual({});
    expect(retain()).toEqual({});
  });

  it("keeps a member named __proto__ as a member", () => {
    const document = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as Record<string, unknown>;
    const kept = retainDocument(document, compileRetain(["/__proto__/x"]));
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect(JSON.stringify(kept)).toBe('{"__proto__":{"x":1}}');
  });
});
