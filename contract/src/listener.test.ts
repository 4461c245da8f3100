/**
 * The listener limits on a plain Node HTTP server (both servers' own listeners are tested with
 * them in place): a request whose headers never finish is answered 408 and closed within the
 * timeout plus the check interval, and connections over the per-address cap are closed at once;
 * on shutdown, a connection that never sent a request is closed at once, one whose answer is on
 * its way is not.
 */
import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { capConnectionsPerAddress, slowClientOptions, trackConnections } from "./listener.ts";

let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function listen(limits: Parameters<typeof slowClientOptions>[0]): Promise<number> {
  const options = slowClientOptions(limits);
  server = createServer({ ...options.http, requestTimeout: options.requestTimeout }, (_request, response) =>
    response.end("ok"),
  );
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the test server has no port");
  return address.port;
}

/** A connection that has sent `payload`; resolves with everything it received once it is closed. */
function exchange(port: number, payload: string): { opened: Promise<Socket>; closed: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk;
  });
  socket.on("error", () => undefined);
  return {
    opened: new Promise((resolve) =>
      socket.once("connect", () => {
        socket.write(payload);
        resolve(socket);
      }),
    ),
    closed: new Promise((resolve) => socket.once("close", () => resolve(received))),
  };
}

describe("listener limits", () => {
  it("answers 408 and closes a request whose headers never finish", async () => {
    const port = await listen({ headersTimeoutMs: 500, requestTimeoutMs: 1_000, maxConnectionsPerAddress: 10 });
    const started = performance.now();
    const slow = exchange(port, "GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1");
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(2_500);
  });

  it("closes connections over the per-address cap at once and serves the others", async () => {
    const port = await listen({ headersTimeoutMs: 5_000, requestTimeoutMs: 10_000, maxConnectionsPerAddress: 3 });
    const held = Array.from({ length: 3 }, () => exchange(port, ""));
    await Promise.all(held.map((connection) => connection.opened));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server has counted them
    const extra = exchange(port, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    expect(await extra.closed).toBe("");
    const first = held[0];
    if (!first) throw new Error("no held connection");
    (await first.opened).end("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect(await first.closed).toMatch(/^HTTP\/1\.1 200[\s\S]*ok$/);
  });
});

describe("shutdown", () => {
  it("closes a connection that never sent a request at once, and lets a request in flight finish", async () => {
    let answer: (() => void) | undefined;
    server = createServer({ headersTimeout: 60_000 }, (_request, response) => {
      answer = () => response.end("done");
    });
    const connections = trackConnections(server);
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const unused = exchange(port, "");
    const inFlight = exchange(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await Promise.all([unused.opened, inFlight.opened]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    connections.closeUnused();
    const closing = new Promise((resolve) => server?.close(resolve));
    expect(await unused.closed).toBe("");
    expect(Date.now() - started).toBeLessThan(1_000);
    answer?.();
    expect(await inFlight.closed).toContain("done");
    await closing;
    server = undefined;
  });
});
