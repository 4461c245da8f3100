/**
 * The benchmark's backend: a bare `node:http` server answering `GET /pets/{id}` with a small
 * JSON pet (44 bytes), `GET /large/pets/{id}` with a pet of about 10 KB (its owner, category, tags
 * and visit history: the output filter benchmark's answer), 404 for anything else. Started by
 * run.ts as a child process; it prints `listening <url>` once it accepts connections.
 *
 *   node bench/gateway/backend.ts [port]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { largePet } from "./large-pet.ts";

const petPath = /^\/(large\/)?pets\/(\d+)$/;

const server = createServer((request, response) => {
  const match = request.method === "GET" ? petPath.exec(request.url ?? "") : null;
  if (!match) {
    response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    return;
  }
  const petId = match[2] as string;
  const body = JSON.stringify(
    match[1] ? largePet(Number(petId)) : { id: Number(petId), name: `pet-${petId}`, status: "available" },
  );
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
