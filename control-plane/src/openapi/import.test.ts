import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { NormalizedOperation } from "@atrium/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importOpenApi } from "./import.ts";
import { ImportedDocument } from "./imported-document.ts";
import { parseAllowHosts } from "./ssrf-policy.ts";
import { importError } from "./test-documents.ts";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

function operation(document: ImportedDocument, operationId: string): NormalizedOperation {
  const found = document.operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in ${document.operations.map((o) => o.operationId)}`);
  return found;
}

/** Every `$ref` in a stored schema must point into that schema's own `$defs`. */
function danglingRefs(schema: unknown, root = schema, found: string[] = []): string[] {
  if (Array.isArray(schema)) for (const item of schema) danglingRefs(item, root, found);
  else if (typeof schema === "object" && schema !== null) {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "$ref") {
        const name = /^#\/\$defs\/(.+)$/.exec(String(value))?.[1];
        const defs = (root as { $defs?: Record<string, unknown> }).$defs;
        if (!name || !defs || !(name in defs)) found.push(String(value));
      } else danglingRefs(value, root, found);
    }
  }
  return found;
}

function allSchemas(document: ImportedDocument): unknown[] {
  return document.operations.flatMap((op) => [
    ...op.parameters.map((parameter) => parameter.schema),
    ...(op.requestBody ? [op.requestBody.schema] : []),
    ...op.responses.flatMap((response) => (response.schema ? [response.schema] : [])),
  ]);
}

const minimal30 = (paths: string) => `openapi: 3.0.3
info:
  title: t
  version: "1"
paths:
${paths}`;

/** A 3.0 document whose one operation, GET `path`, answers a schema that is `$ref: ref`. */
const withRef = (ref: string, path = "/a") =>
  minimal30(`  ${path}:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "${ref}"
`);

describe("importOpenApi: Swagger 2.0", () => {
  it("normalizes operations, parameters, bodies, form data and responses", async () => {
    const document = await importOpenApi({ text: fixture("petstore-2.0.yaml") });
    expect(ImportedDocument.parse(document)).toEqual(document);
    expect(document).toMatchObject({
      openapiVersion: "2.0",
      title: "Swagger Petstore",
      version: "1.0.0",
      description: "A Swagger 2.0 pet store.",
      servers: ["https://petstore.example.com/v1", "http://petstore.example.com/v1"],
    });
    expect(document.operations.map((op) => `${op.method} ${op.path} ${op.operationId}`)).toEqual([
      "GET /pets listPets",
      "POST /pets createPet",
      "GET /pets/{petId} get_pets_petId",
      "DELETE /pets/{petId} deletePet",
      "POST /pets/{petId}/photo uploadPhoto",
    ]);

    const pet = {
      type: "object",
      required: ["id", "name"],
      properties: {
        id: { type: "integer", format: "int64" },
        name: { type: "string", examples: ["Rex"] },
        tag: { type: ["string", "null"] },
      },
    };
    expect(operation(document, "listPets")).toEqual({
      operationId: "listPets",
      method: "GET",
      path: "/pets",
      summary: "List all pets",
      deprecated: false,
      tags: ["pets"],
      parameters: [
        {
          name: "limit",
          in: "query",
          required: false,
          description: "How many items to return at one time (max 100)",
          schema: { type: "integer", format: "int32", exclusiveMinimum: 0, maximum: 100 },
        },
        {
          name: "tags",
          in: "query",
          required: false,
          schema: { type: "array", items: { type: "string" } },
          style: "form",
          explode: true,
        },
        {
          name: "ids",
          in: "query",
          required: false,
          schema: { type: "array", items: { type: "integer" } },
          style: "form",
          explode: false,
        },
      ],
      responses: [
        {
          status: "200",
          description: "A list of pets",
          contentType: "application/json",
          // Shared schemas below the top one stay references into the schema's own $defs.
          schema: { type: "array", items: { $ref: "#/$defs/Pet" }, $defs: { Pet: pet } },
        },
        {
          status: "default",
          description: "Unexpected error",
          contentType: "application/json",
          schema: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "integer", format: "int32" }, message: { type: "string" } },
          },
        },
      ],
      extensions: {},
    });
    expect(operation(document, "createPet").requestBody).toEqual({
      required: true,
      contentType: "application/json",
      description: "The pet to add",
      schema: pet,
    });
    expect(operation(document, "get_pets_petId")).toMatchObject({
      parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
      responses: [{ status: "200", contentType: "application/xml", schema: pet }],
    });
    expect(operation(document, "deletePet")).toMatchObject({
      deprecated: true,
      extensions: { "x-destructive": true },
      parameters: [
        { name: "petId", in: "path" },
        { name: "X-Request-Id", in: "header", required: false, schema: { type: ["string", "null"] } },
      ],
      responses: [{ status: "204", description: "Deleted" }],
    });
    expect(operation(document, "uploadPhoto")).toMatchObject({
      parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }],
      requestBody: {
        required: true,
        contentType: "multipart/form-data",
        schema: {
          type: "object",
          properties: {
            file: { type: "string", format: "binary", description: "The photo" },
            caption: { type: "string" },
          },
          required: ["file"],
        },
      },
    });
  });

  it("reads an unquoted `swagger: 2.0` and takes the host from nowhere when none is given", async () => {
    const document = await importOpenApi({
      text: `swagger: 2.0
info: { title: t, version: "1" }
basePath: /api
paths:
  /a:
    get:
      responses: { "200": { description: ok } }
`,
    });
    expect(document.openapiVersion).toBe("2.0");
    expect(document.servers).toEqual(["/api"]);
    expect(document.operations[0]?.operationId).toBe("get_a");
  });
});

describe("importOpenApi: OpenAPI 3.0", () => {
  it("normalizes parameters (refs, content, cookies), bodies, responses and extensions", async () => {
    const document = await importOpenApi({ text: fixture("petstore-3.0.yaml") });
    expect(ImportedDocument.parse(document)).toEqual(document);
    expect(document).toMatchObject({ openapiVersion: "3.0.3", title: "Petstore", version: "2.1.0" });
    expect(document.description).toBeUndefined();
    expect(document.servers).toEqual(["https://eu.petstore.example.com/v2", "/fallback"]);

    const newPet = {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string" },
        tag: { type: ["string", "null"] },
        status: { type: ["string", "null"], enum: ["available", "sold", null] },
        owner: {
          description: "The owner, if any",
          anyOf: [{ allOf: [{ $ref: "#/$defs/Owner" }] }, { type: "null" }],
        },
      },
    };
    const owner = { type: "object", properties: { name: { type: "string" } } };
    const pet = {
      allOf: [
        { $ref: "#/$defs/NewPet" },
        {
          type: "object",
          required: ["id"],
          properties: { id: { type: "integer", format: "int64", examples: [42] } },
        },
      ],
    };
    const error = {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "integer" }, message: { type: "string" } },
    };

    expect(operation(document, "listPets")).toEqual({
      operationId: "listPets",
      method: "GET",
      path: "/pets",
      deprecated: false,
      tags: ["pets"],
      parameters: [
        { name: "limit", in: "query", required: false, schema: { type: "integer", exclusiveMaximum: 100 } },
        {
          name: "filter",
          in: "query",
          required: false,
          contentType: "application/json",
          schema: { type: "object", properties: { color: { type: "string" } } },
        },
        { name: "session", in: "cookie", required: false, schema: { type: "string" } },
      ],
      responses: [
        {
          status: "200",
          description: "A paged array of pets",
          contentType: "application/json",
          schema: { type: "array", items: { $ref: "#/$defs/Pet" }, $defs: { NewPet: newPet, Owner: owner, Pet: pet } },
        },
        { status: "2XX", description: "Other success" },
        { status: "default", description: "Unexpected error", contentType: "application/json", schema: error },
      ],
      extensions: {},
    });

    expect(operation(document, "post_pets")).toEqual({
      operationId: "post_pets",
      method: "POST",
      path: "/pets",
      summary: "Create a pet",
      deprecated: false,
      tags: [],
      parameters: [],
      // application/json is preferred even when listed second, parameters and all.
      requestBody: {
        required: true,
        contentType: "application/json; charset=utf-8",
        description: "The pet to create",
        schema: { ...newPet, $defs: { Owner: owner } },
      },
      responses: [{ status: "201", description: "Created" }],
      extensions: { "x-idempotent": false, "x-rate-limit": { perMinute: 10 } },
    });
  });

  it("merges path-level parameters, the operation's overriding the same name and location", async () => {
    const document = await importOpenApi({ text: fixture("petstore-3.0.yaml") });
    expect(operation(document, "showPetById")).toMatchObject({
      deprecated: true,
      parameters: [
        {
          name: "petId",
          in: "path",
          required: true,
          description: "The id of the pet to retrieve",
          schema: { type: "integer", minimum: 1 },
        },
        { name: "X-Trace", in: "header", required: false, schema: { type: "string" } },
        {
          name: "fields",
          in: "query",
          required: false,
          style: "form",
          explode: false,
          schema: { type: "array", items: { type: "string" } },
        },
      ],
      responses: [{ status: "200", contentType: "application/xml" }],
    });
  });
});

describe("importOpenApi: OpenAPI 3.1", () => {
  it("keeps JSON Schema 2020-12 as it is, with $ref siblings, and ignores webhooks", async () => {
    const document = await importOpenApi({ text: fixture("petstore-3.1.json") });
    expect(ImportedDocument.parse(document)).toEqual(document);
    const pet = {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", examples: ["Rex"] },
        tag: { type: ["string", "null"] },
        weight: { type: "number", exclusiveMinimum: 0 },
        kind: { oneOf: [{ const: "cat" }, { const: "dog" }] },
      },
    };
    expect(document).toEqual({
      openapiVersion: "3.1.0",
      title: "Petstore 3.1",
      version: "3.0.0",
      description: "JSON Schema 2020-12 schemas.",
      servers: ["/api"],
      warnings: [],
      operations: [
        {
          operationId: "updatePet",
          method: "PUT",
          path: "/pets/{petId}",
          deprecated: false,
          tags: [],
          parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          requestBody: {
            required: false,
            contentType: "application/json",
            schema: { ...pet, description: "The new state of the pet" },
          },
          responses: [
            { status: "200", description: "Updated", contentType: "application/json", schema: pet },
            { status: "404", description: "Not found" },
          ],
          extensions: {},
        },
      ],
    });
  });
});

describe("importOpenApi: operationIds", () => {
  it("synthesizes missing ids from method and path, the same on every import, never colliding", async () => {
    const text = minimal30(`  /pets/{petId}:
    get:
      parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: ok } }
  /pets/petId:
    get:
      responses: { "200": { description: ok } }
  /:
    get:
      operationId: get_pets_petId_2
      responses: { "200": { description: ok } }
    post:
      responses: { "200": { description: ok } }
  /pets/{pet-id}/x:
    get:
      parameters: [{ name: pet-id, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: ok } }
