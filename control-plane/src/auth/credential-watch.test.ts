/**
 * The credential watch's `isStillValid`, which every change stream asks before each event and
 * heartbeat: each answer is read from the database at the time of the ask (a deleted token, a
 * changed role, a logout are seen by the next ask), and asks made together — a thousand streams
 * sending one change — share one query per kind of credential instead of one each (issue 17).
 */
import { describe, expect, it } from "vitest";
import type { Database } from "../db/database.ts";
import { DATABASE_KINDS, useIsolatedControlPlane } from "../testing.ts";
import { CredentialWatch } from "./credential-watch.ts";
import { authenticate, type Principal } from "./principal.ts";

/** The control plane's database, with its `select`s counted. */
function countingSelects(database: Database): { database: Database; selects: () => number } {
  let selects = 0;
  const db = new Proxy(database.db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== "select" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        selects += 1;
        return value.apply(target, args);
      };
    },
  });
  return { database: { ...database, db }, selects: () => selects };
}

describe.each(DATABASE_KINDS)("credential watch on %s: isStillValid", (kind) => {
  const controlPlane = useIsolatedControlPlane(kind);

  async function gatewayToken(name: string): Promise<{ id: string; principal: Principal }> {
    const created = await controlPlane().admin.call("POST", "/api/v1/api-tokens", { name, validityDays: 1 });
    expect(created.status).toBe(201);
    return { id: created.body.id, principal: await authenticate(controlPlane().database.db, created.body.token) };
  }

  function watch() {
    const counted = countingSelects(controlPlane().database);
    const credentials = new CredentialWatch(counted.database, (error) => {
      throw error;
    });
    return { credentials, selects: counted.selects };
  }

  it("answers 200 asks made together with one query, each with its own credential's answer", async () => {
    const kept = await gatewayToken("kept");
    const deleted = await gatewayToken("deleted");
    expect((await controlPlane().admin.call("DELETE", `/api/v1/api-tokens/${deleted.id}`)).status).toBe(204);
    const { credentials, selects } = watch();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => credentials.isStillValid(i % 2 ? deleted.principal : kept.principal)),
    );
    expect(answers).toEqual(Array.from({ length: 200 }, (_, i) => i % 2 === 0));
    expect(selects()).toBe(1);
  });

  it("reads the database at each ask: a token deleted after one ask is refused at the next", async () => {
    const token = await gatewayToken("deleted-later");
    const { credentials, selects } = watch();
    expect(await credentials.isStillValid(token.principal)).toBe(true);
    expect((await controlPlane().admin.call("DELETE", `/api/v1/api-tokens/${token.id}`)).status).toBe(204);
    expect(await credentials.isStillValid(token.principal)).toBe(false);
    expect(selects()).toBe(2);
  });

  it("checks logins and their role too: a login is valid with its role, not with another", async () => {
    const login = await authenticate(controlPlane().database.db, controlPlane().admin.token);
    if (login.kind !== "user") throw new Error("the admin's token is a login");
    const token = await gatewayToken("beside-a-login");
    const { credentials, selects } = watch();
    const answers = await Promise.all([
      credentials.isStillValid(login),
      credentials.isStillValid({ ...login, role: "member" }),
      credentials.isStillValid(token.principal),
    ]);
    expect(answers).toEqual([true, false, true]);
    expect(selects()).toBe(2); // one for API tokens, one for logins
  });
});
