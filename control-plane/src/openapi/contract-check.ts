/**
 * The imported document checked with the very schema the gateways parse the change stream with
 * (`NormalizedOperation`, inside `compiledExposition`): what would make a gateway refuse the
 * stream message is refused here, at write time, with the place in the document to correct.
 * Nothing is repaired: every violation names its field and location.
 */
import type { z } from "zod";
import { contractViolation } from "./errors.ts";
import { ImportedDocument } from "./imported-document.ts";
import { childPointer } from "./json-pointer.ts";
import type { Locate } from "./locate.ts";
import type { OperationSites } from "./normalize.ts";

export function checkContract(document: ImportedDocument, sites: OperationSites[], locate: Locate): ImportedDocument {
  const result = ImportedDocument.safeParse(document);
  if (result.success) return document;
  const [issue] = result.error.issues;
  if (!issue) return document;
  const { field, pointer } = placeIssue(issue.path, sites);
  throw contractViolation(field, describeIssue(issue), locate(pointer));
}

/** From a path in the imported document to its field's name and its pointer in the submitted one. */
function placeIssue(path: PropertyKey[], sites: OperationSites[]): { field: string; pointer: string } {
  const field = path.length === 0 ? "the document" : `'${String(path.at(-1))}'`;
  if (path[0] !== "operations" || typeof path[1] !== "number") return { field, pointer: "" };
  const operation = sites[path[1]];
  if (!operation) return { field, pointer: "" };
  const [, , part, index, ...rest] = path;
  let pointer = operation.pointer;
  if (part === "parameters" && typeof index === "number") {
    pointer = operation.parameters[index] ?? pointer;
    if (rest[0] !== undefined) pointer = childPointer(pointer, String(rest[0]));
  } else if (part === "responses" && typeof index === "number") {
    pointer = operation.responses[index] ?? pointer;
  } else if (part === "requestBody") {
    pointer = operation.requestBody ?? pointer;
  } else if (part !== undefined) {
    pointer = childPointer(pointer, String(part));
  }
  return { field, pointer };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_small" && issue.origin === "string") {
    return `must be at least ${String(issue.minimum)} character${issue.minimum === 1 ? "" : "s"} long`;
  }
  return issue.message.replace(/^Invalid input: /, "is invalid: ");
}
