import { buildSchema, introspectionFromSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { detectKind } from "./detect-kind.ts";
import { storeSdl } from "./test-schemas.ts";

describe("detectKind", () => {
  it("tells GraphQL SDL and introspection results from OpenAPI documents", () => {
    const introspection = introspectionFromSchema(buildSchema(storeSdl));
    expect(detectKind(storeSdl)).toBe("graphql");
    expect(detectKind("# the store\ntype Query { a: Int }")).toBe("graphql");
    expect(detectKind("extend type Query { a: Int }")).toBe("graphql");
    expect(detectKind(JSON.stringify(introspection))).toBe("graphql");
    expect(detectKind(JSON.stringify({ data: introspection }))).toBe("graphql");
    expect(detectKind('{"openapi": "3.1.0"}')).toBe("openapi");
    expect(detectKind("openapi: 3.1.0\ninfo: {title: t, version: '1'}\n")).toBe("openapi");
    expect(detectKind("{ not json")).toBe("openapi");
    expect(detectKind("types: [a]")).toBe("openapi");
  });
});
