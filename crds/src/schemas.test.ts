/**
 * The Zod schemas as validators: every field documented, the samples accepted or refused with
 * an error on the field they name, and the rules shared with the API server.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { envReference, labelMap } from "./common.ts";
import { customResourceDefinition } from "./crd.ts";
import { serviceSpec } from "./kinds/service.ts";
import { kindNamed, kinds } from "./kinds.ts";
import { invalidSamples, validSamples } from "./samples.ts";
import type { JsonSchema } from "./structural.ts";

/** "spec.matchExpressions[0].operator", the way the API server writes field paths. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

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

  it.each(invalidSamples().map((sample) => [sample.file, sample] as const))(
    "%s is refused on its field",
    (_, sample) => {
      const result = kindNamed(sample.document.kind)?.resource.safeParse(sample.document);
      expect(result?.success).toBe(false);
      const paths = (result?.error?.issues ?? []).map((issue: z.core.$ZodIssue) => fieldPath(issue.path));
      // A value in a map is refused at its key, one level below the field the sample names.
      const expected = sample.expectedError;
      expect(paths.filter((path) => path === expected || path.startsWith(`${expected}.`))).not.toEqual([]);
    },
  );
});

describe("shared rules", () => {
  it("requires exactly one OpenAPI source", () => {
    const base = { version: "1.0.0" };
    expect(serviceSpec.safeParse({ ...base, openapi: {} }).error?.issues[0]?.message).toBe(
      "exactly one of inline, url, configMapRef must be set",
    );
    expect(serviceSpec.safeParse({ ...base, openapi: { url: "https://x.example/openapi.json" } }).success).toBe(true);
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
