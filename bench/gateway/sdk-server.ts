/**
 * The "official SDK" contestant: what a team would write with `@modelcontextprotocol/sdk` —
 * an McpServer with one tool `getPet({ petId })` that calls `GET /pets/{petId}` on the backend
 * through an undici Pool, behind the SDK's stateful StreamableHTTPServerTransport (one session,
 * `enableJsonResponse: true`, so results come back as JSON on the POST) on `node:http`.
 *
 *   node bench/gateway/sdk-server.ts <backend-url>   (prints `listening <url>`)
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Pool } from "undici";
import { z } from "zod";

const backendUrl = process.argv[2];
if (!backendUrl) throw new Error("usage: sdk-server.ts <backend-url>");
const backend = new Pool(backendUrl, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });

const server = new McpServer({ name: "sdk-pets", version: "1.0.0" });
server.registerTool(
  "getPet",
  { description: "Get a pet", inputSchema: { petId: z.number().int() } },
  async ({ petId }) => {
    const response = await backend.request({ method: "GET", path: `/pets/${petId}` });
    return { content: [{ type: "text", text: await response.body.text() }] };
  },
);
// Stateful: the transport holds the one session the benchmark opens.
const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, enableJsonResponse: true });
await server.connect(transport);

const http = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8");
    transport.handleRequest(request, response, text ? JSON.parse(text) : undefined).catch((error: Error) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
});
http.keepAliveTimeout = 60_000;
http.listen(0, "127.0.0.1", () => {
  const { port } = http.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}/mcp`);
});
process.on("SIGTERM", () => process.exit(0));
