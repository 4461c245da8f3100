/**
 * Test fixtures: CompiledExpositions built from hand-written normalized operations, in the shape
 * the control plane's importer stores (JSON Schema 2020-12, recursion as `#/$defs/<Name>`).
 */
import { circuitBreaker } from "@atrium/crds";
import { compileToolset } from "./compile.ts";
import type { ToolRuntime } from "./runtime.ts";
import type { CompiledExposition, CustomTool, Operation } from "./source.ts";

/** An operation with the importer's defaults for what `fields` leaves out. */
export function operation(fields: Pick<Operation, "operationId" | "method" | "path"> & Partial<Operation>): Operation {
  return { deprecated: false, tags: [], parameters: [], responses: [], extensions: {}, ...fields };
}

export type ExpositionOptions = {
  operations?: Operation[];
  customTools?: CustomTool[];
  mode?: "PerOperation" | "Discovery";
  backendEndpoint?: string;
  forwardResponseHeaders?: string[];
};

export function exposition(options: ExpositionOptions = {}): CompiledExposition {
  return {
    id: "0b5c6f7e-0000-4000-8000-000000000001",
    name: "petstore",
    organization: { id: "0b5c6f7e-0000-4000-8000-0000000000aa", name: "acme" },
    gatewayGroupId: 1,
    plan: {
      id: "0b5c6f7e-0000-4000-8000-0000000000bb",
      name: "petstore-prod",
      backendEndpoint: options.backendEndpoint ?? "https://pets.example.com/api/v1",
      apiKeyHash: null,
      toolExposureMode: options.mode ?? "PerOperation",
      backendTimeoutMs: 30_000,
      circuitBreaker: circuitBreaker.parse(undefined),
      audit: false,
      elicitMissingArguments: false,
      ...(options.forwardResponseHeaders
        ? { headerPolicy: { forwardResponseHeaders: options.forwardResponseHeaders } }
        : {}),
    },
    service: {
      id: "0b5c6f7e-0000-4000-8000-0000000000cc",
      name: "Petstore",
      version: "2.1.0",
      kind: "openapi",
      operations: options.operations ?? petstore(),
    },
    customTools: options.customTools ?? [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };
}

const pet = {
  type: "object",
  required: ["id", "name"],
  properties: {
    id: { type: "integer", format: "int64", readOnly: true },
    name: { type: "string", minLength: 1 },
    tag: { type: ["string", "null"] },
    status: { type: "string", enum: ["available", "pending", "sold"] },
  },
};

const newPet = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1, examples: ["Rex"] },
    tag: { type: ["string", "null"] },
    birthDate: { type: "string", format: "date" },
  },
};

const error = {
  type: "object",
  required: ["code", "message"],
  properties: { code: { type: "integer", format: "int32" }, message: { type: "string" } },
};

const petId = {
  name: "petId",
  in: "path" as const,
  required: true,
  description: "The id of the pet",
  schema: { type: "integer", minimum: 1 },
};

/** A Petstore as the importer would store it, in document order. */
export function petstore(): Operation[] {
  return [
    operation({
      operationId: "listPets",
      method: "GET",
      path: "/pets",
      summary: "List all pets",
      tags: ["pets"],
      parameters: [
        {
          name: "limit",
          in: "query",
          required: false,
          description: "How many items to return at one time (max 100)",
          schema: { type: "integer", exclusiveMaximum: 100 },
        },
        { name: "tags", in: "query", required: false, schema: { type: "array", items: { type: "string" } } },
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
          schema: { type: "array", items: pet },
        },
        { status: "default", description: "Unexpected error", contentType: "application/json", schema: error },
      ],
    }),
    operation({
      operationId: "createPet",
      method: "POST",
      path: "/pets",
      summary: "Create a pet",
      tags: ["pets"],
      requestBody: {
        required: true,
        contentType: "application/json",
        description: "The pet to create",
        schema: newPet,
      },
      responses: [{ status: "201", description: "Created", contentType: "application/json", schema: pet }],
    }),
    operation({
      operationId: "showPetById",
      method: "GET",
      path: "/pets/{petId}",
      summary: "Info for a specific pet",
      description: "Returns one pet, with its status.",
      deprecated: true,
      tags: ["pets"],
      parameters: [
        petId,
        {
          name: "fields",
          in: "query",
          required: false,
          style: "form",
          explode: false,
          schema: { type: "array", items: { type: "string" } },
        },
        { name: "X-Trace", in: "header", required: false, schema: { type: "string" } },
      ],
      responses: [
        {
          status: "200",
          description: "Expected response to a valid request",
          contentType: "application/json",
          schema: pet,
        },
        { status: "default", contentType: "application/json", schema: error },
      ],
    }),
    operation({
      operationId: "updatePet",
      method: "PUT",
      path: "/pets/{petId}",
      tags: ["pets"],
      parameters: [petId],
      requestBody: { required: true, contentType: "application/json", schema: newPet },
      responses: [{ status: "200", contentType: "application/json", schema: pet }],
    }),
    operation({
      operationId: "deletePet",
      method: "DELETE",
      path: "/pets/{petId}",
      summary: "Delete a pet",
      tags: ["pets"],
      parameters: [petId],
      responses: [{ status: "204", description: "Deleted" }],
    }),
    operation({
      operationId: "uploadPetPhoto",
      method: "POST",
      path: "/pets/{petId}/photo",
      summary: "Upload a photo",
      tags: ["photos"],
      parameters: [petId],
      requestBody: { required: true, contentType: "image/png", schema: { type: "string", contentEncoding: "base64" } },
      responses: [{ status: "200", contentType: "image/png", schema: { type: "string", format: "binary" } }],
      extensions: { "x-mcp-annotations": { idempotentHint: true, destructiveHint: false, ignored: 1 } },
    }),
  ];
}

/** The Exposition's toolset, and a lookup that fails the test when a tool is missing. */
export function toolsetOf(compiled: CompiledExposition) {
  const toolset = compileToolset(compiled);
  const runtime = (name: string): ToolRuntime => {
    const found = toolset.get(name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  return { toolset, runtime };
}
