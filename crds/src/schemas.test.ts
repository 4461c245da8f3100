/**
 * The Zod schemas as validators: every field documented, the valid samples accepted, and the
 * rules shared with the API server. (Invalid samples: validate.test.ts and the CLI's rulebook test.)
 */
import { describe, expect, it } from "vitest";
import { envReference, labelMap } from "./common.ts";
import { customResourceDefinition } from "./crd.ts";
import { Service, serviceSpec } from "./kinds/service.ts";
import { kindNamed, kinds } from "./kinds.ts";
import { validSamples } from "./samples.ts";
import type { JsonSchema } from "./structural.ts";

function undocumented(schema: JsonSchema, path: string): string[] {
  const missing = typeof schema.description === "string" && schema.description.length > 0 ? [] : [path];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const nested = Object.entries(properties).flatMap(([name, child]) => undocumented(child, `${path}.${name}`));
  // Scalar list items are described by their list; object items are fields of their own.
  const item = schema.items as JsonSchema | undefined;
  const items = item?.type === "object" ? undocumented(item, `${path}[]`) : [];
  return [...missing, ...nested, ...items];
}

describe("schemas", () => {
  it.each(kinds.map((kind) => [kind.kind, kind] as const))("%s documents every field", (_, kind) => {
    const root = customResourceDefinition(kind).spec.versions[0]?.schema.openAPIV3Schema;
    expect(undocumented(root?.properties.spec as JsonSchema, "spec")).toEqual([]);
    expect(undocumented(root?.properties.status as JsonSchema, "status")).toEqual([]);
  });

  it("has the eight kinds, Resources plural and no Resource", () => {
    expect(kinds.map((kind) => kind.kind)).toEqual([
      "Service",
      "GatewayGroup",
      "SecretSource",
      "ConfigurationPlan",
      "Exposition",
      "CustomTools",
      "Resources",
      "Prompts",
    ]);
    expect(kindNamed("Resource")).toBeUndefined();
  });
});

describe("samples", () => {
  const atriumSamples = validSamples().filter((sample) => sample.document.apiVersion.startsWith("atrium.dev/"));

  it("cover every kind", () => {
    expect(new Set(atriumSamples.map((sample) => sample.document.kind))).toEqual(
      new Set(kinds.map((kind) => kind.kind)),
    );
  });

  it.each(atriumSamples.map((sample) => [sample.file, sample] as const))("%s is valid", (_, sample) => {
    const kind = kindNamed(sample.document.kind);
    const result = kind?.resource.safeParse(sample.document);
    expect(result?.error?.issues ?? []).toEqual([]);
  });
});

describe("shared rules", () => {
  it("requires exactly one OpenAPI source", () => {
    const base = { version: "1.0.0" };
    expect(serviceSpec.safeParse({ ...base, openapi: {} }).error?.issues[0]?.message).toBe(
      "exactly one of inline, url, configMapRef, protoFiles must be set",
    );
    expect(serviceSpec.safeParse({ ...base, openapi: { url: "https://x.example/openapi.json" } }).success).toBe(true);
  });

  it("takes the kinds openapi (the default), graphql and grpc, and refuses any other", () => {
    const base = { version: "1.0.0", openapi: { inline: "type Query { a: Int }" } };
    expect(serviceSpec.parse(base).kind).toBe("openapi");
    expect(serviceSpec.parse({ ...base, kind: "graphql" }).kind).toBe("graphql");
    expect(serviceSpec.parse({ ...base, kind: "grpc" }).kind).toBe("grpc");
    expect(serviceSpec.safeParse({ ...base, kind: "soap" }).error?.issues[0]?.message).toBe(
      '"soap" is not a kind of Service: openapi, graphql or grpc',
    );
  });

  it("takes .proto files and grpc(s):// URLs for kind grpc only, and http(s) URLs for the others", () => {
    const files = [{ path: "pets/v1/pets.proto", content: 'syntax = "proto3";' }];
    // The rules across fields are the kind's (Service.spec: webhook, operator) and the REST body's.
    const grpc = (openapi: object) => Service.spec.safeParse({ version: "1", kind: "grpc", openapi });
    expect(grpc({ protoFiles: files }).success).toBe(true);
    expect(grpc({ url: "grpc://pets.internal:50051" }).success).toBe(true);
    expect(grpc({ url: "grpcs://pets.example" }).success).toBe(true);
    expect(grpc({ url: "https://pets.example/pets.proto" }).error?.issues[0]).toMatchObject({
      path: ["openapi", "url"],
      message: expect.stringContaining("grpc://host:port"),
    });
    expect(grpc({ url: "grpc://pets.internal:50051/v1" }).error?.issues[0]?.message).toContain("no path");
    expect(grpc({ url: "grpc://user:pw@pets.internal:50051" }).success).toBe(false);
    const openapi = Service.spec.safeParse({ version: "1", openapi: { protoFiles: files } });
    expect(openapi.error?.issues[0]).toMatchObject({
      path: ["openapi", "protoFiles"],
      message: "protoFiles are for kind grpc only",
    });
    expect(Service.spec.safeParse({ version: "1", openapi: { url: "grpc://pets.internal:1" } }).success).toBe(false);
    for (const path of ["/abs.proto", "../up.proto", "a/./b.proto", "a//b.proto", "notes.txt", "a b.proto"]) {
      expect(grpc({ protoFiles: [{ path, content: "" }] }).success, path).toBe(false);
    }
    expect(grpc({ protoFiles: [] }).success).toBe(false);
  });

  it("checks label keys and values", () => {
    expect(labelMap.safeParse({ "atrium.dev/zone": "eu-1", tier: "" }).success).toBe(true);
    expect(labelMap.safeParse({ "bad key": "x" }).success).toBe(false);
    expect(labelMap.safeParse({ tier: "has space" }).success).toBe(false);
    expect(labelMap.safeParse({ tier: "x".repeat(64) }).success).toBe(false);
  });

  it("accepts only ${env:VARIABLE} references", () => {
    expect(envReference.safeParse("${env:BACKEND_TOKEN}").success).toBe(true);
    for (const bad of ["${BACKEND_TOKEN}", "${env:1TOKEN}", "$env:TOKEN", "${env:TOKEN} extra"]) {
      expect(envReference.safeParse(bad).success, bad).toBe(false);
    }
  });
});
