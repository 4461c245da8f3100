/**
 * Listener limits against slow and greedy clients, for the control plane's and the gateway's
 * fastify servers: Node's own header and request timeouts (a request whose headers or body
 * arrive too slowly is answered 408 and its connection closed), checked every second rather
 * than Node's default 30 s, and a cap on the connections one client address holds open.
 *
 * The request timeout covers receiving the request only: a slow backend answer or a long-lived
 * response stream (the change stream) is not cut by it.
 */
import type { ServerOptions } from "node:http";
import type { Server } from "node:net";

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
