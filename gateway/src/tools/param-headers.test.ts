import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Backends } from "../backend.ts";
import { handleModern } from "../mcp/modern.ts";
import { ERROR, type JsonRpcRequest, McpError, META } from "../mcp/protocol.ts";
import { serve } from "../registry.ts";
import { listenLocally } from "../testing.ts";
import { compileToolset } from "./compile.ts";
import { exposition, operation } from "./fixtures.ts";

const search = operation({
  operationId: "search",
  method: "GET",
  path: "/search",
  parameters: [
    { name: "region", in: "query", required: true, schema: { type: "string", "x-mcp-header": "Region" } },
    { name: "priority", in: "query", required: false, schema: { type: "integer", "x-mcp-header": "Priority" } },
    { name: "verbose", in: "query", required: false, schema: { type: "boolean", "x-mcp-header": "Verbose" } },
    { name: "score", in: "query", required: false, schema: { type: "number", "x-mcp-header": "Score" } },
    { name: "spaced", in: "query", required: false, schema: { type: "string", "x-mcp-header": "My Region" } },
    { name: "accented", in: "query", required: false, schema: { type: "string", "x-mcp-header": "Région" } },
    { name: "again", in: "query", required: false, schema: { type: "string", "x-mcp-header": "region" } },
    { name: "filter", in: "query", required: false, schema: { type: "object", "x-mcp-header": "Filter" } },
    { name: "q", in: "query", required: false, schema: { type: "string" } },
  ],
  responses: [{ status: "200", contentType: "application/json", schema: { type: "object" } }],
});

describe("x-mcp-header annotations", () => {
  const toolset = compileToolset(exposition({ operations: [search] }));
  const tool = toolset.tools[0];
  const properties = tool?.inputSchema.properties as Record<string, Record<string, unknown>>;

  it("are published on string, integer and boolean properties with valid, distinct names", () => {
    expect(properties.region?.["x-mcp-header"]).toBe("Region");
    expect(properties.priority?.["x-mcp-header"]).toBe("Priority");
    expect(properties.verbose?.["x-mcp-header"]).toBe("Verbose");
    expect(toolset.get("search")?.paramHeaders).toEqual([
      { property: "region", header: "mcp-param-region", type: "string" },
      { property: "priority", header: "mcp-param-priority", type: "integer" },
      { property: "verbose", header: "mcp-param-verbose", type: "boolean" },
    ]);
  });

  it("are left out, with a warning each, where clients would refuse the tool", () => {
    for (const name of ["score", "spaced", "accented", "again", "filter", "q"]) {
      expect(properties[name]?.["x-mcp-header"], name).toBeUndefined();
    }
    expect(toolset.warnings).toEqual([
      expect.stringMatching(/"Score" of property score is only allowed on string, integer and boolean/),
      expect.stringMatching(/"My Region" of property spaced is not a header name/),
      expect.stringMatching(/"Région" of property accented is not a header name/),
      expect.stringMatching(/"region" of property again repeats another property's header name/),
      expect.stringMatching(/"Filter" of property filter is only allowed on string/),
    ]);
  });

  it("are read from a custom tool's inputSchema too", () => {
    const custom = compileToolset(
      exposition({
        operations: [],
        customTools: [
          {
            name: "byTenant",
            description: "d",
            inputSchema: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
            request: { method: "GET", path: "/tenants/{{tenant}}" },
          },
        ],
      }),
    );
    expect(custom.get("byTenant")?.paramHeaders).toEqual([
      { property: "tenant", header: "mcp-param-tenant", type: "string" },
    ]);
    expect(custom.tools[0]?.inputSchema.properties).toMatchObject({ tenant: { "x-mcp-header": "Tenant" } });
  });
});

describe("Mcp-Param headers on a 2026-07-28 tools/call", () => {
  let backend: Awaited<ReturnType<typeof listenLocally>>;
  const backends = new Backends({ maxBodyBytes: 1 << 20 });
  beforeAll(async () => {
    backend = await listenLocally(
      createServer((request, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ url: request.url }));
      }),
    );
  });
  afterAll(async () => {
    await backends.close();
    await backend.close();
  });

  const call = (args: Record<string, unknown>, params: Record<string, string>) => {
    const served = serve(exposition({ operations: [search], backendEndpoint: backend.url }));
    const request: JsonRpcRequest = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "search",
        arguments: args,
        _meta: { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {} },
      },
    };
    const headers = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "search",
      ...Object.fromEntries(Object.entries(params).map(([name, value]) => [`mcp-param-${name}`, value])),
    };
    return handleModern(
      request,
      headers,
      { served, clientHeaders: headers, backends, maxResultBytes: 1 << 20 },
      "public",
    );
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  };

  it("calls the backend when every header agrees with its argument (Base64 decoded, OWS trimmed)", async () => {
    const result = (await call(
      { region: "Hello", priority: 3, verbose: false },
      { region: `=?base64?${Buffer.from("Hello").toString("base64")}?=`, priority: " 3 ", verbose: "false" },
    )) as { isError?: boolean; structuredContent: { url: string } };
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.url).toBe("/search?region=Hello&priority=3&verbose=false");
    const literal = (await call({ region: "=?base64?SGVsbG8=" }, { region: "=?base64?SGVsbG8=" })) as {
      isError?: boolean;
    };
    expect(literal.isError).toBeUndefined();
  });

  it.each([
    ["a missing header", { region: "eu" }, {}, /mcp-param-region \(missing\) must equal argument region \(eu\)/],
    ["a different value", { region: "eu" }, { region: "us" }, /\(us\) must equal argument region \(eu\)/],
    ["a value of another case", { region: "eu" }, { region: "EU" }, /must equal/],
    ["Base64 with bad padding", { region: "Hello" }, { region: "=?base64?SGVsbG8?=" }, /must equal/],
    ["Base64 with foreign characters", { region: "Hello" }, { region: "=?base64?SGVs!!!bG8=?=" }, /must equal/],
    ["an integer that differs", { region: "eu", priority: 3 }, { region: "eu", priority: "4" }, /priority/],
    [
      "a header without its argument",
      { region: "eu" },
      { region: "eu", verbose: "true" },
      /is set but argument verbose is not/,
    ],
  ])("refuses %s with 400 and -32020", async (_, args, params, message) => {
    const error = await refusal(call(args, params));
    expect(error.code).toBe(ERROR.headerMismatch);
    expect(error.httpStatus).toBe(400);
    expect(error.message).toMatch(message);
  });
});
