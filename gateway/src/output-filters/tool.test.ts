/**
 * A plan's output filters on its compiled tools: the outputSchema listed (derived, or absent with
 * a warning), the filtered result of a backend answer, Discovery mode (describe_tool shows the
 * derived schema, invoke_tool's runtime filters), and what passes unchanged.
 */
import { importGraphqlText, storeSdl } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { exposition, toolsetOf } from "../tools/fixtures.ts";
import type { BackendResponse } from "../tools/result.ts";

const pet = { id: 7, name: "Rex", tag: "dog", status: "available" };
const answer = (body: unknown, status = 200): BackendResponse => ({
  status,
  headers: { "content-type": "application/json" },
  body: Buffer.from(JSON.stringify(body)),
});
const options = { maxBytes: 65_536 };

function filtered(filters: Record<string, unknown>, mode: "PerOperation" | "Discovery" = "PerOperation") {
  const compiled = exposition({ mode });
  compiled.plan.toolOutputFilters = filters as typeof compiled.plan.toolOutputFilters;
  return toolsetOf(compiled);
}

describe("output filters on compiled tools", () => {
  it("lists the derived outputSchema and filters the answer, checked against it", () => {
    const { runtime } = filtered({ showPetById: { retain: ["/name", "/status"], format: "json" } });
    const tool = runtime("showPetById");
    expect(tool.tool.outputSchema).toEqual({
      type: "object",
      properties: {
        name: { type: "string", minLength: 1 },
        status: { type: "string", enum: ["available", "pending", "sold"] },
      },
      additionalProperties: false,
      required: ["name"],
    });
    const response = answer(pet);
    const result = tool.outputFilter?.(tool.toResult(response, options), response);
    expect(result).toEqual({
      content: [{ type: "text", text: '{"name":"Rex","status":"available"}' }],
      structuredContent: { name: "Rex", status: "available" },
      _meta: { "dev.atrium/backendStatus": 200 },
    });
  });

  it("lists no outputSchema, with a warning, where a patch cannot be derived", () => {
    const { toolset, runtime } = filtered({
      showPetById: { patches: [{ op: "replace", path: "", value: { hidden: true } }], format: "json" },
      nope: { format: "toon" },
    });
    expect(runtime("showPetById").tool.outputSchema).toBeUndefined();
    expect(toolset.warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          "tool showPetById: output filter: patches[0] (replace ): it patches the whole document",
        ),
        "toolOutputFilters.nope: no such tool here, filter not used",
      ]),
    );
  });

  it("passes error results unchanged and does not pass on an answer it cannot read", () => {
    const { runtime } = filtered({ showPetById: { retain: ["/name"], format: "toon" } });
    const tool = runtime("showPetById");
    const missing = answer({ code: 404, message: "no pet 7" }, 404);
    const error = tool.toResult(missing, options);
    expect(tool.outputFilter?.(error, missing)).toBe(error);
    const cut = answer(pet);
    const refused = tool.outputFilter?.(tool.toResult(cut, { maxBytes: 10 }), cut);
    expect(refused?.isError).toBe(true);
    expect(JSON.stringify(refused)).not.toContain("dog");
  });

  it("filters an answer that breaks the tool's own outputSchema in branches the filter drops, never showing them", () => {
    const { runtime } = filtered({ showPetById: { retain: ["/name"], format: "json" } });
    const tool = runtime("showPetById");
    const response = answer({ id: "not-a-number", name: "Rex", tag: "secret-tag" });
    const result = tool.outputFilter?.(tool.toResult(response, options), response);
    expect(JSON.stringify(result)).not.toContain("secret-tag");
    expect(result?.structuredContent).toEqual({ name: "Rex" });
  });

  it("filters the partial data of a GraphQL answer with errors, keeping the errors", () => {
    const compiled = exposition({ operations: importGraphqlText(storeSdl).operations });
    compiled.plan.toolOutputFilters = { product: { retain: ["/product/name"], format: "json" } };
    const tool = toolsetOf(compiled).runtime("product");
    const product = { id: "p1", name: "Dune", price: 9.5, category: "BOOKS", createdAt: null, sku: "secret-sku" };
    const response = answer({
      data: { product },
      errors: [{ message: "reviews failed", path: ["product", "reviews"] }],
    });
    const result = tool.outputFilter?.(tool.toResult(response, options), response);
    expect(result?.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain("secret-sku");
    expect(JSON.stringify(result)).toContain("reviews failed");
    expect(JSON.stringify(result)).toContain("Dune");
  });

  it("does not show the body of a 2xx GraphQL answer it cannot read (over the size limit) past the filter", () => {
    const compiled = exposition({ operations: importGraphqlText(storeSdl).operations });
    compiled.plan.toolOutputFilters = { product: { retain: ["/product/name"], format: "json" } };
    const tool = toolsetOf(compiled).runtime("product");
    const response = answer({ data: { product: { sku: "secret-sku", name: "Dune", id: "p1".repeat(40) } } });
    const result = tool.outputFilter?.(tool.toResult(response, { maxBytes: 60 }), response);
    expect(result?.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain("secret-sku");
    expect(JSON.stringify(result)).toContain("not a GraphQL response");
  });

  it("shows the derived schema through describe_tool and filters invoke_tool's calls in Discovery mode", () => {
    const { runtime } = filtered({ showPetById: { retain: ["/name"], format: "json" } }, "Discovery");
    const described = runtime("describe_tool").local?.({ name: "showPetById" });
    expect(described?.kind === "result" && described.result.structuredContent?.outputSchema).toMatchObject({
      properties: { name: { type: "string" } },
      additionalProperties: false,
    });
    const invoked = runtime("invoke_tool").local?.({ name: "showPetById", arguments: { petId: 7 } });
    if (invoked?.kind !== "invoke") throw new Error("invoke_tool did not delegate");
    const response = answer(pet);
    const result = invoked.runtime.outputFilter?.(invoked.runtime.toResult(response, options), response);
    expect(result?.structuredContent).toEqual({ name: "Rex" });
  });

  it("leaves a tool without a filter as it was", () => {
    const plain = toolsetOf(exposition()).runtime("showPetById");
    const { runtime } = filtered({ createPet: { retain: ["/id"], format: "json" } });
    expect(runtime("showPetById").tool).toEqual(plain.tool);
    expect(runtime("showPetById").outputFilter).toBeUndefined();
  });
});
