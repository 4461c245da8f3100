/**
 * Rich tool results end to end: a backend answering multipart/mixed, and an operation marked
 * `x-mcp-content: true` answering its own MCP content blocks, called through a gateway by the
 * official clients (v1 in a 2025-11-25 session, v2 pinned to 2026-07-28). Both clients check each
 * result against their schema of the protocol, and an outputSchema against structuredContent.
 */
import { createServer, type ServerResponse } from "node:http";
import { useDuringTests } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import {
  connectLegacyClient,
  connectModernClient,
  listenLocally,
  PNG,
  type Stack,
  useStack,
  waitFor,
} from "./testing.ts";

const BOUNDARY = "rich-sep";
const order = { id: 7, status: "shipped" };
const blocks = [
  { type: "text", text: "Order 7 and its invoice:" },
  { type: "resource", resource: { uri: "test://invoices/7", mimeType: "text/csv", text: "item,qty\npen,2" } },
  { type: "resource_link", uri: "https://shop.example/orders/7", name: "order 7" },
];

function multipart(parts: [string, string | Buffer][]): Buffer {
  return Buffer.concat([
    ...parts.flatMap(([headers, body]) => [
      Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`),
      Buffer.from(body),
      Buffer.from("\r\n"),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
}

async function startRichBackend() {
  const send = (res: ServerResponse, type: string, body: string | Buffer) =>
    res.writeHead(200, { "content-type": type }).end(body);
  const mixed = `multipart/mixed; boundary=${BOUNDARY}`;
  const server = createServer((req, res) => {
    req.resume();
    switch (req.url) {
      case "/report":
        return send(
          res,
          mixed,
          multipart([
            ["Content-Type: text/plain", "The shipping report:"],
            ["Content-Type: image/png", PNG],
            ["Content-Type: application/json\r\nContent-Location: test://orders/7", JSON.stringify(order)],
            ["Content-Type: application/pdf", Buffer.from("%PDF-1.7")],
          ]),
        );
      case "/order":
        return send(res, mixed, multipart([["Content-Type: application/json", JSON.stringify(order)]]));
      case "/stray-order":
        return send(res, mixed, multipart([["Content-Type: application/json", '{"id":"seven"}']]));
      case "/blocks":
        return send(res, "application/json", JSON.stringify(blocks));
      case "/bad-blocks":
        return send(res, "application/json", JSON.stringify([{ type: "text", text: "ok" }, { type: "text" }]));
      default:
        res.writeHead(404).end();
    }
  });
  return listenLocally(server);
}

const get = (operationId: string, contentType: string, extra: Record<string, unknown> = {}) => ({
  get: { operationId, responses: { "200": { description: "ok", content: { [contentType]: {} } } }, ...extra },
});
const orderSchema = {
  type: "object",
  properties: { id: { type: "integer" }, status: { type: "string" } },
  required: ["id"],
};
const typedOrder = (operationId: string) => ({
  get: {
    operationId,
    responses: { "200": { description: "ok", content: { "application/json": { schema: orderSchema } } } },
  },
});
const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "rich", version: "1" },
  paths: {
    "/report": get("report", "multipart/mixed"),
    "/order": typedOrder("order"),
    "/stray-order": typedOrder("strayOrder"),
    "/blocks": get("blocks", "application/json", { "x-mcp-content": true }),
    "/bad-blocks": get("badBlocks", "application/json", { "x-mcp-content": true }),
  },
});

let url: string;
let apiKey: string;
let gateway: Gateway;

const backend = useDuringTests(startRichBackend, (started) => started.close());
useStack(async (stack: Stack) => {
  const plan = { backendEndpoint: backend().url, apiKey: true };
  const exposed = await stack.expose("rich", { openapi: OPENAPI, plan });
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(exposed.expositionId) !== undefined, "the rich exposition served");
  url = `${gateway.url}/mcp/${exposed.expositionId}`;
  apiKey = exposed.apiKey ?? "";
});

/** `use` with a client of `connect`, closed afterwards. */
async function withClient<C extends { close(): Promise<void> }>(
  connect: () => Promise<C>,
  use: (client: C) => Promise<void>,
) {
  const client = await connect();
  try {
    await use(client);
  } finally {
    await client.close();
  }
}

type OfficialClient = Awaited<ReturnType<typeof connectLegacyClient | typeof connectModernClient>>;
const clients: { era: string; connect: () => Promise<OfficialClient> }[] = [
  { era: "v1, 2025-11-25 session", connect: () => connectLegacyClient(url, apiKey) },
  { era: "v2, 2026-07-28", connect: () => connectModernClient(url, apiKey) },
];

describe.each(clients)("rich tool results with the official client ($era)", ({ connect }) => {
  it("turns a multipart/mixed answer into text, image and embedded resources", async () => {
    await withClient(connect, async (client) => {
      const result = await client.callTool({ name: "report", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([
        { type: "text", text: "The shipping report:" },
        { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "test://orders/7", mimeType: "application/json", text: JSON.stringify(order) },
        },
        {
          type: "resource",
          resource: {
            uri: "cid:part-4",
            mimeType: "application/pdf",
            blob: Buffer.from("%PDF-1.7").toString("base64"),
          },
        },
      ]);
      expect(result.structuredContent).toEqual(order);
    });
  });

  it("keeps the outputSchema promise with the first JSON part", async () => {
    await withClient(connect, async (client) => {
      const listed = await client.listTools();
      expect(listed.tools.find((tool) => tool.name === "order")?.outputSchema).toMatchObject({ type: "object" });
      const result = await client.callTool({ name: "order", arguments: {} });
      expect(result).toMatchObject({
        structuredContent: order,
        content: [{ type: "text", text: JSON.stringify(order) }],
      });
      const stray = await client.callTool({ name: "strayOrder", arguments: {} });
      expect(stray.isError).toBe(true);
      expect(stray.structuredContent).toBeUndefined();
      expect(JSON.stringify(stray.content)).toContain("does not match the tool's output schema");
    });
  });

  it("passes a declared content array on, and makes a bad one a tool error", async () => {
    await withClient(connect, async (client) => {
      const listed = await client.listTools();
      expect(listed.tools.find((tool) => tool.name === "blocks")?.outputSchema).toBeUndefined();
      const result = await client.callTool({ name: "blocks", arguments: {} });
      expect(result.content).toEqual(blocks);
      expect(result.structuredContent).toBeUndefined();
      const bad = await client.callTool({ name: "badBlocks", arguments: {} });
      expect(bad.isError).toBe(true);
      expect(bad.content).toEqual([
        {
          type: "text",
          text: expect.stringMatching(
            /^HTTP 200 OK\nThe backend's answer is declared an MCP content array \(x-mcp-content\), but item 2 is not a valid MCP content block \(text\): /,
          ),
        },
      ]);
    });
  });
});
