/**
 * CustomTools, Resources and Prompts: the CRD specs with the Service named by id, one route
 * collection per kind.
 */
import { customToolsSpec, promptsSpec, resourcesSpec } from "@atrium/crds";
import { z } from "zod";
import { recordName, timestamps } from "./records.ts";

export type ArtifactKind = "CustomTools" | "Resources" | "Prompts";

function artifact<K extends ArtifactKind, P extends string, S extends z.ZodRawShape>(
  kind: K,
  path: P,
  fields: z.ZodObject<S>,
) {
  const body = z.object({ ...fields.shape, name: recordName, serviceId: z.uuid() });
  return { kind, path, body, view: z.object({ ...body.shape, id: z.string(), ...timestamps }) };
}

export const customToolsRecord = artifact("CustomTools", "/custom-tools", customToolsSpec.omit({ serviceRef: true }));
export const resourcesRecord = artifact("Resources", "/resources", resourcesSpec.omit({ serviceRef: true }));
export const promptsRecord = artifact("Prompts", "/prompts", promptsSpec.omit({ serviceRef: true }));
export const artifactRecords = [customToolsRecord, resourcesRecord, promptsRecord] as const;
