/**
 * SecretSource: reads keys of Kubernetes Secrets into encrypted backend secrets.
 */
import { z } from "zod";
import { condition, listMap, objectName, reconcileStatus, stringSet } from "../common.ts";
import { defineKind } from "../kind.ts";

export const secretSourceSpec = z
  .object({
    secretRefs: listMap(
      z
        .object({
          name: objectName.describe("Name of the Secret in the SecretSource's namespace."),
          keys: stringSet().min(1).describe("Keys of the Secret to read."),
        })
        .describe("A Secret and the keys to read from it."),
      "name",
    )
      .min(1)
      .describe("The Secrets to read; each gets one condition in status.conditions."),
  })
  .describe("Kubernetes Secrets whose keys become encrypted backend secrets in the control plane.");

export const secretSourceStatus = reconcileStatus
  .extend({
    conditions: listMap(condition, "type")
      .optional()
      .describe("One condition per referenced Secret, of type secret.atrium.dev/<secret name>."),
  })
  .describe("Observed state, written by the operator through the status subresource; one condition per Secret.");

export const SecretSource = defineKind({
  kind: "SecretSource",
  plural: "secretsources",
  shortNames: ["secsrc"],
  description: "Reads keys of Kubernetes Secrets and stores them, encrypted, as backend secrets.",
  spec: secretSourceSpec,
  status: secretSourceStatus,
});
