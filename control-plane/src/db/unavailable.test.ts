/**
 * A database that goes away answers 503 DATABASE_UNAVAILABLE (with Retry-After), never a 500,
 * and the control plane serves again once it is back, without a restart. The outage is real: the
 * control plane reaches PostgreSQL through a TCP relay on 127.0.0.1 that the test closes (every
 * connection cut, new ones refused) and opens again on the same port. A connection lost in the
 * middle of a transaction fails that transaction, never the process; a change stream that cannot
 * read its opening event is ended, so its gateway reconnects.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  freePort,
  openChangeStream,
  registerGateway,
  startTestControlPlane,
  type TestDatabase,
  tokenClient,
} from "../testing.ts";
import { isDatabaseUnavailable } from "./unavailable.ts";

/**
 * Relays 127.0.0.1:<port> to the test PostgreSQL; `close` cuts everything, `open` listens again.
 * `answerDelayMs` holds back what the database answers, so a test can cut a query in flight.
 */
function relay(port: number, target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  return {
    async open(answerDelayMs = 0) {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => undefined);
        }
        client.pipe(upstream);
        if (answerDelayMs === 0) upstream.pipe(client);
        else upstream.on("data", (chunk: Buffer) => setTimeout(() => client.write(chunk), answerDelayMs));
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(port, "127.0.0.1", resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      const closing = server;
      server = undefined;
      if (closing) await new Promise((resolve) => closing.close(resolve));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("isDatabaseUnavailable", () => {
  it("knows a refused connection (also wrapped, as drizzle wraps it) and a server shutting down", async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/test` });
    const refused = await client.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeDefined();
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new Error("Failed query: select 1", { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating connection"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("does not take a refused query for an outage", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("syntax error"), { code: "42601" }))).toBe(false);
    expect(isDatabaseUnavailable(new Error("something else"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe("a control plane whose database goes away", () => {
  let database: TestDatabase | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await database?.drop();
  });

  it("answers 503 DATABASE_UNAVAILABLE while it is gone, and serves again once it is back", async () => {
    database = await createTestDatabase();
    const target = new URL(database.url);
    const port = await freePort();
    const link = relay(port, target);
    await link.open();
    cleanups.push(() => link.close());
    const viaRelay = new URL(database.url);
    viaRelay.host = `127.0.0.1:${port}`;
    const controlPlane = await startTestControlPlane("postgres", { databaseUrl: viaRelay.toString() });
    cleanups.push(() => controlPlane.close());
    const admin = controlPlane.admin;
    expect((await admin.call("POST", "/api/v1/gateway-groups", { name: "before", labels: {} })).status).toBe(201);

    await link.close();
    for (const name of ["during-1", "during-2"]) {
      const refused = await admin.call("POST", "/api/v1/gateway-groups", { name, labels: {} });
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toBe("5");
      expect(refused.body).toMatchObject({ code: "DATABASE_UNAVAILABLE", status: 503 });
      expect(refused.body.detail).toMatch(/database is unavailable.*try again/);
    }
    expect((await controlPlane.api.call("GET", "/q/health/ready")).status).toBe(503);
    expect((await controlPlane.api.call("GET", "/q/health/live")).status).toBe(200);

    await link.open();
    expect((await admin.call("POST", "/api/v1/gateway-groups", { name: "after", labels: {} })).status).toBe(201);
    expect((await controlPlane.api.call("GET", "/q/health/ready")).status).toBe(200);
    const names = (await admin.call("GET", "/api/v1/gateway-groups")).body.items.map((g: { name: string }) => g.name);
    expect(names).toEqual(["before", "after"]);

    // A connection lost while a transaction holds it (between two statements) fails that
    // transaction, and only it: it used to crash the process (an 'error' event nobody listened to).
    const { db } = controlPlane.database;
    const cutMidTransaction = db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await link.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 2`);
    });
    await expect(cutMidTransaction).rejects.toSatisfy(isDatabaseUnavailable);
    await link.open();
    expect((await admin.call("POST", "/api/v1/gateway-groups", { name: "later", labels: {} })).status).toBe(201);

    // A change stream whose opening event cannot be read (the database went away after the
    // answer's headers) is ended, so the gateway reconnects: it used to stay open with heartbeats
    // only, and the gateway took itself for current without the changes it missed.
    const gatewayClient = await tokenClient(controlPlane);
    const gateway = { id: "gw-unavailable", instanceId: "instance-unavailable" };
    await registerGateway(gatewayClient, gateway, {});
    // The change hub has read every change by now (it polls every 2 s): none ends the stream for us.
    await sleep(2_500);
    await link.close();
    await link.open(300);
    const stream = await openChangeStream(controlPlane.url, gatewayClient.token as string, gateway, 0);
    expect(stream.status).toBe(200);
    await link.close(); // the opening event's queries are in flight, their answers held back
    await link.open();
    const ended = await Promise.race([stream.ended.then(() => true), sleep(4_000).then(() => false)]);
    stream.close();
    expect(stream.events).toEqual([]);
    expect(ended).toBe(true);
  });
});
