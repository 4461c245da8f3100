/**
 * The importer's result: an OpenAPI document's (or a GraphQL schema's) metadata, base URLs and
 * its normalized operations (whose shape is the wire contract's `NormalizedOperation`, the same
 * the gateways receive).
 */
import { NormalizedOperation } from "@atrium/contract";
import { importWarning } from "@atrium/contract/rest";
import { serviceKind } from "@atrium/crds";
import { z } from "zod";
import { graphqlSelectionSource } from "../graphql/output-types.ts";

export const ImportedDocument = z.object({
  /** Absent on Services imported before kinds existed: those are all `openapi`. */
  kind: serviceKind.optional(),
  /** The version string as found: `2.0`, `3.0.x` or `3.1.x`; absent for a GraphQL schema. */
  openapiVersion: z
    .string()
    .regex(/^(2\.0|3\.[01]\.\d+(-.+)?)$/)
    .optional(),
  title: z.string(),
  version: z.string(),
  description: z.string().optional(),
  /**
   * Base URLs of the API, absolute or relative (relative ones are resolved against the document's
   * URL when it was fetched). Server variables are replaced by their defaults. A 3.x document
   * without servers yields `["/"]`, as the specification says.
   */
  servers: z.array(z.string()),
  operations: z.array(NormalizedOperation),
  /** Each pattern the import rewrote or dropped so that every JSON Schema validator compiles it (json-schema.ts). */
  warnings: z.array(importWarning),
  /** kind graphql: what a plan's own selection depth is rebuilt from (graphql/plan-depth.ts); absent when imported before it. */
  graphql: graphqlSelectionSource.optional(),
  /** kind graphql: the schema as SDL, which custom tools' own documents are validated against (graphql/custom-tools.ts); absent when imported before it. */
  graphqlSchema: z.string().optional(),
});
export type ImportedDocument = z.infer<typeof ImportedDocument>;
