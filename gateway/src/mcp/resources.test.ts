/**
 * Resolving a resource URI: a fixed resource by its exact URI, a template's variables decoded
 * into the backend path; a URI whose variable does not decode (a malformed %-escape, a lone
 * surrogate) names nothing, as a URI no template matches, instead of throwing.
 */
import type { CompiledExposition } from "@atrium/contract";
import { describe, expect, it } from "vitest";
import { compileTemplates, resolveResource } from "./resources.ts";

const templates = compileTemplates([
  { uriTemplate: "pets://pet/{id}", name: "pet", fromBackend: { path: "/pets/{{id}}" } },
] as CompiledExposition["resourceTemplates"]);

describe("resolveResource", () => {
  it("fills the backend path with a template's decoded, re-encoded variables", () => {
    expect(resolveResource([], templates, "pets://pet/a%20b")).toEqual({
      kind: "backend",
      uri: "pets://pet/a%20b",
      mimeType: undefined,
      path: "/pets/a%20b",
    });
    expect(resolveResource([], templates, "pets://other/1")).toBeUndefined();
  });

  it("resolves nothing for a variable with a malformed %-escape or a lone surrogate", () => {
    for (const uri of ["pets://pet/%E0", "pets://pet/%", "pets://pet/%ED%A0%80", "pets://pet/\ud800"])
      expect(resolveResource([], templates, uri)).toBeUndefined();
  });
});