`);
    const ids = async () =>
      (await importOpenApi({ text })).operations.map((op) => `${op.method} ${op.path} ${op.operationId}`);
    const first = await ids();
    expect(first).toEqual([
      "GET /pets/{petId} get_pets_petId",
      "GET /pets/petId get_pets_petId_3", // `_2` is declared by another operation
      "GET / get_pets_petId_2",
      "POST / post_root",
      "GET /pets/{pet-id}/x get_pets_pet_id_x",
    ]);
    expect(await ids()).toEqual(first);
  });

  it("rejects two operations declaring the same operationId, naming both", async () => {
    const error = await importError({
      text: minimal30(`  /a:
    get:
      operationId: same
      responses: { "200": { description: ok } }
  /b:
    post:
      operationId: same
      responses: { "200": { description: ok } }
`),
    });
    expect(error.code).toBe("OPENAPI_DUPLICATE_OPERATION_ID");
    expect(error.message).toContain("'same' is used by both GET /a and POST /b");
    expect(error.location).toEqual({ pointer: "/paths/~1b/post/operationId", line: 12, column: 7 });
  });
});

describe("importOpenApi: circular schemas", () => {
  it("keeps recursion as $ref into the schema's own $defs, as plain JSON", async () => {
    const document = await importOpenApi({ text: fixture("tree-3.0.yaml") });
    expect(() => JSON.stringify(document)).not.toThrow();
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    for (const schema of allSchemas(document)) expect(danglingRefs(schema)).toEqual([]);

    const treeNode = {
      type: "object",
      properties: { value: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/TreeNode" } } },
    };
    expect(operation(document, "getTree").responses[0]?.schema).toEqual({ ...treeNode, $defs: { TreeNode: treeNode } });

    const company = {
      type: "object",
      properties: { name: { type: "string" }, employees: { type: "array", items: { $ref: "#/$defs/Person" } } },
    };
    const person = { type: "object", properties: { name: { type: "string" }, employer: { $ref: "#/$defs/Company" } } };
    expect(operation(document, "createPerson").requestBody?.schema).toEqual({
      ...person,
      $defs: { Company: company, Person: person },
    });
  });
});

describe("importOpenApi: references outside the document are never followed", () => {
  let server: Server;
  let requests = 0;
  let origin: string;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ type: "string" }));
    });
    origin = await listen(server);
  });
  afterAll(() => close(server));

  it.each(["/etc/passwd", "file:///etc/passwd", "../secrets.yaml#/Secret", "schemas.json"])(
    "rejects $ref %s with its location",
    async (ref) => {
      const error = await importError({ text: withRef(ref) });
      expect(error.code).toBe("OPENAPI_EXTERNAL_REF");
      expect(error.message).toContain(`$ref ${JSON.stringify(ref)}`);
      expect(error.message).toContain("only internal references");
      expect(error.location).toEqual({
        pointer: "/paths/~1a/get/responses/200/content/application~1json/schema/$ref",
        line: 14,
        column: 17,
      });
    },
  );

  it("rejects a $ref to a URL without requesting it", async () => {
    const error = await importError({ text: withRef(`${origin}/schema.json`) });
    expect(error.code).toBe("OPENAPI_EXTERNAL_REF");
    expect(requests).toBe(0);
  });

  it("reports a missing internal pointer with the parser's message and the $ref's location", async () => {
    const error = await importError({ text: withRef("#/components/schemas/Missing") });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain('Missing $ref pointer "#/components/schemas/Missing"');
    expect(error.location).toMatchObject({ line: 14, column: 17 });
  });
});

describe("importOpenApi: syntax and validation errors", () => {
  it("reports invalid YAML with its line and column", async () => {
    const error = await importError({ text: "openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\n" });
    expect(error.code).toBe("OPENAPI_SYNTAX");
    expect(error.location).toEqual({ line: 3, column: 10 });
    expect(error.message).toMatch(/^The OpenAPI document is neither valid JSON nor valid YAML \(line 3, column 10\): /);
  });

  it("reports invalid JSON with its line and column", async () => {
    const error = await importError({ text: '{\n  "openapi": "3.0.3",\n  "info": { "title": "x",, }\n}' });
    expect(error.code).toBe("OPENAPI_SYNTAX");
    expect(error.location).toEqual({ line: 3, column: 26 });
  });

  it("keeps the parser's message and places it in the submitted text", async () => {
    const error = await importError({
      text: minimal30(`  /pets:
    get:
      operationId: listPets
