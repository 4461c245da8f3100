/**
 * Schemas as the importer stores them since issue 11: shared schemas are `$ref: "#/$defs/<Name>"`
 * with the definitions in each schema's own `$defs` (a name denotes one schema across an
 * operation). The gateway hoists them into the tool's inputSchema and validates arguments
 * against them, in per-operation and discovery mode alike; the SDK client compiles the
 * outputSchema.
 */
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { exposition, operation } from "./fixtures.ts";

/** Three levels, each referring twice to the next: what `referenceChain(3, 2)` imports to. */
const chainDefs = {
  S1: { type: "object", properties: { p0: { $ref: "#/$defs/S2" }, p1: { $ref: "#/$defs/S2" } } },
  S2: { type: "object", properties: { p0: { type: "string" }, p1: { type: "string" } }, additionalProperties: false },
};
const body = {
  type: "object",
  properties: { p0: { $ref: "#/$defs/S1" }, p1: { $ref: "#/$defs/S1" } },
  $defs: chainDefs,
};
const filter = { $ref: "#/$defs/S2", $defs: { S2: chainDefs.S2 } };

const putChain = operation({
  operationId: "putChain",
  method: "PUT",
  path: "/chains",
  parameters: [{ name: "filter", in: "query", required: false, schema: filter, contentType: "application/json" }],
  requestBody: { required: true, contentType: "application/json", schema: body },
  responses: [
    {
      status: "200",
      contentType: "application/json",
      schema: { type: "object", properties: { chain: { $ref: "#/$defs/S1" } }, $defs: chainDefs },
    },
  ],
});

describe("operation schemas with shared $defs", () => {
  it("hoists the definitions once into the inputSchema and validates arguments through them", () => {
    const toolset = compileToolset(exposition({ operations: [putChain] }));
    expect(toolset.warnings).toEqual([]);
    const tool = toolset.get("putChain");
    if (!tool) throw new Error("no tool putChain");
    expect(tool.tool.inputSchema.$defs).toEqual(chainDefs);
    expect(tool.tool.inputSchema.properties).toMatchObject({
      filter: { $ref: "#/$defs/S2" },
      body: { type: "object" },
    });
    expect(tool.validate({ body: { p0: { p1: { p0: "a" } } }, filter: { p0: "x" } })).toEqual([]);
    expect(tool.validate({ body: { p1: { p0: { p0: 7 } } } })).toEqual(["body.p1.p0.p0: must be string"]);
    expect(tool.validate({ body: {}, filter: { extra: "x" } })).toEqual(["filter.extra: is not expected"]);

    expect(() => ListToolsResultSchema.parse({ tools: toolset.tools })).not.toThrow();
    const client = new AjvJsonSchemaValidator();
    expect(() => client.getValidator(tool.tool.outputSchema as never)).not.toThrow();
    expect(() => client.getValidator(tool.tool.inputSchema as never)).not.toThrow();
  });

  it("validates the same way through invoke_tool in discovery mode", () => {
    const toolset = compileToolset(exposition({ operations: [putChain], mode: "Discovery" }));
    const invoke = toolset.get("invoke_tool");
    if (!invoke) throw new Error("no invoke_tool");
    expect(invoke.validate({ name: "putChain", arguments: { body: { p0: { p0: { p1: "a" } } } } })).toEqual([]);
    expect(invoke.validate({ name: "putChain", arguments: { body: { p0: { p0: { p1: 1 } } } } })).toEqual([
      "arguments.body.p0.p0.p1: must be string",
    ]);
  });
});

describe("multipart bodies with shared $defs", () => {
  it("sends a field whose schema is a shared binary definition as a file", () => {
    const upload = operation({
      operationId: "upload",
      method: "POST",
      path: "/upload",
      requestBody: {
        required: true,
        contentType: "multipart/form-data",
        schema: {
          type: "object",
          properties: { file: { $ref: "#/$defs/Binary" }, note: { type: "string" } },
          $defs: { Binary: { type: "string", format: "binary" } },
        },
      },
    });
    const tool = compileToolset(exposition({ operations: [upload] })).get("upload");
    if (!tool) throw new Error("no tool upload");
    const request = tool.buildRequest({ body: { file: "bytes", note: "n" } });
    expect(String(request.body)).toContain('name="file"; filename="file"');
    expect(String(request.body)).not.toContain('name="note"; filename');
  });
});
