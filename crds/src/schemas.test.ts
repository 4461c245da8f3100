/**
 * The Zod schemas as validators: every field documented, the valid samples accepted, and the
 * rules shared with the API server. (Invalid samples: validate.test.ts and the CLI's rulebook test.)
 */
import { describe, expect, it } from "vitest";
import { envReference, labelMap } from "./common.ts";
import { customResourceDefinition } from "./crd.ts";
import { serviceSpec } from "./kinds/service.ts";
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
      "exactly one of inline, url, configMapRef must be set",
    );
    expect(serviceSpec.safeParse({ ...base, openapi: { url: "https://x.example/openapi.json" } }).success).toBe(true);
  });

  it("takes the kinds openapi (the default) and graphql, and refuses grpc as not supported yet", () => {
    const base = { version: "1.0.0", openapi: { inline: "type Query { a: Int }" } };
    expect(serviceSpec.parse(base).kind).toBe("openapi");
    expect(serviceSpec.parse({ ...base, kind: "graphql" }).kind).toBe("graphql");
    expect(serviceSpec.safeParse({ ...base, kind: "grpc" }).error?.issues[0]?.message).toBe(
      '"grpc" is not a kind of Service: openapi or graphql (grpc is not supported yet)',
    );
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
