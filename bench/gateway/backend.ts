/**
 * The benchmark's backend: a bare `node:http` server answering `GET /pets/{id}` with a small
 * JSON pet (44 bytes), 404 for anything else. Started by run.ts as a child process; it
 * prints `listening <url>` once it accepts connections.
 *
 *   node bench/gateway/backend.ts [port]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const petPath = /^\/pets\/(\d+)$/;

const server = createServer((request, response) => {
  const petId = request.method === "GET" ? petPath.exec(request.url ?? "")?.[1] : undefined;
  if (petId === undefined) {
    response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    return;
  }
  const body = JSON.stringify({ id: Number(petId), name: `pet-${petId}`, status: "available" });
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
});
// Load generators and gateways keep connections open; don't let the default 5 s timeout churn them.
server.keepAliveTimeout = 60_000;

server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}`);
});
process.on("SIGTERM", () => process.exit(0));
