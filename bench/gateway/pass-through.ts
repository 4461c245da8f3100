/**
 * The "pass-through" contestant: the least a Node MCP hop can do — fastify parses the JSON-RPC
 * body, takes `params.arguments.petId`, calls `GET /pets/{petId}` on the backend through an
 * undici Pool (the gateway's pool settings) and wraps the backend's body as a text result. No
 * validation, no headers checked, no metrics: the practical Node ceiling for one hop.
 *
 *   node bench/gateway/pass-through.ts <backend-url>   (prints `listening <url>`)
 */
import Fastify from "fastify";
import { Pool } from "undici";

const backendUrl = process.argv[2];
if (!backendUrl) throw new Error("usage: pass-through.ts <backend-url>");
const backend = new Pool(backendUrl, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });

interface ToolCall {
  id: string | number;
  params: { arguments: { petId: number } };
}

const app = Fastify({ logger: false });
app.post("/mcp", async (request, reply) => {
  const call = request.body as ToolCall;
  const response = await backend.request({ method: "GET", path: `/pets/${call.params.arguments.petId}` });
  const text = await response.body.text();
  reply.type("application/json");
  return JSON.stringify({ jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text }] } });
});

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(`listening ${url}`);
process.on("SIGTERM", () => {
  app.close().then(() => process.exit(0));
});
