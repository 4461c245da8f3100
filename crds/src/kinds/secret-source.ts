/**
 * SecretSource: reads keys of Kubernetes Secrets into encrypted backend secrets.
 */
import { z } from "zod";
import { condition, listMap, objectName, reconcileStatus, stringSet } from "../common.ts";
import { defineKind } from "../kind.ts";
import type { ZodOnlyRule } from "../rules.ts";

/** A key names one value of the SecretSource (a plan's `secretSourceRef.key`), so two Secrets cannot share it. */
const keysReadOnce: ZodOnlyRule = {
  whyNotCel: "comparing every Secret's keys with every other's exceeds the API server's CEL cost limit",
  violations: (spec) => {
    const found: { path: PropertyKey[]; message: string }[] = [];
    const readFrom = new Map<string, { index: number; secret: unknown }>();
    (Array.isArray(spec.secretRefs) ? spec.secretRefs : []).forEach(
      (ref: { name?: unknown; keys?: unknown }, index) => {
        (Array.isArray(ref?.keys) ? ref.keys : []).forEach((key: unknown, keyIndex) => {
          if (typeof key !== "string") return;
          const first = readFrom.get(key);
          if (first === undefined) {
            readFrom.set(key, { index, secret: ref.name });
          } else if (first.index !== index) {
            found.push({
              path: ["secretRefs", index, "keys", keyIndex],
              message:
                `key ${JSON.stringify(key)} is already read from Secret ${JSON.stringify(first.secret)} ` +
                `(secretRefs[${first.index}]): a key names one value of the SecretSource`,
            });
          }
        });
      },
    );
    return found;
  },
};

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
  rules: [keysReadOnce],
});