`),
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("must have required property 'responses'");
    expect(error.location).toEqual({ pointer: "/paths/~1pets/get", line: 7, column: 5 });
  });

  it("places an error inside a referenced schema where that schema is written", async () => {
    const error = await importError({
      text: `${withRef("#/components/schemas/Pet", "/pets")}components:
  schemas:
    Pet:
      type: strin
`,
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("must be equal to one of the allowed values");
    expect(error.message).toContain("Did you mean string here?");
    // Reported once, though the parser sees it both inline in the operation and in components.
    expect(error.message.match(/allowed values/g)).toHaveLength(1);
    expect(error.location).toMatchObject({ line: 18, column: 7 });
    expect(error.location?.pointer).toMatch(/\/type$/);
  });

  it("reports a wrong type with the offending node", async () => {
    const error = await importError({
      text: '{"openapi": "3.0.3", "info": {"title": "t", "version": 1}, "paths": {}}',
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("must be string");
    expect(error.location).toEqual({ pointer: "/info/version", line: 1, column: 45 });
  });

  it("refuses what is not a supported OpenAPI document", async () => {
    expect((await importError({ text: "- a\n- b\n" })).code).toBe("OPENAPI_UNSUPPORTED_VERSION");
    expect((await importError({ text: "{}" })).code).toBe("OPENAPI_UNSUPPORTED_VERSION");
    const v32 = await importError({ text: minimal30("  {}").replace("3.0.3", "3.2.0") });
    expect(v32.code).toBe("OPENAPI_UNSUPPORTED_VERSION");
    expect(v32.location).toEqual({ pointer: "/openapi", line: 1, column: 1 });
  });

  it("rewrites a pattern to its ECMAScript Unicode-mode equivalent, or drops it with a note; each is a located warning", async () => {
    const withPattern = (pattern: string, description = "") =>
      minimal30(`  /a:
    get:
      parameters:
        - name: q
          in: query${description}
          schema:
            type: string
            pattern: '${pattern}'
      responses:
        "200":
          description: ok
