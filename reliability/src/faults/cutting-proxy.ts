/**
 * A TCP proxy on 127.0.0.1 between a gateway and the control plane that cuts the change stream in
 * the middle of a message. Everything is relayed as is, except that on a change-stream connection
 * (one that carried `GET /api/v1/gateways/<id>/stream`) a cut order makes it forward only part of a message — up to
 * halfway between the start of its `event:` line and its end — and then close both sides. Other
 * requests (registration, health, reports) pass untouched.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

export interface CutOrder {
  /** The SSE event to cut: `snapshot` (the opening event of a stream without a usable cursor) or `changes`. */
  event: "snapshot" | "changes";
  /** Leave a connection's opening event alone (so the gateway applies it and its backoff starts over). */
  notOpening: boolean;
}

export interface Cut {
  event: string;
  /** How much of the message was forwarded, and how much of it the proxy had seen. */
  forwardedBytes: number;
  seenBytes: number;
  at: number;
}

export interface CuttingProxy {
  url: string;
  /** When each change-stream connection was opened (ms since the epoch). */
  streamConnections: number[];
  /** Cuts made, in order. */
  cuts: Cut[];
  /** Cuts the next matching message of a change stream (the live one or the next). */
  cutNext(order: CutOrder): void;
  close(): Promise<void>;
}

const STREAM_REQUEST = /^GET \/api\/v1\/gateways\/[^/ ]+\/stream/;
const EVENT_LINE = /event: ([a-z]+)\n/g;

export async function startCuttingProxy(upstreamPort: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const orders: CutOrder[] = [];
  const proxy: CuttingProxy = {
    url: "",
    streamConnections: [],
    cuts: [],
    cutNext: (order) => orders.push(order),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    let isStream = false;
    let cut = false;
    let events = 0;
    client.on("data", (chunk: Buffer) => {
      // A kept-alive connection may carry other requests before the stream (never after: it does not end).
      if (!isStream && STREAM_REQUEST.test(chunk.toString("latin1", 0, 200))) {
        isStream = true;
        proxy.streamConnections.push(Date.now());
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cut) return;
      if (!isStream) return void client.write(chunk);
      const text = chunk.toString("latin1");
      for (const match of text.matchAll(EVENT_LINE)) {
        events++;
        const order = orders[0];
        if (!order || order.event !== match[1] || (order.notOpening && events === 1)) continue;
        orders.shift();
        const start = match.index;
        const end = text.indexOf("\n\n", start);
        const seenEnd = end < 0 ? text.length : end;
        // Strictly inside the message: past its event line, before the blank line that ends it.
        const cutAt = start + Math.max(match[0].length + 1, Math.floor((seenEnd - start) / 2));
        const partial = chunk.subarray(0, Math.min(cutAt, seenEnd));
        proxy.cuts.push({
          event: order.event,
          forwardedBytes: cutAt - start,
          seenBytes: seenEnd - start,
          at: Date.now(),
        });
        cut = true;
        upstream.destroy();
        // The partial bytes leave first; then every other cut closes cleanly (FIN), the others reset (RST).
        if (proxy.cuts.length % 2 === 1) client.end(partial);
        else client.write(partial, () => client.resetAndDestroy());
        return;
      }
      client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => {
      if (!cut) client.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return proxy;
}
