/**
 * The floor of the tools/list scale check: a bare `node:http` server answering every request
 * with the same JSON file (the gateway's own tools/list answer, read once at start), so the
 * report can tell the gateway's time from what moving that many bytes over loopback costs.
 *
 *   node bench/gateway/static-json.ts <file.json>   (prints `listening <url>`)
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const file = process.argv[2];
if (!file) throw new Error("usage: static-json.ts <file.json>");
const body = readFileSync(file);

const server = createServer((request, response) => {
  // Read (and drop) the request body, as the gateway has to.
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`listening http://127.0.0.1:${port}`);
});
process.on("SIGTERM", () => process.exit(0));