`);
    // Identity escapes are no ECMAScript escapes in Unicode mode, as JSON Schema validators compile patterns.
    const rewritten = await importOpenApi({ text: withPattern("^a\\_b$") });
    expect(rewritten.operations[0]?.parameters[0]?.schema.pattern).toBe("^a_b$");
    expect(rewritten.warnings).toEqual([
      {
        code: "PATTERN_REWRITTEN",
        message: expect.stringContaining(
          'pattern "^a\\\\_b$" at /paths/~1a/get/parameters/0/schema/pattern (line 13, column 13) is written "^a_b$"',
        ),
        location: { pointer: "/paths/~1a/get/parameters/0/schema/pattern", line: 13, column: 13 },
      },
    ]);

    const dropped = await importOpenApi({ text: withPattern("[", "\n          description: The query") });
    const parameter = dropped.operations[0]?.parameters[0];
    expect(parameter?.schema.pattern).toBeUndefined();
    const note =
      'Not checked: the pattern "[" (a character class is not closed; JSON Schema validators compile patterns as ECMAScript in Unicode mode).';
    expect(parameter?.schema.description).toBe(note);
    // The gateways list a parameter's own description instead of its schema's: it carries the note too.
    expect(parameter?.description).toBe(`The query\n\n${note}`);
    expect(dropped.warnings).toMatchObject([
      {
        code: "PATTERN_DROPPED",
        location: { pointer: "/paths/~1a/get/parameters/0/schema/pattern" },
      },
    ]);
    expect(dropped.warnings[0]?.message).toContain("is dropped: a character class is not closed");

    const accepted = await importOpenApi({ text: withPattern("^\\p{L}+$") });
    expect(accepted.operations[0]?.parameters[0]?.schema.pattern).toBe("^\\p{L}+$");
    expect(accepted.warnings).toEqual([]);
  });

  it("drops a format strict validators do not know, keeps it as a hint in the description, and warns where it was", async () => {
    // 2.0: a query parameter carries its format inline; the body's schema is converted as a whole.
    const document = await importOpenApi({
      text: `swagger: "2.0"
