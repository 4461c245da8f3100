/**
 * Backends against real loopback listeners: what a client learns of an unreachable backend, or of
 * one whose connection fails mid-answer (a correlation id, no address or error code), and what the
 * log learns (where and why, never the request's query, which may carry the backend secret).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CompiledExposition } from "@atrium/contract";
import { freePort } from "@atrium/control-plane/testing";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { Backends, SHARE_CONNECTIONS } from "./backend.ts";
import { parseBackendEndpoint } from "./tools/request.ts";

const backends = new Backends({ maxBodyBytes: 1024 });
afterAll(() => backends.close());

const plan = {
  backendTimeoutMs: 2_000,
  backendSecret: { source: "value", value: "s3cret-value", in: "query", name: "api_key" },
} as unknown as CompiledExposition["plan"];

describe("Backends", () => {
  it("tells the client the backend is unreachable with a correlation id, and the log where and why", async () => {
    const logged: { fields: Record<string, unknown>; message: string }[] = [];
    const warn = (fields: Record<string, unknown>, message: string) => {
      logged.push({ fields, message });
    };
    backends.setLogger({ warn: warn as FastifyBaseLogger["warn"], info: () => {} });
    const port = await freePort();
    const outcome = await backends.call(
      parseBackendEndpoint(`http://127.0.0.1:${port}/api`),
      plan,
      { method: "GET", path: "/pets?status=sold", headers: {} },
      {},
      { share: {} },
    );
    expect(outcome.kind).toBe("error");
    const message = outcome.kind === "error" ? outcome.message : "";
    const correlationId = /correlation id ([0-9a-f]{16})/.exec(message)?.[1];
    expect(message).toMatch(/^The backend is unreachable \(correlation id [0-9a-f]{16}\)$/);
    expect(message).not.toContain("127.0.0.1");
    expect(message).not.toContain("ECONNREFUSED");

    expect(logged).toHaveLength(1);
    expect(logged[0]?.message).toBe("backend unreachable");
    expect(logged[0]?.fields).toMatchObject({
      correlationId,
      backend: `http://127.0.0.1:${port}`,
      code: "ECONNREFUSED",
    });
    expect(JSON.stringify(logged)).not.toContain("s3cret-value");
    expect(JSON.stringify(logged)).not.toContain("status=sold");
  });

  it("times out calls waiting for their share at the timeout too, and closes the connections of those it aborts", async () => {
    let received = 0;
    const server = createServer(() => {
      received++; // and never answers
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const call = (backendTimeoutMs: number) =>
      backends.call(
        parseBackendEndpoint(`http://127.0.0.1:${port}`),
        { backendTimeoutMs } as CompiledExposition["plan"],
        { method: "GET", path: "/", headers: {} },
        {},
        { share },
      );
    const share = {};
    try {
      // The share's connections held by calls with a long timeout; the calls queued behind them
      // have a short one, so no connection can free up before their deadline (deterministic, even
      // on a loaded machine).
      const holding = Array.from({ length: SHARE_CONNECTIONS }, () => call(3_000));
      const started = performance.now();
      const queued = await Promise.all(Array.from({ length: 24 }, () => call(300)));
      expect(queued.every((outcome) => outcome.kind === "timeout")).toBe(true);
      expect(performance.now() - started).toBeLessThan(2_000); // at their own timeout, not after a share frees up
      expect(received).toBeLessThanOrEqual(SHARE_CONNECTIONS);
      const held = await Promise.all(holding);
      expect(held.every((outcome) => outcome.kind === "timeout")).toBe(true);
      expect(received).toBe(SHARE_CONNECTIONS); // the holding calls, and none of the queued ones
      await expect
        .poll(() => new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count))))
        .toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("says an answer was cut short when the connection fails after the backend began it", async () => {
    const logged: Record<string, unknown>[] = [];
    const warn = (fields: Record<string, unknown>) => {
      logged.push(fields);
    };
    backends.setLogger({ warn: warn as FastifyBaseLogger["warn"], info: () => {} });
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"pets":[', () => res.socket?.resetAndDestroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const outcome = await backends.call(
        parseBackendEndpoint(`http://127.0.0.1:${port}`),
        plan,
        { method: "GET", path: "/", headers: {} },
        {},
        { share: {} },
      );
      const message = outcome.kind === "error" ? outcome.message : JSON.stringify(outcome);
      expect(message).toMatch(
        /^The backend's answer \(HTTP 200\) was cut short: its connection closed before the end \(correlation id [0-9a-f]{16}\)$/,
      );
      expect(logged.at(-1)).toMatchObject({ backend: `http://127.0.0.1:${port}`, status: 200 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps the circuit breaker of a slow backend closed when a burst's overflow times out in the share's queue", async () => {
    let received = 0;
    const server = createServer((_req, res) => {
      received++;
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), 400);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const slowPlan = {
      id: "slow-plan",
      backendTimeoutMs: 1_000,
      circuitBreaker: { enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 },
    } as CompiledExposition["plan"];
    const share = {};
    const call = () =>
      backends.call(
        parseBackendEndpoint(`http://127.0.0.1:${port}`),
        slowPlan,
        { method: "GET", path: "/", headers: {} },
        {},
        { share },
      );
    try {
      // Three waves of 16 for one tool: answered at 400 ms and 800 ms; the third gets its slots at
      // 800 ms and times out at 1 s, after 200 ms at the backend: the queue's fault, not the backend's.
      const burst = await Promise.all(Array.from({ length: 3 * SHARE_CONNECTIONS }, call));
      const kinds = burst.map((outcome) => outcome.kind);
      expect(kinds.filter((kind) => kind === "response")).toHaveLength(2 * SHARE_CONNECTIONS);
      expect(kinds.filter((kind) => kind === "timeout")).toHaveLength(SHARE_CONNECTIONS);
      // 16 timeouts in a row after the last answer (5 open it): still closed, the next call is answered.
      expect((await call()).kind).toBe("response");
      expect(received).toBeGreaterThan(3 * SHARE_CONNECTIONS);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("names an environment variable without a value in the log only", async () => {
    const logged: Record<string, unknown>[] = [];
    const warn = (fields: Record<string, unknown>) => {
      logged.push(fields);
    };
    backends.setLogger({ warn: warn as FastifyBaseLogger["warn"], info: () => {} });
    const variable = "ATRIUM_BACKEND_SECRET_NEVER_SET_IN_TESTS";
    const outcome = await backends.call(
      parseBackendEndpoint("http://127.0.0.1:1"),
      {
        backendTimeoutMs: 1_000,
        backendSecret: { source: "env", variable, in: "header", name: "x-key" },
      } as unknown as CompiledExposition["plan"],
      { method: "GET", path: "/", headers: {} },
      {},
      { share: {} },
    );
    const message = outcome.kind === "error" ? outcome.message : "";
    expect(message).toMatch(/^The gateway has no value for the backend secret \(correlation id [0-9a-f]{16}\)$/);
    expect(logged).toEqual([{ correlationId: /correlation id (\w+)/.exec(message)?.[1], variable }]);
  });

  it("gives a call the deadline leaves no time for the gateway's timeout at once", async () => {
    const outcome = await backends.call(
      parseBackendEndpoint("http://127.0.0.1:1"),
      plan,
      { method: "GET", path: "/", headers: {} },
      {},
      { share: {}, deadline: performance.now() - 1 },
    );
    expect(outcome).toEqual({ kind: "timeout", ms: 2_000 });
  });
});
