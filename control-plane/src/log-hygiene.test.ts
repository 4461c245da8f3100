/**
 * Logs and problem documents: a failed query's log entry keeps its SQL and error code but not
 * its parameters (password hashes, token hashes); URLs lose their query string; the server's
 * own paths never reach a client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "./db/database.ts";
import { users } from "./db/schema.ts";
import { serializeError, serializeRequest, withoutServerPaths } from "./log-hygiene.ts";
import {
  createTestDatabase,
  DATABASE_KINDS,
  startTestControlPlane,
  type TestControlPlane,
  type TestDatabase,
} from "./testing.ts";

describe.each(DATABASE_KINDS)("failed queries on %s", (kind) => {
  let testDatabase: TestDatabase | undefined;
  let database: Database;

  beforeAll(async () => {
    testDatabase = kind === "postgres" ? await createTestDatabase() : undefined;
    database = await openDatabase({ url: testDatabase?.url });
    await database.migrate();
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  it("are logged without their parameters or the row's values", async () => {
    const hash = "$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0LXNhbHQ$very-secret-password-hash";
    const error = await database.db
      .insert(users)
      .values({
        organizationId: "00000000-0000-4000-8000-000000000000",
        username: "eve-the-intruder",
        passwordHash: hash,
      })
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(Error);
    // What the log had before: the parameters, hash included.
    expect(String((error as Error).message)).toContain("very-secret-password-hash");
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain("very-secret-password-hash");
    expect(logged).not.toContain("eve-the-intruder");
    expect(logged).not.toContain("00000000-0000-4000-8000-000000000000");
    const serialized = serializeError(error);
    expect(serialized.message).toMatch(/^Failed query: insert into "users"/);
    expect((serialized.cause as { code?: string }).code).toBe("23503");
  });
});

describe("request logs and problem documents", () => {
  let cp: TestControlPlane;
  beforeAll(async () => {
    cp = await startTestControlPlane("pglite");
  });
  afterAll(async () => {
    await cp?.close();
  });

  it("log URLs without their query string", () => {
    const logged = serializeRequest({ method: "GET", url: "/api/v1/gateways/gw/stream?instanceId=x&token=abc" });
    expect(logged.url).toBe("/api/v1/gateways/gw/stream");
  });

  it("never show a query string or a path of the server's disk to a client", async () => {
    const response = await cp.admin.call("GET", "/api/v1/nothing-here?token=atr_t_secret");
    expect(response.status).toBe(404);
    expect(JSON.stringify(response.body)).not.toContain("atr_t_secret");
    expect(response.body.instance).toBe("/api/v1/nothing-here");
    expect(withoutServerPaths(`ENOENT: no such file or directory, open '${process.cwd()}/pets.yaml'`)).toBe(
      "ENOENT: no such file or directory, open '<server path>/pets.yaml'",
    );
  });
});
