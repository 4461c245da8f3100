/** Services: an OpenAPI document imported inline, from a URL or as an upload, and how one is shown. */
import { openApiSource, serviceSpec } from "@atrium/crds";
import { z } from "zod";
import { recordName, timestamps } from "./records.ts";

export const serviceBody = serviceSpec.pick({ version: true, description: true }).extend({
  name: recordName,
  openapi: openApiSource,
});
export type ServiceBody = z.input<typeof serviceBody>;
/** POST /services/import: the document is the body, the rest is in the query. */
export const serviceImportQuery = serviceSpec.pick({ version: true, description: true }).extend({ name: recordName });

export const operationSummary = z.object({
  operationId: z.string(),
  method: z.string(),
  path: z.string(),
  summary: z.string().optional(),
});
export type OperationSummary = z.output<typeof operationSummary>;
export const serviceView = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string().optional(),
  title: z.string(),
  openapiVersion: z.string(),
  servers: z.array(z.string()),
  operationCount: z.number(),
  ...timestamps,
});
export type ServiceView = z.output<typeof serviceView>;
export const serviceDetail = serviceView.extend({ operations: z.array(operationSummary) });
export type ServiceDetail = z.output<typeof serviceDetail>;
