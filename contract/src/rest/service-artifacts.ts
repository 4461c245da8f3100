/**
 * CustomTools, Resources and Prompts: the CRD specs with the Service named by id, one route
 * collection per kind.
 */
import { customToolsSpec, promptsSpec, resourcesSpec, storedCustomToolsSpec } from "@atrium/crds";
import { z } from "zod";
import { recordName, timestamps } from "./records.ts";

export type ArtifactKind = "CustomTools" | "Resources" | "Prompts";

/** `stored`: the fields as records written under older rules may hold them, for the answers. */
function artifact<K extends ArtifactKind, P extends string, S extends z.ZodRawShape, V extends z.ZodRawShape>(
  kind: K,
  path: P,
  fields: z.ZodObject<S>,
  stored: z.ZodObject<V>,
) {
  const record = { name: recordName, serviceId: z.uuid() };
  const body = z.object({ ...fields.shape, ...record });
  return { kind, path, body, view: z.object({ ...stored.shape, ...record, id: z.string(), ...timestamps }) };
}

export const customToolsRecord = artifact(
  "CustomTools",
  "/custom-tools",
  customToolsSpec.omit({ serviceRef: true }),
  storedCustomToolsSpec.omit({ serviceRef: true }),
);
const resources = resourcesSpec.omit({ serviceRef: true });
export const resourcesRecord = artifact("Resources", "/resources", resources, resources);
const prompts = promptsSpec.omit({ serviceRef: true });
export const promptsRecord = artifact("Prompts", "/prompts", prompts, prompts);
export const artifactRecords = [customToolsRecord, resourcesRecord, promptsRecord] as const;
