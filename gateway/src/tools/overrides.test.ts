import { encode } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { exposition } from "./fixtures.ts";
import { fitResult } from "./result-budget.ts";
import type { CompiledExposition } from "./source.ts";

type Overrides = NonNullable<CompiledExposition["plan"]["toolOverrides"]>;

function curated(toolOverrides: Overrides, fields: Partial<CompiledExposition["plan"]> = {}, mode?: "Discovery") {
  const compiled = exposition(mode ? { mode } : {});
  compiled.plan = { ...compiled.plan, toolOverrides, ...fields };
  return compileToolset(compiled);
}

describe("toolOverrides", () => {
  it("renames, retitles and describes a tool; hints given replace the tool's, the others stay", () => {
    const toolset = curated({
      showPetById: {
        name: "get_pet",
        title: "A pet",
        description: "One pet of the shop, by its id.",
        annotations: { openWorldHint: false },
      },
    });
    expect(toolset.get("showPetById")).toBeUndefined();
    const tool = toolset.get("get_pet")?.tool;
    expect(tool).toMatchObject({ name: "get_pet", title: "A pet", description: "One pet of the shop, by its id." });
    expect(tool?.annotations).toEqual({
      title: "A pet",
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(toolset.tools.map((t) => t.name)).toContain("get_pet");
  });

  it("removes a fixed argument from the schema, always sends it, and refuses a call that sets it", () => {
    const runtime = curated({ showPetById: { fixedArguments: { petId: 42 } } }).get("showPetById");
    if (!runtime) throw new Error("no tool");
    expect(runtime.tool.inputSchema.properties).not.toHaveProperty("petId");
    expect(runtime.tool.inputSchema.required).toBeUndefined();
    expect(runtime.validate({})).toEqual([]);
    expect(runtime.validate(undefined)).toEqual([]);
    expect(runtime.validate({ petId: 7 })).toEqual(["petId: is fixed by the plan and cannot be set; leave it out"]);
    expect(runtime.buildRequest({ fields: ["name"] }).path).toBe("/pets/42?fields=name");
    // Even a caller who gets past validation cannot override it.
    expect(runtime.buildRequest({ petId: 7 } as Record<string, unknown>).path).toBe("/pets/42");
  });

  it("applies in Discovery mode: search and invoke see the plan's names and fixed arguments", () => {
    const toolset = curated({ showPetById: { name: "get_pet", fixedArguments: { petId: 5 } } }, {}, "Discovery");
    const search = toolset.get("search_tools")?.local?.({ query: "get_pet" });
    expect(JSON.stringify(search)).toContain("get_pet");
    const invoke = toolset.get("invoke_tool");
    expect(invoke?.validate({ name: "get_pet", arguments: { petId: 1 } })).toEqual([
      "arguments.petId: is fixed by the plan and cannot be set; leave it out",
    ]);
    expect(invoke?.buildRequest({ name: "get_pet", arguments: {} }).path).toBe("/pets/5");
  });

  it("fails closed: unknown tools, colliding names and bad fixed arguments refuse the Exposition", () => {
    expect(() => curated({ nope: { title: "x" } })).toThrow(
      "toolOverrides names tools this Exposition does not have: nope",
    );
    expect(() => curated({ showPetById: { name: "listPets" } })).toThrow(
      "toolOverrides gives showPetById the name listPets, which listPets has too",
    );
    expect(() => curated({ showPetById: { fixedArguments: { owner: "me" } } })).toThrow(
      "names arguments the tool does not have: owner",
    );
    expect(() => curated({ showPetById: { fixedArguments: { petId: 0 } } })).toThrow(
      "toolOverrides.showPetById.fixedArguments do not match the tool's schema: petId: must be >= 1",
    );
  });

  it("gives each tool its budget: its own over the plan's; none without either", () => {
    const toolset = curated({ listPets: { maxResultBytes: 2048 } }, { maxResultBytes: 8192 });
    expect(toolset.get("listPets")?.budget?.maxBytes).toBe(2048);
    expect(toolset.get("showPetById")?.budget).toMatchObject({ maxBytes: 8192, outputSchema: { type: "object" } });
    expect(toolset.get("showPetById")?.budget?.validate?.({ id: 1, name: "Rex" })).toEqual([]);
    expect(curated({}).get("listPets")?.budget).toBeUndefined();
  });

  it("writes a trimmed result of a TOON-filtered tool in TOON again", () => {
    const toolset = curated({}, { maxResultBytes: 1024, toolOutputFilters: { listPets: { format: "toon" } } });
    const budget = toolset.get("listPets")?.budget;
    if (!budget) throw new Error("no budget");
    const pets = Array.from({ length: 200 }, (_, id) => ({ id, name: `pet ${id}` }));
    const value = { result: pets };
    const fitted = fitResult({ content: [{ type: "text", text: encode(value) }], structuredContent: value }, budget);
    expect(fitted.isError).toBeFalsy();
    expect(fitted.content[0]).toEqual({ type: "text", text: encode(fitted.structuredContent) });
  });
});
