/**
 * The playground's MCP client (ui/src/app/mcp-client.ts) against a server answering as a gateway
 * does: an answer sent as an event stream may carry notifications and the server's own requests
 * before the result, and only the result is the answer.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "./app/mcp-client.ts";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server answering every POST with `events` (JSON-RPC messages) as one event stream. */
async function eventStreamServer(events: (id: unknown) => unknown[]): Promise<string> {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const { id } = JSON.parse(body) as { id: unknown };
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        events(id)
          .map((message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`)
          .join(""),
      );
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe("McpClient", () => {
  it("takes the result from an event stream, past notifications and a server's request of the same id", async () => {
    const url = await eventStreamServer((id) => [
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "calling the backend" } },
      { jsonrpc: "2.0", id, method: "ping" },
      { jsonrpc: "2.0", id, result: { tools: [{ name: "listPets", inputSchema: { type: "object" } }] } },
    ]);
    const listed = await new McpClient(url, "2026-07-28", { kind: "apiKey", value: "" }).listTools();
    expect(listed.failure).toBeUndefined();
    expect(listed.result?.tools.map((tool) => tool.name)).toEqual(["listPets"]);
  });
});
