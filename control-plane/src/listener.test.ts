/**
 * The control plane's listener against slow and greedy clients: requests whose headers or body
 * never finish are closed within seconds, connections over the per-address cap at once, and a
 * setting that would switch a limit off is refused.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "./config.ts";
import { startTestControlPlane, type TestControlPlane } from "./testing.ts";

let controlPlane: TestControlPlane;
let port: number;

beforeAll(async () => {
  controlPlane = await startTestControlPlane("pglite", {
    config: { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, maxConnectionsPerAddress: 420 },
  });
  port = Number(new URL(controlPlane.url).port);
});
afterAll(async () => {
  await controlPlane?.close();
});

/** A connection that has sent `payload` and reads (and drops) whatever comes back. */
function open(payload: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(payload);
      resolve(socket);
    });
    socket.on("error", reject);
    socket.resume();
  });
}

const isClosed = (socket: Socket) => socket.destroyed || socket.readableEnded;

describe("control-plane listener", () => {
  it("closes 400 connections whose headers or body never finish within a few seconds", async () => {
    const head = "POST /api/v1/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";
    const started = performance.now();
    const sockets = await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        open(i % 2 === 0 ? `${head}Content-Length: 1000\r\n\r\n{"organization":` : `${head}X-Slow: 1`),
      ),
    );
    for (const socket of sockets) socket.on("error", () => undefined);
    while (sockets.some((s) => !isClosed(s)) && performance.now() - started < 6_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(sockets.filter((s) => !isClosed(s))).toHaveLength(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it("closes connections over the per-address cap at once", async () => {
    const sockets = await Promise.all(Array.from({ length: 430 }, () => open("")));
    for (const socket of sockets) socket.on("error", () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // 10 over the cap, plus as many as the test's own admin client keeps open
    const closed = sockets.filter(isClosed).length;
    expect(closed).toBeGreaterThanOrEqual(10);
    expect(closed).toBeLessThanOrEqual(20);
    for (const socket of sockets) socket.destroy();
  });

  it("refuses settings that would switch a limit off", () => {
    expect(() => configFromEnv({ ATRIUM_REQUEST_TIMEOUT_MS: "0" })).toThrow(/ATRIUM_REQUEST_TIMEOUT_MS/);
    expect(() => configFromEnv({ ATRIUM_HEADERS_TIMEOUT_MS: "9000", ATRIUM_REQUEST_TIMEOUT_MS: "5000" })).toThrow(
      /must not exceed/,
    );
    expect(configFromEnv({})).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 });
  });
});