info: { title: t, version: "1" }
paths:
  /a:
    post:
      parameters:
        - { name: q, in: query, type: string, format: x-vendor, description: The query }
        - { name: when, in: query, type: string, format: date-time }
        - { name: size, in: query, type: integer, format: int64 }
        - name: body
          in: body
          schema:
            type: object
            properties:
              phone: { type: string, format: phone, description: Who to call }
      responses:
        "200": { description: ok }
`,
    });
    const [q, when, size] = document.operations[0]?.parameters ?? [];
    const hint = (format: string) => `Format: "${format}" (not checked: strict JSON Schema validators do not know it).`;
    expect(q?.schema).toEqual({ type: "string", description: hint("x-vendor") });
    // The gateways list a parameter's own description instead of its schema's: it carries the hint too.
    expect(q?.description).toBe(`The query\n\n${hint("x-vendor")}`);
    expect(when?.schema.format).toBe("date-time");
    expect(size?.schema.format).toBe("int64");
    expect(document.operations[0]?.requestBody?.schema).toMatchObject({
      properties: { phone: { type: "string", description: `Who to call\n\n${hint("phone")}` } },
    });
    expect(document.operations[0]?.requestBody?.schema).not.toHaveProperty("properties.phone.format");
    expect(document.warnings.map(({ code, location }) => [code, location?.pointer])).toEqual([
      ["FORMAT_DROPPED", "/paths/~1a/post/parameters/0/format"],
      ["FORMAT_DROPPED", "/paths/~1a/post/parameters/3/schema/properties/phone/format"],
    ]);
    expect(document.warnings[0]?.message).toContain(
      'format "x-vendor" at /paths/~1a/post/parameters/0/format (line 7, column 47) is dropped: strict JSON Schema validators',
    );
  });

  it("keeps the first 100 pattern warnings: every answer about the Service carries them", async () => {
    const parameters = Array.from({ length: 150 }, (_, index) => ({
      name: `q${index}`,
      in: "query",
      schema: { type: "string", pattern: "^\\_$" },
    }));
    const document = await importOpenApi({
      text: JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: { "/a": { get: { parameters, responses: { "200": { description: "ok" } } } } },
      }),
    });
    expect(document.operations[0]?.parameters.map((parameter) => parameter.schema.pattern)).toEqual(
      parameters.map(() => "^_$"),
    );
    expect(document.warnings).toHaveLength(100);
    expect(document.warnings[99]?.location?.pointer).toBe("/paths/~1a/get/parameters/99/schema/pattern");
  });

  it("rewrites patternProperties names; one with no equivalent is dropped with additionalProperties", async () => {
    const schema = {
      type: "object",
      patternProperties: { "^x\\-": { type: "string" }, "a++": { type: "integer" }, "^x-": { minLength: 2 } },
      additionalProperties: false,
    };
    const answer = { description: "ok", content: { "application/json": { schema } } };
    const document = await importOpenApi({
      text: JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: { "/a": { get: { responses: { "200": answer } } } },
      }),
    });
    expect(document.operations[0]?.responses[0]?.schema).toEqual({
      type: "object",
      patternProperties: { "^x-": { allOf: [{ type: "string" }, { minLength: 2 }] } },
      description:
        'Not checked: the pattern "a++" (the possessive quantifier ++ has no ECMAScript equivalent; JSON Schema validators compile patterns as ECMAScript in Unicode mode).',
    });
    const at = "/paths/~1a/get/responses/200/content/application~1json/schema/patternProperties";
    expect(document.warnings.map(({ code, location }) => [code, location?.pointer])).toEqual([
      ["PATTERN_REWRITTEN", `${at}/^x\\-`],
      ["PATTERN_DROPPED", `${at}/a++`],
    ]);
  });

  it("refuses a pattern that is not a string, nested where 3.1's meta-schema does not look (found by the import fuzz test)", async () => {
    const schema = { type: "object", additionalProperties: { not: { type: "string", pattern: [] } } };
    const error = await importError({
      text: JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/a/{id}": {
            parameters: [{ name: "id", in: "path", required: true, schema }],
            get: { responses: { "200": { description: "ok" } } },
          },
        },
      }),
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("pattern []");
    expect(error.message).toContain("it is not a string");
    expect(error.location?.pointer).toBe("/paths/~1a~1{id}/parameters/0/schema/additionalProperties/not/pattern");
  });

  it("refuses an empty enum, which the gateways could not compile, at its place (found by the import fuzz test)", async () => {
    const error = await importError({
      text: `openapi: 3.1.0
