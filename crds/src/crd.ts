/**
 * Builds the CustomResourceDefinition of a kind from its Zod schemas, and its YAML rendering.
 */
import { join } from "node:path";
import { stringify } from "yaml";
import { z } from "zod";
import { API_GROUP, API_VERSION } from "./group.ts";
import type { KindDefinition } from "./kind.ts";
import { type JsonSchema, toStructural } from "./structural.ts";

function structuralSchemaOf(schema: z.ZodType, path: string): JsonSchema {
  // io: "input" because defaulted fields are optional for whoever writes the resource.
  const json = z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "throw" });
  return toStructural(json as JsonSchema, path);
}

export function customResourceDefinition(kind: KindDefinition) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${kind.plural}.${API_GROUP}` },
    spec: {
      group: API_GROUP,
      scope: "Namespaced",
      names: {
        kind: kind.kind,
        listKind: kind.listKind,
        plural: kind.plural,
        singular: kind.singular,
        shortNames: kind.shortNames,
        categories: ["atrium"],
      },
      versions: [
        {
          name: API_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: "Status", type: "string", jsonPath: kind.statusPath, description: "Reconciliation state." },
            { name: "ID", type: "string", jsonPath: ".status.id", description: "Identifier in the control plane." },
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
          ],
          schema: {
            openAPIV3Schema: {
              type: "object",
              description: kind.description,
              properties: {
                apiVersion: { type: "string", description: "atrium.dev/v1alpha1" },
                kind: { type: "string", description: kind.kind },
                metadata: { type: "object" },
                spec: structuralSchemaOf(kind.spec, "spec"),
                status: structuralSchemaOf(kind.status, "status"),
              },
              required: ["spec"],
            },
          },
        },
      ],
    },
  };
}

export const GENERATED_HEADER =
  "# Generated from crds/src by `npm run generate`. Do not edit: change the Zod schemas.\n";

export function customResourceDefinitionYaml(kind: KindDefinition): string {
  return GENERATED_HEADER + stringify(customResourceDefinition(kind), { lineWidth: 0 });
}

export function generatedFileName(kind: KindDefinition): string {
  return `${kind.plural}.${API_GROUP}.yaml`;
}

/** crds/generated, where the committed CRD files live. */
export const generatedDir = join(import.meta.dirname, "..", "generated");
