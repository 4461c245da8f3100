/**
 * The gateway's servers as built for production, read through their log: request URLs are
 * logged without their query string (a backend secret or key may travel in it), and a backend
 * that cannot be reached is logged with its origin, error code and correlation id only.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import type { CompiledExposition } from "@atrium/contract";
import { captureOutput } from "@atrium/reliability/secrets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Backends } from "./backend.ts";
import { SessionSigner } from "./mcp/sessions.ts";
import { GatewayMetrics } from "./metrics.ts";
import { ExpositionRegistry } from "./registry.ts";
import { buildGatewayServer } from "./server.ts";
import { parseBackendEndpoint } from "./tools/request.ts";

const lines: string[] = [];
const logStream = new PassThrough();
logStream.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
captureOutput("gateway", logStream); // and to the run dir, for the end-of-run secrets scan
const backends = new Backends({ maxBodyBytes: 1024 });
let app: Awaited<ReturnType<typeof buildGatewayServer>>;

beforeAll(async () => {
  app = await buildGatewayServer({
    config: {
      bodyLimitBytes: 1024,
      maxResultBytes: 1024,
      logLevel: "info",
      allowedHosts: undefined,
      managementHost: "127.0.0.1",
      managementPort: 0,
      maxBatchSize: 32,
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
      maxConnectionsPerAddress: 16,
    },
    registry: new ExpositionRegistry(),
    backends,
    sessions: new SessionSigner(),
    metrics: new GatewayMetrics(),
    version: "test",
    isReady: () => true,
    logStream,
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await backends.close();
});

describe("gateway log hygiene", () => {
  it("logs request URLs without their query string", async () => {
    app.log.info({ req: { method: "POST", url: "/mcp/org/expo?api_key=s3cret&x=1" } }, "a request");
    await new Promise((resolve) => setImmediate(resolve));
    const line = JSON.parse(lines.find((l) => l.includes('"a request"')) ?? "{}");
    expect(line.req).toEqual({ method: "POST", url: "/mcp/org/expo" });
    expect(lines.join("\n")).not.toContain("s3cret");
  });

  it("logs an unreachable backend's origin, code and correlation id, never its path or query", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await backends.call(
      parseBackendEndpoint(`http://127.0.0.1:${port}/base?tenant=t1`),
      {
        backendTimeoutMs: 1_000,
        backendSecret: { source: "value", value: "s3cret-query", in: "query", name: "key" },
      } as unknown as CompiledExposition["plan"],
      { method: "GET", path: "/pets?owner=alice", headers: {} },
      {},
      { share: {} },
    );
    await new Promise((resolve) => setImmediate(resolve));
    const correlationId = outcome.kind === "error" ? /correlation id (\w+)/.exec(outcome.message)?.[1] : undefined;
    const line = JSON.parse(lines.find((l) => l.includes('"backend unreachable"')) ?? "{}");
    expect(line).toMatchObject({ correlationId, backend: `http://127.0.0.1:${port}`, code: "ECONNREFUSED" });
    const text = lines.join("\n");
    for (const secret of ["s3cret-query", "owner=alice", "tenant=t1", "/pets"]) expect(text).not.toContain(secret);
  });
});
