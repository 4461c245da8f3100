/**
 * completion/complete over an Exposition: a prompt argument's listed values, a template variable's
 * values from the schema of the operation parameter it fills (path or query), filtered by prefix.
 */
import type { CompiledExposition } from "@atrium/contract";
import { describe, expect, it } from "vitest";
import { complete, offersCompletions } from "./completion.ts";
import { invalidParamsMessage } from "./testing.ts";

const operation = (method: string, path: string, parameters: unknown[]) =>
  ({ operationId: `${method} ${path}`, method, path, parameters, responses: [] }) as unknown;

const exposition = {
  prompts: [
    {
      name: "adopt",
      arguments: [
        { name: "species", required: true, values: ["cat", "dog", "Canary"] },
        { name: "free", required: false },
      ],
      messages: [{ role: "user", text: "A {{species}}" }],
    },
  ],
  resourceTemplates: [
    { name: "pet", uriTemplate: "pets://{kind}/{id}", fromBackend: { path: "/pets/{{kind}}/{{id}}" } },
    { name: "by-status", uriTemplate: "pets://status/{status}", fromBackend: { path: "/pets?status={{status}}" } },
  ],
  service: {
    operations: [
      operation("GET", "/pets/{kind}/{petId}", [
        { name: "kind", in: "path", required: true, schema: { type: "string", enum: ["cat", "dog"] } },
        { name: "petId", in: "path", required: true, schema: { type: "integer", examples: [7, 12], example: 7 } },
      ]),
      // Not a read: never the source of a resource's values.
      operation("DELETE", "/pets/{kind}/{petId}", [
        { name: "kind", in: "path", required: true, schema: { type: "string", enum: ["wolf"] } },
      ]),
      operation("GET", "/pets", [
        { name: "status", in: "query", required: false, schema: { type: "string", enum: ["available", "sold"] } },
      ]),
    ],
  },
} as unknown as CompiledExposition;

const values = (ref: Record<string, unknown>, name: string, value: string) =>
  complete(exposition, { ref, argument: { name, value } }, 200).completion;

describe("completion/complete", () => {
  it("suggests a prompt argument's listed values that start with what was typed, in any case", () => {
    expect(values({ type: "ref/prompt", name: "adopt" }, "species", "c")).toEqual({
      values: ["cat", "Canary"],
      total: 2,
      hasMore: false,
    });
    expect(values({ type: "ref/prompt", name: "adopt" }, "species", "").values).toEqual(["cat", "dog", "Canary"]);
    expect(values({ type: "ref/prompt", name: "adopt" }, "free", "x").values).toEqual([]);
  });

  it("suggests a template variable's values from the enum, examples and example of the operation parameter it fills", () => {
    expect(values({ type: "ref/resource", uri: "pets://{kind}/{id}" }, "kind", "").values).toEqual(["cat", "dog"]);
    expect(values({ type: "ref/resource", uri: "pets://{kind}/{id}" }, "id", "1").values).toEqual(["12"]);
    expect(values({ type: "ref/resource", uri: "pets://status/{status}" }, "status", "s").values).toEqual(["sold"]);
  });

  it("refuses an unknown prompt, template, argument or variable, and a malformed request, as invalid params", () => {
    const refusal = (params: Record<string, unknown>) => invalidParamsMessage(() => complete(exposition, params, 400));
    const argument = { name: "species", value: "" };
    expect(refusal({ ref: { type: "ref/prompt", name: "nope" }, argument })).toBe("Unknown prompt: nope");
    expect(refusal({ ref: { type: "ref/prompt", name: "adopt" }, argument: { name: "x", value: "" } })).toBe(
      "Prompt adopt has no argument x",
    );
    expect(refusal({ ref: { type: "ref/resource", uri: "pets://{x}" }, argument })).toBe(
      "Unknown resource template: pets://{x}",
    );
    expect(refusal({ ref: { type: "ref/resource", uri: "pets://{kind}/{id}" }, argument })).toBe(
      "Resource template pets://{kind}/{id} has no variable species",
    );
    expect(refusal({ ref: { type: "ref/tool", name: "x" }, argument })).toMatch(/params\.ref must be/);
    expect(refusal({ ref: { type: "ref/prompt", name: "adopt" }, argument: { name: "species" } })).toMatch(
      /params\.argument must be/,
    );
  });

  it("is offered only by an Exposition with something to complete", () => {
    expect(offersCompletions(exposition)).toBe(true);
    const bare = { ...exposition, resourceTemplates: [], prompts: [{ ...exposition.prompts[0], arguments: [] }] };
    expect(offersCompletions(bare as CompiledExposition)).toBe(false);
  });
});