info: { title: t, version: "1" }
paths:
  /a:
    post:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                kind:
                  type: string
                  enum: []
      responses: { "200": { description: ok } }
`,
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain(
      "enum [] at /paths/~1a/post/requestBody/content/application~1json/schema/properties/kind/enum (line 14, column 19) allows no value",
    );
    expect(error.location).toEqual({
      pointer: "/paths/~1a/post/requestBody/content/application~1json/schema/properties/kind/enum",
      line: 14,
      column: 19,
    });
  });

  it("refuses a pattern that a $ref makes an object containing itself, without quoting it (found by the import fuzz test)", async () => {
    // 3.1's meta-schema does not look inside schemas: the $ref is dereferenced, and the pattern is
    // then the paths object, which holds this very schema. Its serialization crashed the import.
    const error = await importError({
      text: JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/a": {
            get: {
              parameters: [{ name: "q", in: "query", schema: { type: "string", pattern: { $ref: "#/paths" } } }],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      }),
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("pattern {…}");
    expect(error.message).toContain("it is not a string");
    expect(error.location).toMatchObject({ pointer: "/paths/~1a/get/parameters/0/schema/pattern", line: 1 });
  });

  it("keeps x-mcp-content: true and refuses a value other than a boolean, where it is written", async () => {
    const document = (value: string) =>
      minimal30(`  /report:
    get:
      operationId: report
      x-mcp-content: ${value}
      responses:
        "200":
          description: ok
