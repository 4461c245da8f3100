/**
 * The ImportWarnings condition's message stays within what the API server stores (the CRD's
 * condition schema: at most 32,768 characters), however long the patterns its warnings quote.
 */
import { condition } from "@atrium/crds";
import { describe, expect, it } from "vitest";
import type { AtriumObject } from "../../kube/objects.ts";
import { importWarningsCondition } from "./import-warnings.ts";

const service = {
  apiVersion: "atrium.dev/v1alpha1",
  kind: "Service",
  metadata: { name: "long-patterns", namespace: "default", uid: "u-1", generation: 3 },
} as AtriumObject;

describe("importWarningsCondition", () => {
  it("cuts each quoted warning, so patterns of any length leave a message the API server stores", () => {
    const pattern = `^${"a\\_".repeat(20_000)}$`;
    const warning = {
      code: "PATTERN_REWRITTEN",
      message: `pattern ${JSON.stringify(pattern)} is written ${JSON.stringify(pattern.replaceAll("\\_", "_"))}`,
    };
    const written = importWarningsCondition(service, [warning, warning, warning, warning]);
    expect(written.message).toMatch(/^The import changed the document in 4 places .*PATTERN_REWRITTEN: pattern "\^a/);
    expect(written.message).toContain("…; PATTERN_REWRITTEN");
    const parsed = condition.safeParse({ ...written, lastTransitionTime: "2026-11-24T09:00:00Z" });
    expect(parsed.error?.issues).toBeUndefined();
  });

  it("quotes a short warning whole", () => {
    const warning = { code: "FORMAT_DROPPED", message: 'format "phone" at /paths/~1a/get/parameters/0/schema/format' };
    expect(importWarningsCondition(service, [warning]).message).toBe(
      `The import changed the document in 1 place so that every JSON Schema validator compiles its tools' schemas: FORMAT_DROPPED: ${warning.message}`,
    );
  });
});
