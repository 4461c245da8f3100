import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { compileToolset } from "./compile.ts";
import { exposition, operation, petstore } from "./fixtures.ts";
import type { CustomTool } from "./source.ts";

const toolset = compileToolset(exposition());
const tool = (name: string) => {
  const runtime = toolset.get(name);
  if (!runtime) throw new Error(`no tool ${name}`);
  return runtime;
};

describe("compileToolset: one tool per operation", () => {
  it("lists the operations in document order, named after their operationIds", () => {
    expect(toolset.tools.map((t) => t.name)).toEqual([
      "listPets",
      "createPet",
      "showPetById",
      "updatePet",
      "deletePet",
      "uploadPetPhoto",
    ]);
    expect(toolset.warnings).toEqual([]);
    expect(toolset.get("nope")).toBeUndefined();
  });

  it("passes the official SDK's Tool schema, and its client compiles every outputSchema", () => {
    expect(() => ListToolsResultSchema.parse({ tools: toolset.tools })).not.toThrow();
    const clientValidator = new AjvJsonSchemaValidator();
    for (const t of toolset.tools)
      if (t.outputSchema) expect(() => clientValidator.getValidator(t.outputSchema as never)).not.toThrow();
  });

  it("builds the description from summary and description, Deprecated. last; title from summary", () => {
    const show = tool("showPetById").tool;
    expect(show.description).toBe("Info for a specific pet\n\nReturns one pet, with its status.\n\nDeprecated.");
    expect(show.title).toBe("Info for a specific pet");
    expect(show.annotations?.title).toBe("Info for a specific pet");
    expect(tool("updatePet").tool.description).toBe("PUT /pets/{petId}");
    expect(tool("updatePet").tool.title).toBeUndefined();
  });

  it("puts path, query and header parameters and the body in the inputSchema; cookies are left out", () => {
    expect(tool("showPetById").tool.inputSchema).toEqual({
      type: "object",
      properties: {
        petId: { type: "integer", minimum: 1, description: "The id of the pet" },
        fields: { type: "array", items: { type: "string" } },
        "X-Trace": { type: "string" },
      },
      required: ["petId"],
      additionalProperties: false,
    });
    expect(Object.keys(tool("listPets").tool.inputSchema.properties as object)).toEqual(["limit", "tags", "filter"]);
    const create = tool("createPet").tool.inputSchema;
    expect(create.required).toEqual(["body"]);
    expect(create.properties).toMatchObject({
      body: { type: "object", required: ["name"], description: "The pet to create" },
    });
  });

  it("publishes an outputSchema only for a first 2xx JSON response whose root is an object", () => {
    expect(tool("showPetById").tool.outputSchema).toMatchObject({ type: "object", required: ["id", "name"] });
    expect(tool("createPet").tool.outputSchema).toMatchObject({ type: "object" });
    expect(tool("listPets").tool.outputSchema).toBeUndefined(); // array root
    expect(tool("deletePet").tool.outputSchema).toBeUndefined(); // no body
    expect(tool("uploadPetPhoto").tool.outputSchema).toBeUndefined(); // not JSON
  });

  it("derives annotations from the method, overridden by x-mcp-annotations", () => {
    expect(tool("listPets").tool.annotations).toEqual({
      title: "List all pets",
      readOnlyHint: true,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(tool("createPet").tool.annotations).toEqual({
      title: "Create a pet",
      readOnlyHint: false,
      openWorldHint: true,
    });
    expect(tool("updatePet").tool.annotations).toEqual({
      readOnlyHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool("deletePet").tool.annotations).toEqual({
      title: "Delete a pet",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    // POST made idempotent and non-destructive by the API's author; unknown keys ignored
    expect(tool("uploadPetPhoto").tool.annotations).toEqual({
      title: "Upload a photo",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });
});

describe("compileToolset: members named __proto__ (found by the import fuzz test)", () => {
  it("renames a parameter named __proto__ (validators ignore that name), and keeps it an own property in the body", () => {
    const box = { type: "object", properties: { size: { type: "integer" } }, required: ["size"] };
    const op = operation({
      operationId: "pack",
      method: "POST",
      path: "/boxes",
      parameters: [{ name: "__proto__", in: "query", required: true, schema: box }],
      requestBody: {
        required: true,
        contentType: "application/json",
        schema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
      },
    });
    const compiled = compileToolset(exposition({ operations: [op] }));
    expect(compiled.warnings).toEqual([]);
    const runtime = compiled.get("pack");
    const input = runtime?.tool.inputSchema as unknown as { properties: Record<string, { properties?: object }> };
    expect(Object.keys(input.properties)).toEqual(["query___proto__", "body"]);
    expect(Object.keys(input.properties.body?.properties ?? {})).toEqual(["__proto__"]);
    expect(runtime?.validate({ query___proto__: { size: 1 }, body: {} })).toEqual([]);
    expect(runtime?.validate({ query___proto__: { size: "big" }, body: {} })).toEqual([
      "query___proto__.size: must be integer",
    ]);
    expect(runtime?.buildRequest({ query___proto__: { size: 1 }, body: {} }).path).toBe("/boxes?size=1");
  });
});

describe("compileToolset: names", () => {
  it("makes operationIds valid and unique in document order", () => {
    const names = compileToolset(
      exposition({
        operations: [
          operation({ operationId: "get pets/{id}", method: "GET", path: "/a" }),
          operation({ operationId: "get_pets__id_", method: "GET", path: "/b" }),
          operation({ operationId: "get pets/{id}", method: "GET", path: "/c" }),
          operation({ operationId: "x".repeat(200), method: "GET", path: "/d" }),
          operation({ operationId: "x".repeat(130), method: "GET", path: "/e" }),
          operation({ operationId: "ünïcødé", method: "GET", path: "/f" }),
        ],
      }),
    ).tools.map((t) => t.name);
    expect(names).toEqual([
      "get_pets__id_",
      "get_pets__id__2",
      "get_pets__id__3",
      "x".repeat(128),
      `${"x".repeat(126)}_2`,
      "_n_c_d_",
    ]);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
  });

  it("gives a custom tool its declared name; the operation it collides with gets a suffix", () => {
    const custom: CustomTool = {
      name: "listPets",
      description: "Pets, the way support likes them",
      request: { method: "GET", path: "/pets", query: { sort: "name" } },
    };
    const set = compileToolset(exposition({ customTools: [custom] }));
    expect(set.tools.map((t) => t.name)).toEqual([
      "listPets_2",
      "createPet",
      "showPetById",
      "updatePet",
      "deletePet",
      "uploadPetPhoto",
      "listPets",
    ]);
    expect(set.get("listPets")?.tool.description).toBe("Pets, the way support likes them");
    expect(set.get("listPets_2")?.tool.title).toBe("List all pets");
  });
});

describe("compileToolset: argument names", () => {
  const notes = operation({
    operationId: "addNote",
    method: "POST",
    path: "/owners/{id}/notes",
    parameters: [
      { name: "id", in: "query", required: false, schema: { type: "string" } },
      { name: "id", in: "header", required: false, schema: { type: "string" } },
      { name: "body", in: "query", required: true, schema: { type: "string" } },
      { name: "query_id", in: "query", required: false, schema: { type: "integer" } },
      { name: "filter[name]", in: "query", required: false, schema: { type: "string" } },
      { name: "Authorization", in: "header", required: true, schema: { type: "string" } },
      { name: "id", in: "path", required: true, schema: { type: "integer" } },
    ],
    requestBody: { required: false, contentType: "application/json", schema: { type: "object" } },
  });
  const runtime = compileToolset(exposition({ operations: [notes] })).get("addNote");

  it("keeps the first name in path, query, header order and prefixes the others with their location", () => {
    expect(Object.keys(runtime?.tool.inputSchema.properties as object)).toEqual([
      "id",
      "query_id",
      "query_body",
      "query_query_id",
      "filter_name_",
      "header_id",
      "body",
    ]);
    expect(runtime?.tool.inputSchema.required).toEqual(["id", "query_body"]);
    expect(runtime?.tool.inputSchema.properties).toMatchObject({
      query_id: { description: '(query parameter "id")' },
      filter_name_: { description: '(query parameter "filter[name]")' },
    });
  });

  it("maps every argument back to its own parameter", () => {
    expect(
      runtime?.buildRequest({
        id: 7,
        query_id: "q",
        query_body: "text",
        query_query_id: 3,
        filter_name_: "rex",
        header_id: "h",
        body: { note: "hi" },
      }),
    ).toEqual({
      method: "POST",
      path: "/owners/7/notes?id=q&body=text&query_id=3&filter%5Bname%5D=rex",
      headers: { id: "h" },
      body: '{"note":"hi"}',
      contentType: "application/json",
    });
  });
});

describe("compileToolset: schemas that do not compile", () => {
  it("keeps going: a bad pattern is dropped, an uncompilable schema only checks for an object", () => {
    const set = compileToolset(
      exposition({
        operations: [
          operation({
            operationId: "badPattern",
            method: "GET",
            path: "/a",
            parameters: [
              { name: "code", in: "query", required: true, schema: { type: "string", pattern: "[\\w-.]+(" } },
            ],
          }),
          operation({
            operationId: "danglingRef",
            method: "GET",
            path: "/b",
            parameters: [{ name: "x", in: "query", required: true, schema: { $ref: "#/$defs/Missing" } }],
            responses: [
              {
                status: "200",
                contentType: "application/json",
                schema: { type: "object", properties: { a: { $ref: "#/$defs/Gone" } } },
              },
            ],
          }),
          operation({
            operationId: "openApi30Leftovers",
            method: "POST",
            path: "/c",
            requestBody: {
              required: true,
              contentType: "application/json",
              schema: {
                type: "object",
                discriminator: { propertyName: "kind" },
                xml: { name: "Thing" },
                properties: {
                  kind: { type: "string", nullable: true, example: "cat" },
                  when: { nullable: true },
                  example: { type: "integer" },
                },
                required: true,
              },
            },
          }),
        ],
      }),
    );
    expect(set.tools.map((t) => t.name)).toEqual(["badPattern", "danglingRef", "openApi30Leftovers"]);
    expect(set.warnings).toEqual([
      expect.stringMatching(/^tool badPattern \(GET \/a\): schema compiled without its patterns/),
      expect.stringMatching(/^tool danglingRef output schema: schema not compiled .*left out$/),
      expect.stringMatching(/^tool danglingRef \(GET \/b\): schema not compiled .*only checking for an object$/),
    ]);
    expect(set.get("badPattern")?.validate({})).toEqual(["code: is required"]);
    expect(set.get("danglingRef")?.validate({ anything: 1 })).toEqual([]);
    expect(set.get("danglingRef")?.validate([])).toEqual(["arguments: must be object"]);
    expect(set.get("danglingRef")?.tool.outputSchema).toBeUndefined();
    const leftovers = set.get("openApi30Leftovers");
    expect(leftovers?.tool.inputSchema.properties).toEqual({
      body: {
        type: "object",
        properties: {
          kind: { type: ["string", "null"], examples: ["cat"] },
          when: {},
          example: { type: "integer" },
        },
      },
    });
    expect(leftovers?.validate({ body: { kind: null, example: 1 } })).toEqual([]);
    expect(leftovers?.validate({ body: { kind: 3 } })).toEqual(["body.kind: must be string,null"]);
  });

  it("compiles a format ajv-formats does not know, stored before the import dropped such formats, ignoring it", () => {
    const phone = { name: "phone", in: "query", required: true, schema: { type: "string", format: "phone" } } as const;
    const set = compileToolset(
      exposition({ operations: [operation({ operationId: "call", method: "GET", path: "/a", parameters: [phone] })] }),
    );
    expect(set.warnings).toEqual([]);
    expect(set.get("call")?.tool.inputSchema.properties).toEqual({ phone: { type: "string", format: "phone" } });
    expect(set.get("call")?.validate({ phone: "+1 555" })).toEqual([]);
    expect(set.get("call")?.validate({ phone: 5 })).toEqual(["phone: must be string"]);
  });

  it("does not require readOnly properties in requests nor writeOnly ones in responses", () => {
    const op = operation({
      operationId: "putUser",
      method: "PUT",
      path: "/users/me",
      requestBody: {
        required: true,
        contentType: "application/json",
        schema: {
          type: "object",
          required: ["id", "password"],
          properties: { id: { type: "integer", readOnly: true }, password: { type: "string", writeOnly: true } },
        },
      },
      responses: [
        {
          status: "200",
          contentType: "application/json",
          schema: {
            type: "object",
            required: ["id", "password"],
            properties: { id: { type: "integer", readOnly: true }, password: { type: "string", writeOnly: true } },
          },
        },
      ],
    });
    const runtime = compileToolset(exposition({ operations: [op] })).get("putUser");
    expect(runtime?.tool.inputSchema.properties).toMatchObject({ body: { required: ["password"] } });
    expect(runtime?.tool.outputSchema?.required).toEqual(["id"]);
  });

  it("hoists $defs of recursive schemas to the inputSchema's root", () => {
    const node = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    };
    const op = operation({
      operationId: "putTree",
      method: "PUT",
      path: "/trees/{treeId}",
      parameters: [{ name: "treeId", in: "path", required: true, schema: { type: "string" } }],
      requestBody: { required: true, contentType: "application/json", schema: { ...node, $defs: { Node: node } } },
    });
    const runtime = compileToolset(exposition({ operations: [op] })).get("putTree");
    expect(runtime?.tool.inputSchema.$defs).toEqual({ Node: node });
    expect(runtime?.tool.inputSchema.properties).toMatchObject({ body: node });
    expect(runtime?.validate({ treeId: "t", body: { name: "a", children: [{ name: "b", children: [] }] } })).toEqual(
      [],
    );
    expect(runtime?.validate({ treeId: "t", body: { children: [{ name: 1 }] } })).toEqual([
      "body.children[0].name: must be string",
    ]);
  });

  it("leaves out a tool that cannot be compiled at all, and says so", () => {
    const broken = { ...petstore()[0], parameters: null } as never;
    const set = compileToolset(exposition({ operations: [broken, ...petstore().slice(1, 2)] }));
    expect(set.tools.map((t) => t.name)).toEqual(["createPet"]);
    expect(set.warnings).toEqual([expect.stringMatching(/^operation listPets: left out/)]);
  });
});

describe("compileToolset: GraphQL operations", () => {
  it("makes an operation carrying a GraphQL call recipe a tool that posts its document (graphql-tool.ts)", () => {
    const recipe = {
      operationType: "query" as const,
      fieldName: "pet",
      operationName: "pet",
      document: "query pet { pet }",
    };
    const graphql = operation({ operationId: "pet", method: "POST", path: "/", graphql: recipe });
    const set = compileToolset(exposition({ operations: [graphql, ...petstore().slice(1, 2)] }));
    expect(set.tools.map((t) => t.name)).toEqual(["pet", "createPet"]);
    expect(set.warnings).toEqual([]);
    const request = set.get("pet")?.buildRequest({});
    expect(request).toMatchObject({ method: "POST", path: "", contentType: "application/json" });
    expect(JSON.parse(String(request?.body))).toEqual({
      query: "query pet { pet }",
      operationName: "pet",
      variables: {},
    });
  });
});

describe("compileToolset: validation", () => {
  it("reports violations by argument, readable by a model", () => {
    const show = tool("showPetById");
    expect(show.validate({ petId: 5 })).toEqual([]);
    expect(show.validate(undefined)).toEqual(["petId: is required"]);
    expect(show.validate({ petId: "5", fields: ["a", 1], extra: true })).toEqual([
      "extra: is not expected",
      "petId: must be integer",
      "fields[1]: must be string",
    ]);
    expect(show.validate({ petId: 0 })).toEqual(["petId: must be >= 1"]);
    expect(show.validate("x")).toEqual(["arguments: must be object"]);
    expect(tool("createPet").validate({ body: { name: "Rex", birthDate: "yesterday" } })).toEqual([
      'body.birthDate: must match format "date"',
    ]);
  });

  it("lists the allowed values of an enum", () => {
    const op = operation({
      operationId: "findByStatus",
      method: "GET",
      path: "/pets/findByStatus",
      parameters: [
        { name: "status", in: "query", required: true, schema: { type: "string", enum: ["available", "sold"] } },
      ],
    });
    expect(
      compileToolset(exposition({ operations: [op] }))
        .get("findByStatus")
        ?.validate({ status: "gone" }),
    ).toEqual(['status: must be one of "available", "sold"']);
  });

  it("refuses path values that would make an empty, . or .. segment", () => {
    const op = operation({
      operationId: "getFile",
      method: "GET",
      path: "/files/{dir}/{name}",
      parameters: [
        { name: "dir", in: "path", required: true, schema: { type: "string" } },
        { name: "name", in: "path", required: true, schema: { type: "string" } },
      ],
    });
    const runtime = compileToolset(exposition({ operations: [op] })).get("getFile");
    expect(runtime?.validate({ dir: "..", name: "." })).toEqual([
      'dir: must not be ".." (it would leave the API\'s path)',
      'name: must not be "." (it would leave the API\'s path)',
    ]);
    expect(runtime?.validate({ dir: "", name: "a" })).toEqual(["dir: must not be empty (it is a path segment)"]);
    expect(runtime?.validate({ dir: "../admin", name: "%2e%2e" })).toEqual([]); // encoded within their segments
  });

  it("adds a template variable the document forgot to declare as a required string", () => {
    const op = operation({ operationId: "getOrder", method: "GET", path: "/orders/{orderId}" });
    const runtime = compileToolset(exposition({ operations: [op] })).get("getOrder");
    expect(runtime?.tool.inputSchema).toMatchObject({
      properties: { orderId: { type: "string" } },
      required: ["orderId"],
    });
    expect(runtime?.buildRequest({ orderId: "o 1" }).path).toBe("/orders/o%201");
  });
});
