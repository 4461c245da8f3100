import { describe, expect, it } from "vitest";
import { exposition, toolsetOf } from "./fixtures.ts";
import type { CustomTool } from "./source.ts";

const tools: CustomTool[] = [
  {
    name: "find_owner_pets",
    title: "Pets of an owner",
    description: "Lists the pets of one owner, optionally of one species.",
    inputSchema: {
      type: "object",
      properties: { owner: { type: "string" }, species: { type: "string" }, trace: { type: "string" } },
      required: ["owner"],
    },
    request: {
      method: "GET",
      path: "/owners/{{owner}}/pets",
      query: { species: "{{species}}", sort: "name asc", label: "owner-{{ owner }}" },
      headers: { "X-Trace": "{{trace}}", "X-Source": "mcp", "Content-Length": "1" },
    },
    annotations: { openWorldHint: false },
  },
  {
    name: "rename_pet",
    description: "Renames a pet.",
    inputSchema: {
      type: "object",
      properties: { id: { type: "integer" }, name: { type: "string" }, tags: { type: "array" } },
      required: ["id", "name"],
    },
    request: {
      method: "PATCH",
      path: "/pets/{{id}}",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: '{"id": {{id}}, "name": "{{name}}", "note": "renamed to {{name}} via MCP", "tags": {{tags}}}',
    },
  },
  { name: "ping", description: "Checks the backend.", request: { method: "GET", path: "/health?verbose" } },
];
const { runtime } = toolsetOf(exposition({ operations: [], customTools: tools }));

describe("custom tools", () => {
  it("publish their declared definition; annotations start from the method", () => {
    expect(runtime("find_owner_pets").tool).toEqual({
      name: "find_owner_pets",
      title: "Pets of an owner",
      description: "Lists the pets of one owner, optionally of one species.",
      inputSchema: tools[0]?.inputSchema,
      annotations: {
        title: "Pets of an owner",
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      },
    });
    expect(runtime("ping").tool.inputSchema).toEqual({ type: "object", properties: {} });
    expect(runtime("rename_pet").tool.annotations).toEqual({ readOnlyHint: false, openWorldHint: true });
  });

  it("URL-encode placeholders in path and query and leave out what has no value", () => {
    const find = runtime("find_owner_pets");
    expect(find.validate({ owner: "ann/../admin" })).toEqual([]);
    expect(find.buildRequest({ owner: "ann/../admin", species: "cat & dog" })).toEqual({
      method: "GET",
      path: "/owners/ann%2F..%2Fadmin/pets?species=cat%20%26%20dog&sort=name%20asc&label=owner-ann%2F..%2Fadmin",
      headers: { "x-source": "mcp" },
    });
    expect(find.buildRequest({ owner: "ann", trace: "t-1\r\nX-Evil: 1" })).toEqual({
      method: "GET",
      path: "/owners/ann/pets?sort=name%20asc&label=owner-ann",
      headers: { "x-trace": "t-1%0D%0AX-Evil: 1", "x-source": "mcp" },
    });
  });

  it("refuse path values that make a dot or empty segment", () => {
    expect(runtime("find_owner_pets").validate({ owner: ".." })).toEqual([
      'owner: must not be ".." (it would leave the API\'s path)',
    ]);
    expect(runtime("find_owner_pets").validate({ owner: "" })).toEqual([
      "owner: must not be empty (it is a path segment)",
    ]);
    expect(runtime("find_owner_pets").validate({})).toEqual(["owner: is required"]);
  });

  it("JSON-encode body placeholders, as string content inside string literals", () => {
    const request = runtime("rename_pet").buildRequest({ id: 4, name: 'Rex "the dog"' });
    expect(request).toEqual({
      method: "PATCH",
      path: "/pets/4",
      headers: {},
      body: '{"id": 4, "name": "Rex \\"the dog\\"", "note": "renamed to Rex \\"the dog\\" via MCP", "tags": null}',
      contentType: "application/merge-patch+json",
    });
    expect(JSON.parse(request.body as string)).toEqual({
      id: 4,
      name: 'Rex "the dog"',
      note: 'renamed to Rex "the dog" via MCP',
      tags: null,
    });
    expect(
      JSON.parse(runtime("rename_pet").buildRequest({ id: 1, name: "a", tags: ["x", 1] }).body as string).tags,
    ).toEqual(["x", 1]);
  });

  it("take a path's literal text as written, a ? included", () => {
    expect(runtime("ping").buildRequest({}).path).toBe("/health%3Fverbose");
  });
});