`);
    const imported = await importOpenApi({ text: document("true") });
    expect(operation(imported, "report").extensions).toEqual({ "x-mcp-content": true });
    const error = await importError({ text: document("yes") });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.message).toContain("'x-mcp-content' must be true or false at /paths/~1report/get/x-mcp-content");
    expect(error.location).toMatchObject({ pointer: "/paths/~1report/get/x-mcp-content", line: 9 });
  });

  it("refuses a schema the gateways could not compile, naming the keyword; in a shared schema too (found by the import fuzz test)", async () => {
    const document = (body: unknown, components: Record<string, unknown> = {}) =>
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/": {
            post: {
              requestBody: { content: { "application/json": { schema: body } } },
              responses: { "200": { description: "ok" } },
            },
          },
        },
        components: { schemas: components },
      });
    const inline = await importError({ text: document({ not: [] }) });
    expect(inline.code).toBe("OPENAPI_INVALID");
    expect(inline.message).toContain("not valid JSON Schema 2020-12");
    expect(inline.message).toContain("/not must be object,boolean");
    expect(inline.location?.pointer).toBe("/paths/~1/post/requestBody/content/application~1json/schema/not");

    const shared = await importError({
      text: document(
        { $ref: "#/components/schemas/Pet" },
        { Pet: { type: "object", properties: { age: { minimum: "one" } } } },
      ),
    });
    expect(shared.code).toBe("OPENAPI_INVALID");
    expect(shared.message).toContain("/properties/age/minimum must be number");
    // The top schema is written out (its $ref followed), so it is found at the operation.
    expect(shared.location?.pointer).toMatch(/\/properties\/age\/minimum$/);

    // A schema naming another dialect is read as 2020-12, as the gateways compile it (they drop $schema): never a crash.
    const dialect = await importOpenApi({
      text: document({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }),
    });
    expect(dialect.operations).toHaveLength(1);

    // What 2020-12 allows stays accepted: boolean schemas, type arrays, shared schemas, its own $schema.
    const accepted = await importOpenApi({
      text: document(
        {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: ["object", "null"],
          properties: { a: true, b: { $ref: "#/components/schemas/B" } },
        },
        { B: { type: "string", not: { const: "" } } },
      ),
    });
    expect(accepted.operations).toHaveLength(1);
  });

  it("refuses a document without operations", async () => {
    const error = await importError({ text: minimal30("  {}") });
    expect(error.code).toBe("OPENAPI_NO_OPERATIONS");
  });

  it("refuses a YAML alias that contains itself", async () => {
    const error = await importError({ text: "openapi: 3.0.3\ninfo: &info\n  title: t\n  self: *info\n" });
    expect(error.code).toBe("OPENAPI_SYNTAX");
    expect(error.location).toEqual({ pointer: "/info/self", line: 4, column: 3 });
  });

  it("refuses text larger than maxBytes", async () => {
    const error = await importError({ text: fixture("petstore-3.0.yaml") }, { maxBytes: 100 });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
  });
});

describe("importOpenApi: from a URL", () => {
  // These listeners are on loopback, which the SSRF policy refuses unless an operator opens it.
  const loopback = { fetchPolicy: { allow: parseAllowHosts("127.0.0.0/8") } };
  let server: Server;
  let origin: string;
  const routes = new Map<string, (request: IncomingMessage, response: ServerResponse) => void>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      const route = routes.get(request.url ?? "");
      if (route) route(request, response);
      else {
        response.statusCode = 404;
        response.end("not found");
      }
    });
    origin = await listen(server);
    routes.set("/specs/petstore.yaml", (_request, response) => {
      response.setHeader("content-type", "application/yaml");
      response.end(fixture("petstore-3.1.json"));
    });
    routes.set("/moved", (_request, response) => {
      response.statusCode = 302;
      response.setHeader("location", "/specs/petstore.yaml");
      response.end();
    });
    routes.set("/swagger.yaml", (_request, response) => {
      response.end(
        fixture("petstore-2.0.yaml")
          .replace(/^host: .*$/m, "")
          .replace(/^schemes: .*$/m, ""),
      );
    });
    routes.set("/large-declared", (_request, response) => {
      response.setHeader("content-length", "5000");
      response.end("x".repeat(5000));
    });
    routes.set("/large-chunked", (_request, response) => {
      for (let chunk = 0; chunk < 10; chunk++) response.write("x".repeat(500));
      response.end();
    });
    routes.set("/silent", () => {
      // never answers
    });
  });
  afterAll(() => close(server));

  it("downloads and imports the document, resolving relative servers against its URL", async () => {
    const document = await importOpenApi({ url: `${origin}/specs/petstore.yaml` }, loopback);
    expect(document.title).toBe("Petstore 3.1");
    expect(document.servers).toEqual([`${origin}/api`]);
    expect(document.operations.map((op) => op.operationId)).toEqual(["updatePet"]);
  });

  it("follows redirects and resolves against the final URL", async () => {
    const document = await importOpenApi({ url: `${origin}/moved` }, loopback);
    expect(document.servers).toEqual([`${origin}/api`]);
  });

  it("takes a Swagger 2.0 document's missing scheme and host from its URL", async () => {
    const document = await importOpenApi({ url: `${origin}/swagger.yaml` }, loopback);
    expect(document.servers).toEqual([`${origin}/v1`]);
  });

  it("reports an HTTP error status", async () => {
    const error = await importError({ url: `${origin}/missing.yaml` }, loopback);
    expect(error.code).toBe("OPENAPI_FETCH");
    expect(error.message).toContain("HTTP 404");
  });

  it.each(["/large-declared", "/large-chunked"])("stops reading past maxBytes (%s)", async (path) => {
    const error = await importError({ url: `${origin}${path}` }, { ...loopback, maxBytes: 1000 });
    expect(error.code).toBe("OPENAPI_TOO_LARGE");
  });

  it("gives up after fetchTimeoutMs", async () => {
    const error = await importError({ url: `${origin}/silent` }, { ...loopback, fetchTimeoutMs: 200 });
    expect(error.code).toBe("OPENAPI_FETCH");
    expect(error.message).toContain("within 200 ms");
  });

  it("reports an unreachable server", async () => {
    const closed = createServer();
    const closedOrigin = await listen(closed);
    await close(closed);
    const error = await importError({ url: `${closedOrigin}/openapi.json` }, loopback);
    expect(error.code).toBe("OPENAPI_FETCH");
  });

  it.each(["file:///etc/passwd", "ftp://example.com/openapi.yaml", "not a url", "/relative/openapi.yaml"])(
    "refuses %s",
    async (url) => {
      expect((await importError({ url })).code).toBe("OPENAPI_URL_INVALID");
    },
  );

  it("keeps credentials out of messages", async () => {
    const error = await importError(
      { url: `${origin.replace("http://", "http://user:secret@")}/missing.yaml` },
      loopback,
    );
    expect(error.message).not.toContain("secret");
    const document = await importOpenApi(
      { url: `${origin.replace("http://", "http://user:secret@")}/specs/petstore.yaml` },
      loopback,
    );
    expect(document.servers).toEqual([`${origin}/api`]);
  });
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
