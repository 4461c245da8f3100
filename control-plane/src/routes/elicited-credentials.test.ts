/**
 * Elicited credentials, on PGlite and on PostgreSQL (there written through one replica, read
 * through the other): only gateway tokens read, write and delete them; each organization's
 * gateways see only their own Expositions' rows; bad input is a 400 naming the field; deleting the
 * Exposition deletes its credentials; an Exposition holds a bounded number of them.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  ELICITED_CREDENTIAL_MAX_CIPHERTEXT,
  ELICITED_CREDENTIAL_WRITES_PER_MINUTE,
  ELICITED_CREDENTIALS_PER_EXPOSITION,
} from "@atrium/contract/rest";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  addOrganization,
  DATABASE_KINDS,
  type Exposed,
  expose,
  type ReplicaPair,
  selectRows,
  startReplicaPair,
  type TestControlPlane,
} from "../testing.ts";

const principal = (name: string) => createHash("sha256").update(name).digest("base64url");
const sealed = () => `kid01234.${randomBytes(48).toString("base64url")}`;
const pathOf = (expositionId: string, who: string) => `/api/v1/expositions/${expositionId}/elicited-credentials/${who}`;

async function createToken(admin: ApiClient, role: string): Promise<ApiClient> {
  const created = await admin.call("POST", "/api/v1/api-tokens", {
    name: `t-${role}-${randomBytes(3).toString("hex")}`,
    validityDays: 1,
    role,
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return admin.withToken(created.body.token);
}

describe.each(DATABASE_KINDS)("elicited credentials on %s", (kind) => {
  let replicas: ReplicaPair;
  let writer: TestControlPlane;
  let reader: TestControlPlane;
  /** Gateway tokens of the default organization, on each replica, and of another organization. */
  let gateway: ApiClient;
  let gatewayOnReader: ApiClient;
  let otherGateway: ApiClient;
  let otherAdmin: ApiClient;
  let exposed: Exposed;
  let otherExposed: Exposed;

  const rowsOf = (expositionId: string) =>
    selectRows<{ principal: string; ciphertext: string }>(
      writer,
      sql`select principal, ciphertext from elicited_credentials where exposition_id = ${expositionId} order by principal`,
    );

  beforeAll(async () => {
    replicas = await startReplicaPair(kind);
    ({ writer, reader } = replicas);
    gateway = await createToken(writer.admin, "gateway");
    gatewayOnReader = reader.api.withToken(gateway.token as string);
    otherAdmin = await addOrganization(writer, "other");
    otherGateway = await createToken(otherAdmin, "gateway");
    exposed = await expose(writer.admin, "weather");
    otherExposed = await expose(otherAdmin, "weather");
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  it("a gateway stores a credential, any replica reads it, a second write replaces it, delete removes it", async () => {
    const alice = principal("alice");
    const first = sealed();
    const put = await gateway.call("PUT", pathOf(exposed.expositionId, alice), { ciphertext: first });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ expositionId: exposed.expositionId, principal: alice, ciphertext: first });

    const read = await gatewayOnReader.call("GET", pathOf(exposed.expositionId, alice));
    expect(read.status).toBe(200);
    expect(read.body.ciphertext).toBe(first);

    const second = sealed();
    const replaced = await gatewayOnReader.call("PUT", pathOf(exposed.expositionId, alice), { ciphertext: second });
    expect(replaced.status).toBe(200);
    expect(replaced.body.createdAt).toBe(put.body.createdAt);
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(put.body.updatedAt));
    expect(await rowsOf(exposed.expositionId)).toEqual([{ principal: alice, ciphertext: second }]);

    expect((await gateway.call("DELETE", pathOf(exposed.expositionId, alice))).status).toBe(204);
    const gone = await gatewayOnReader.call("GET", pathOf(exposed.expositionId, alice));
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toContain("Elicited credential");
    expect((await gateway.call("DELETE", pathOf(exposed.expositionId, alice))).status).toBe(404);
  });

  it("only gateway tokens: users, admin and operator tokens get 403, no token 401", async () => {
    const bob = principal("bob");
    await gateway.call("PUT", pathOf(exposed.expositionId, bob), { ciphertext: sealed() });
    const refused = [
      writer.admin,
      await createToken(writer.admin, "admin"),
      await createToken(writer.admin, "operator"),
    ];
    for (const client of refused) {
      for (const [method, body] of [["GET"], ["PUT", { ciphertext: sealed() }], ["DELETE"]] as const) {
        const answer = await client.call(method, pathOf(exposed.expositionId, bob), body);
        expect(answer.status, `${method}`).toBe(403);
        expect(answer.body.code).toBe("ROLE_REFUSED");
      }
    }
    expect((await writer.api.call("GET", pathOf(exposed.expositionId, bob))).status).toBe(401);
    expect((await gateway.call("GET", pathOf(exposed.expositionId, bob))).status).toBe(200);
  });

  it("isolation: another organization's gateway can neither read, write nor delete, and its own rows stay apart", async () => {
    const carol = principal("carol");
    const mine = sealed();
    await gateway.call("PUT", pathOf(exposed.expositionId, carol), { ciphertext: mine });
    for (const [method, body] of [["GET"], ["PUT", { ciphertext: sealed() }], ["DELETE"]] as const) {
      const answer = await otherGateway.call(method, pathOf(exposed.expositionId, carol), body);
      expect(answer.status, method).toBe(404);
    }
    const theirs = sealed();
    expect(
      (await otherGateway.call("PUT", pathOf(otherExposed.expositionId, carol), { ciphertext: theirs })).status,
    ).toBe(200);
    expect((await gateway.call("GET", pathOf(otherExposed.expositionId, carol))).status).toBe(404);
    expect((await gateway.call("GET", pathOf(exposed.expositionId, carol))).body.ciphertext).toBe(mine);
    expect((await otherGateway.call("GET", pathOf(otherExposed.expositionId, carol))).body.ciphertext).toBe(theirs);
  });

  it("refuses bad input with a 400 naming the field, and an unknown Exposition with a 404", async () => {
    const dave = principal("dave");
    const cases: [string, unknown, string][] = [
      [pathOf(exposed.expositionId, "short"), { ciphertext: sealed() }, "params.principal"],
      [pathOf(exposed.expositionId, `${dave.slice(0, 42)}+`), { ciphertext: sealed() }, "params.principal"],
      [pathOf("not-a-uuid", dave), { ciphertext: sealed() }, "params.id"],
      [
        pathOf(exposed.expositionId, dave),
        { ciphertext: "x".repeat(ELICITED_CREDENTIAL_MAX_CIPHERTEXT + 1) },
        "body.ciphertext",
      ],
      [pathOf(exposed.expositionId, dave), { ciphertext: "not sealed" }, "body.ciphertext"],
      [pathOf(exposed.expositionId, dave), { ciphertext: "" }, "body.ciphertext"],
      [pathOf(exposed.expositionId, dave), { ciphertext: sealed(), clear: "hunter2" }, "body"],
      [pathOf(exposed.expositionId, dave), {}, "body.ciphertext"],
    ];
    for (const [path, body, field] of cases) {
      const answer = await gateway.call("PUT", path, body);
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
      expect(answer.body.code).toBe("INVALID_REQUEST");
      expect(JSON.stringify(answer.body.errors)).toContain(field);
    }
    expect(await rowsOf(exposed.expositionId)).not.toContainEqual(expect.objectContaining({ principal: dave }));
    const unknown = await gateway.call("PUT", pathOf("00000000-0000-4000-8000-000000000000", dave), {
      ciphertext: sealed(),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain("Exposition");
  });

  it("deleting the Exposition deletes its credentials (and only its); then its plan can go", async () => {
    const doomed = await expose(writer.admin, "doomed");
    const kept = await expose(writer.admin, "kept");
    for (const who of ["erin", "frank"]) {
      await gateway.call("PUT", pathOf(doomed.expositionId, principal(who)), { ciphertext: sealed() });
      await gateway.call("PUT", pathOf(kept.expositionId, principal(who)), { ciphertext: sealed() });
    }
    expect(await rowsOf(doomed.expositionId)).toHaveLength(2);
    expect((await writer.admin.call("DELETE", `/api/v1/configuration-plans/${doomed.planId}`)).status).toBe(409);
    expect((await writer.admin.call("DELETE", `/api/v1/expositions/${doomed.expositionId}`)).status).toBe(204);
    expect(await rowsOf(doomed.expositionId)).toEqual([]);
    expect(await rowsOf(kept.expositionId)).toHaveLength(2);
    expect((await writer.admin.call("DELETE", `/api/v1/configuration-plans/${doomed.planId}`)).status).toBe(204);
    expect((await gateway.call("GET", pathOf(doomed.expositionId, principal("erin")))).status).toBe(404);
  });

  it(`at most ${ELICITED_CREDENTIAL_WRITES_PER_MINUTE} users' credentials written per Exposition and minute: past that 429 with Retry-After`, async () => {
    const busy = await expose(writer.admin, "busy");
    const calm = await expose(writer.admin, "calm");
    const [{ organization_id: organization } = { organization_id: "" }] = await selectRows<{ organization_id: string }>(
      writer,
      sql`select organization_id from expositions where id = ${busy.expositionId}`,
    );
    await writer.database.db.execute(
      sql`insert into elicited_credentials (exposition_id, principal, organization_id, ciphertext)
          select ${busy.expositionId}, 'recent-' || n, ${organization}, 'k.AAAA'
          from generate_series(1, ${ELICITED_CREDENTIAL_WRITES_PER_MINUTE}) as n`,
    );
    const refused = await gateway.call("PUT", pathOf(busy.expositionId, principal("newcomer")), {
      ciphertext: sealed(),
    });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("TOO_MANY_ELICITED_CREDENTIAL_WRITES");
    expect(refused.headers["retry-after"]).toBe("60");
    // Another Exposition is not held back by this one's burst.
    expect(
      (await gateway.call("PUT", pathOf(calm.expositionId, principal("newcomer")), { ciphertext: sealed() })).status,
    ).toBe(200);
    // A minute later the same write passes.
    await writer.database.db.execute(
      sql`update elicited_credentials set updated_at = now() - interval '61 seconds' where exposition_id = ${busy.expositionId}`,
    );
    expect(
      (await gateway.call("PUT", pathOf(busy.expositionId, principal("newcomer")), { ciphertext: sealed() })).status,
    ).toBe(200);
  });

  it(`an Exposition holds at most ${ELICITED_CREDENTIALS_PER_EXPOSITION} credentials: a new user past that is a 409, updates still pass`, async () => {
    const full = await expose(writer.admin, "full");
    const organization = (
      await selectRows<{ organization_id: string }>(
        writer,
        sql`select organization_id from expositions where id = ${full.expositionId}`,
      )
    )[0]?.organization_id;
    await writer.database.db.execute(
      sql`insert into elicited_credentials (exposition_id, principal, organization_id, ciphertext, updated_at)
          select ${full.expositionId}, 'seeded-' || n, ${organization}, 'k.AAAA', now() - interval '1 hour'
          from generate_series(1, ${ELICITED_CREDENTIALS_PER_EXPOSITION - 1}) as n`,
    );
    expect(
      (await gateway.call("PUT", pathOf(full.expositionId, principal("last")), { ciphertext: sealed() })).status,
    ).toBe(200);
    const refused = await gateway.call("PUT", pathOf(full.expositionId, principal("one-too-many")), {
      ciphertext: sealed(),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("TOO_MANY_ELICITED_CREDENTIALS");
    expect(refused.body.detail).toContain("delete unused ones");
    expect(
      (await gateway.call("PUT", pathOf(full.expositionId, principal("last")), { ciphertext: sealed() })).status,
    ).toBe(200);
    expect((await gateway.call("GET", pathOf(full.expositionId, principal("one-too-many")))).status).toBe(404);
  }, 60_000);
});
