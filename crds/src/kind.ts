/**
 * `defineKind` ties a kind's spec and status schemas to its Kubernetes names, giving both the
 * validator of a whole custom resource and what the CRD generator needs.
 */
import { z } from "zod";
import { objectName } from "./common.ts";
import { GROUP_VERSION } from "./group.ts";
import { type ObjectRule, withRules } from "./rules.ts";

/** The parts of `metadata` Atrium reads; the rest is the API server's business. */
export const objectMeta = z.looseObject({
  name: objectName,
  namespace: z.string().optional(),
  generation: z.number().int().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

export interface KindOptions<Kind extends string, Spec extends z.ZodObject, Status extends z.ZodObject> {
  kind: Kind;
  plural: string;
  shortNames: string[];
  description: string;
  spec: Spec;
  status: Status;
  /** Rules across fields of the spec, added after `keepOnDelete` (Zod cannot extend a refined object). */
  rules?: readonly ObjectRule[];
}

// Every kind may keep its control-plane record when the custom resource is deleted.
const keepOnDelete = z
  .boolean()
  .default(false)
  .describe("Keep the record in the control plane when this resource is deleted (default: delete it).");

export function defineKind<Kind extends string, Spec extends z.ZodObject, Status extends z.ZodObject>(
  options: KindOptions<Kind, Spec, Status>,
) {
  const { kind, status } = options;
  // Spelled out: TypeScript cannot follow `extend` on a generic object schema.
  const extended = options.spec
    .extend({ keepOnDelete })
    .describe(options.spec.description ?? kind) as unknown as z.ZodObject<
    Spec["shape"] & { keepOnDelete: typeof keepOnDelete }
  >;
  /** The spec with the kind's rules: what every entry point parses a custom resource's spec with. */
  const spec = withRules(extended, options.rules ?? []);
  const resource = z.object({
    apiVersion: z.literal(GROUP_VERSION),
    kind: z.literal(kind),
    metadata: objectMeta,
    spec,
    status: status.optional(),
  });
  return {
    ...options,
    spec,
    singular: kind.toLowerCase(),
    listKind: `${kind}List`,
    /** Where the printer column STATUS reads: `status.state` for the artifact kinds. */
    statusPath: "state" in status.shape ? ".status.state" : ".status.status",
    /** Validator of a whole custom resource (apiVersion, kind, metadata, spec, status). */
    resource,
  };
}

export type KindDefinition = ReturnType<typeof defineKind>;
