import { compiledExposition, NormalizedOperation } from "@atrium/contract";
import { describe, expect, it } from "vitest";
import { checkContract } from "./contract-check.ts";
import { OpenApiImportError } from "./errors.ts";
import type { ImportedDocument } from "./imported-document.ts";
import type { OperationSites } from "./normalize.ts";

const locate = (pointer: string) => ({ pointer });
const sites: OperationSites[] = [
  {
    pointer: "/paths/~1a/get",
    parameters: ["/components/parameters/Q"],
    requestBody: "/paths/~1a/get/requestBody",
    responses: ["/paths/~1a/get/responses/200"],
  },
];
const valid: ImportedDocument = {
  openapiVersion: "3.0.3",
  title: "t",
  version: "1",
  servers: ["/"],
  warnings: [],
  operations: [
    {
      operationId: "getA",
      method: "GET",
      path: "/a",
      deprecated: false,
      tags: [],
      parameters: [{ name: "q", in: "query", required: false, schema: {} }],
      responses: [{ status: "200" }],
      extensions: {},
    },
  ],
};

function violation(document: ImportedDocument): OpenApiImportError {
  try {
    checkContract(document, sites, locate);
  } catch (error) {
    if (error instanceof OpenApiImportError) return error;
    throw error;
  }
  throw new Error("no violation");
}

describe("checkContract", () => {
  it("checks with the very schema the gateways parse the change stream with", () => {
    expect(compiledExposition.shape.service.shape.operations.element).toBe(NormalizedOperation);
  });

  it("passes a valid document through", () => {
    expect(checkContract(valid, sites, locate)).toBe(valid);
  });

  it("places a parameter's violation at that parameter's field", () => {
    const [operation] = valid.operations;
    if (!operation) throw new Error("no operation");
    const error = violation({
      ...valid,
      operations: [{ ...operation, parameters: [{ name: "", in: "query", required: false, schema: {} }] }],
    });
    expect(error.code).toBe("OPENAPI_INVALID");
    expect(error.location).toEqual({ pointer: "/components/parameters/Q/name" });
    expect(error.message).toContain("'name' must be at least 1 character long");
  });

  it("places an operation's own field under the operation", () => {
    const [operation] = valid.operations;
    if (!operation) throw new Error("no operation");
    const error = violation({ ...valid, operations: [{ ...operation, path: "a" }] });
    expect(error.location).toEqual({ pointer: "/paths/~1a/get/path" });
  });
});
