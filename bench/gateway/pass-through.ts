/**
 * The "pass-through" contestant: the least a Node MCP hop can do — fastify parses the JSON-RPC
 * body, takes `params.arguments.petId`, calls the backend through an undici Pool (the gateway's
 * pool settings) and wraps the backend's body as a text result. No validation, no headers
 * checked, no metrics: the practical Node ceiling for one hop.
 *
 * The backend call is `GET /pets/{petId}`, or with `graphql` (the GraphQL contestants' own
 * pass-through) `POST /graphql` of `{query, operationName, variables: {petId}}`, the document the
 * gateway sends (pets-graphql.ts); the GraphQL answer is wrapped as it comes, not read.
 *
 *   node bench/gateway/pass-through.ts <backend-url> [graphql]   (prints `listening <url>`)
 */
import Fastify from "fastify";
import { Pool } from "undici";
import { GET_PET_DOCUMENT } from "./pets-graphql.ts";

const [backendUrl, mode] = process.argv.slice(2);
if (!backendUrl || (mode !== undefined && mode !== "graphql"))
  throw new Error("usage: pass-through.ts <backend-url> [graphql]");
const backend = new Pool(backendUrl, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });

interface ToolCall {
  id: string | number;
  params: { arguments: { petId: number } };
}

const graphqlPrefix = `{"query":${JSON.stringify(GET_PET_DOCUMENT)},"operationName":"getPet","variables":{"petId":`;
const graphqlHeaders = {
  "content-type": "application/json",
  accept: "application/graphql-response+json, application/json",
};
const backendRequest = (petId: number) =>
  mode === "graphql"
    ? { method: "POST" as const, path: "/graphql", headers: graphqlHeaders, body: `${graphqlPrefix}${petId}}}` }
    : { method: "GET" as const, path: `/pets/${petId}` };

const app = Fastify({ logger: false });
app.post("/mcp", async (request, reply) => {
  const call = request.body as ToolCall;
  const response = await backend.request(backendRequest(call.params.arguments.petId));
  const text = await response.body.text();
  reply.type("application/json");
  return JSON.stringify({ jsonrpc: "2.0", id: call.id, result: { content: [{ type: "text", text }] } });
});

const url = await app.listen({ host: "127.0.0.1", port: 0 });
console.log(`listening ${url}`);
process.on("SIGTERM", () => {
  app.close().then(() => process.exit(0));
});
