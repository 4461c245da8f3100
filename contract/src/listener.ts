/**
 * Listener limits against slow and greedy clients, for the control plane's and the gateway's
 * fastify servers: Node's own header and request timeouts (a request whose headers or body
 * arrive too slowly is answered 408 and its connection closed), checked every second rather
 * than Node's default 30 s, and a cap on the connections one client address holds open.
 *
 * The request timeout covers receiving the request only: a slow backend answer or a long-lived
 * response stream (the change stream) is not cut by it.
 *
 * On shutdown, connections without a request in flight are closed at once (`closeUnused`): Node's
 * close ends idle keep-alive connections, but holds one that never sent a request (a client's
 * preconnect) until its headers time out, and the shutdown with it.
 */
import type { ServerOptions } from "node:http";
import type { Server, Socket } from "node:net";

export interface ListenerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnectionsPerAddress: number;
}

/** How often Node checks the timeouts: a timed-out request is closed at most this late. */
const CHECK_INTERVAL_MS = 1_000;

/** The fastify options that apply the timeouts. */
export function slowClientOptions(limits: ListenerLimits): { requestTimeout: number; http: ServerOptions } {
  return {
    requestTimeout: limits.requestTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: CHECK_INTERVAL_MS },
  };
}

/** Closes a new connection at once when its address already holds `max` open ones. */
export function capConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket) => {
    const address = socket.remoteAddress ?? "";
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** The server's connections, to close those with no request in flight when it shuts down. */
export function trackConnections(server: Server): { closeUnused(): void } {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => {
      open.delete(socket);
      busy.delete(socket);
    });
  });
  server.on(
    "request",
    (request: { socket: Socket }, response: { once(event: "close", listener: () => void): void }) => {
      busy.add(request.socket);
      response.once("close", () => busy.delete(request.socket));
    },
  );
  return {
    closeUnused() {
      for (const socket of open) if (!busy.has(socket)) socket.destroy();
    },
  };
}

/** The part of a fastify instance that `closeUnusedOnShutdown` needs. */
interface ClosingServer {
  server: Server;
  addHook(name: "preClose", hook: (done: () => void) => void): unknown;
}

/** Before the server closes, its connections without a request in flight are closed (see the module comment). */
export function closeUnusedOnShutdown(app: ClosingServer): void {
  const connections = trackConnections(app.server);
  app.addHook("preClose", (done) => {
    connections.closeUnused();
    done();
  });
}
