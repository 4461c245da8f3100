import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { exposition, toolsetOf } from "./fixtures.ts";
import { planCall, type ToolRuntime } from "./runtime.ts";
import type { CustomTool } from "./source.ts";

const custom: CustomTool = {
  name: "adopt_pet",
  title: "Adopt a pet",
  description: "Starts an adoption for a pet.",
  inputSchema: { type: "object", properties: { petId: { type: "integer" } }, required: ["petId"] },
  request: { method: "POST", path: "/adoptions", body: '{"pet": {{petId}}}' },
};
const { toolset, runtime } = toolsetOf(exposition({ mode: "Discovery", customTools: [custom] }));

describe("discovery mode", () => {
  it("lists exactly search_tools, describe_tool and invoke_tool", () => {
    expect(toolset.tools.map((t) => t.name)).toEqual(["search_tools", "describe_tool", "invoke_tool"]);
    expect(() => ListToolsResultSchema.parse({ tools: toolset.tools })).not.toThrow();
    expect(toolset.get("showPetById")).toBeUndefined();
    expect(runtime("search_tools").tool.description).toContain("Petstore (7 tools)");
    expect(runtime("search_tools").tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it("search_tools ranks name words first, then name and description matches", () => {
    const plan = planCall(runtime("search_tools"), { query: "pet photo" });
    expect(plan.result?.structuredContent).toEqual({
      tools: [
        { name: "uploadPetPhoto", title: "Upload a photo", description: "Upload a photo" },
        { name: "createPet", title: "Create a pet", description: "Create a pet" },
        {
          name: "showPetById",
          title: "Info for a specific pet",
          description: "Info for a specific pet\n\nReturns one pet, with its status.\n\nDeprecated.",
        },
        { name: "updatePet", description: "PUT /pets/{petId}" },
        { name: "deletePet", title: "Delete a pet", description: "Delete a pet" },
        { name: "adopt_pet", title: "Adopt a pet", description: "Starts an adoption for a pet." },
        { name: "listPets", title: "List all pets", description: "List all pets" },
      ],
      matches: 7,
    });
    expect(plan.result?.content).toEqual([{ type: "text", text: JSON.stringify(plan.result?.structuredContent) }]);
  });

  it("search_tools honours limit, lists in order for an empty query, finds nothing for unknown words", () => {
    const names = (args: unknown) => {
      const found = planCall(runtime("search_tools"), args).result?.structuredContent?.tools;
      return (found as { name: string }[] | undefined)?.map((t) => t.name);
    };
    expect(names({ query: "delete" })).toEqual(["deletePet"]);
    expect(names({ query: "adoption" })).toEqual(["adopt_pet"]);
    expect(names({ query: "", limit: 2 })).toEqual(["listPets", "createPet"]);
    expect(names({ query: "zebra" })).toEqual([]);
    expect(planCall(runtime("search_tools"), { query: "x", limit: 500 }).result).toEqual({
      content: [{ type: "text", text: "Invalid arguments:\n- limit: must be <= 50" }],
      isError: true,
    });
  });

  it("describe_tool gives the whole definition, or an error naming search_tools", () => {
    const described = planCall(runtime("describe_tool"), { name: "showPetById" }).result;
    expect(described?.structuredContent).toMatchObject({
      name: "showPetById",
      inputSchema: { type: "object", required: ["petId"] },
      outputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
    });
    expect(planCall(runtime("describe_tool"), { name: "nope" }).result).toEqual({
      content: [{ type: "text", text: 'No tool is named "nope". search_tools lists the tools.' }],
      isError: true,
    });
  });

  it("invoke_tool validates against the named tool and builds its request", () => {
    const invoke = runtime("invoke_tool");
    expect(invoke.validate({ name: "showPetById", arguments: { petId: "x" } })).toEqual([
      "arguments.petId: must be integer",
    ]);
    expect(invoke.validate({ name: "showPetById" })).toEqual(["arguments.petId: is required"]);
    expect(invoke.validate({ name: "showPetById", arguments: [] })).toEqual(["arguments: must be object"]);
    expect(invoke.validate({ name: "nope", arguments: {} })).toEqual([
      'name: no tool is named "nope"; search_tools lists the tools',
    ]);
    expect(invoke.validate({ arguments: {} })).toEqual(["name: is required"]);

    const plan = planCall(invoke, { name: "showPetById", arguments: { petId: 7, fields: ["name"] } });
    expect(plan.request).toEqual({
      method: "GET",
      path: "/pets/7?fields=name",
      headers: { accept: "application/json" },
    });
    expect(plan.runtime?.tool.name).toBe("showPetById");
    expect(invoke.buildRequest({ name: "adopt_pet", arguments: { petId: 3 } })).toMatchObject({ body: '{"pet": 3}' });
  });

  it("invoke_tool results are not held to the named tool's outputSchema (invoke_tool declares none)", () => {
    const plan = planCall(runtime("invoke_tool"), { name: "showPetById", arguments: { petId: 7 } });
    const result = plan.runtime?.toResult(
      { status: 200, headers: { "content-type": "application/json" }, body: Buffer.from('{"unexpected":true}') },
      { maxBytes: 1024 },
    );
    expect(result).toEqual({
      content: [{ type: "text", text: '{"unexpected":true}' }],
      structuredContent: { unexpected: true },
      _meta: { "dev.atrium/backendStatus": 200 },
    });
  });

  it("search and describe never call a backend", () => {
    expect(() => runtime("search_tools").buildRequest({ query: "x" })).toThrow(/answered by the gateway/);
  });
});

describe("planCall in per-operation mode", () => {
  const perOperation = compileToolset(exposition());

  it("returns a validation result or the request and the runtime that maps its response", () => {
    const show = perOperation.get("showPetById") as ToolRuntime;
    expect(planCall(show, { petId: -1 }).result).toEqual({
      content: [{ type: "text", text: "Invalid arguments:\n- petId: must be >= 1" }],
      isError: true,
    });
    const plan = planCall(show, { petId: 1 });
    expect(plan.request?.path).toBe("/pets/1");
    expect(plan.runtime).toBe(show);
    expect(planCall(perOperation.get("listPets") as ToolRuntime, undefined).request?.path).toBe("/pets");
  });
});
