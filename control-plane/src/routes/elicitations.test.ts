/**
 * Pending elicitations, on PGlite and on PostgreSQL (there recorded through one replica and
 * consumed through the other): gateway tokens only, within their organization; consumed once,
 * concurrent consumes included; expired ones refused and cleaned up; bad input a 400 naming the
 * field; bounded per Exposition; deleted with the Exposition.
 */
import { createHash, randomBytes } from "node:crypto";
import { PENDING_ELICITATIONS_PER_EXPOSITION, PENDING_ELICITATIONS_PER_USER } from "@atrium/contract/rest";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  addOrganization,
  DATABASE_KINDS,
  expose,
  type ReplicaPair,
  selectRows,
  startReplicaPair,
  type TestControlPlane,
  tokenClient,
} from "../testing.ts";

const hashOf = (id: string) => createHash("sha256").update(id).digest("hex");
const principal = createHash("sha256").update("alice").digest("base64url");
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe.each(DATABASE_KINDS)("elicitations on %s", (kind) => {
  let replicas: ReplicaPair;
  let writer: TestControlPlane;
  let gateway: ApiClient;
  let gatewayOnReader: ApiClient;
  let otherGateway: ApiClient;
  let expositionId: string;
  let otherExpositionId: string;

  const fresh = (overrides: Record<string, unknown> = {}) => ({
    idHash: hashOf(randomBytes(32).toString("base64url")),
    expositionId,
    principal,
    tool: "get_weather",
    expiresAt: inMinutes(10),
    ...overrides,
  });

  beforeAll(async () => {
    replicas = await startReplicaPair(kind);
    writer = replicas.writer;
    gateway = await tokenClient(writer);
    gatewayOnReader = replicas.reader.api.withToken(gateway.token as string);
    const otherAdmin = await addOrganization(writer, "other");
    const created = await otherAdmin.call("POST", "/api/v1/api-tokens", { name: "other-gateways", validityDays: 1 });
    otherGateway = otherAdmin.withToken(created.body.token);
    expositionId = (await expose(writer.admin, "weather")).expositionId;
    otherExpositionId = (await expose(otherAdmin, "weather")).expositionId;
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  it("recorded on one replica, read and consumed once on the other; a second consume is 409 ELICITATION_USED", async () => {
    const body = fresh();
    const created = await gateway.call("POST", "/api/v1/elicitations", body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...body, expiresAt: new Date(body.expiresAt).toISOString(), usedAt: null });
    const read = await gatewayOnReader.call("GET", `/api/v1/elicitations/${body.idHash}`);
    expect(read.body).toMatchObject({ tool: "get_weather", usedAt: null });
    const consumed = await gatewayOnReader.call("POST", `/api/v1/elicitations/${body.idHash}/consume`);
    expect(consumed.status).toBe(200);
    expect(consumed.body.usedAt).not.toBeNull();
    const again = await gateway.call("POST", `/api/v1/elicitations/${body.idHash}/consume`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("ELICITATION_USED");
    expect((await gateway.call("POST", "/api/v1/elicitations", body)).status).toBe(409);
  });

  it("concurrent consumes through both replicas: exactly one succeeds", async () => {
    const body = fresh();
    await gateway.call("POST", "/api/v1/elicitations", body);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? gateway : gatewayOnReader).call("POST", `/api/v1/elicitations/${body.idHash}/consume`),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  });

  it("an expired one is refused with ELICITATION_EXPIRED, and removed when the Exposition records another", async () => {
    const body = fresh();
    await gateway.call("POST", "/api/v1/elicitations", body);
    await writer.database.db.execute(
      sql`update elicitations set expires_at = now() - interval '1 second' where id_hash = ${body.idHash}`,
    );
    const refused = await gateway.call("POST", `/api/v1/elicitations/${body.idHash}/consume`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("ELICITATION_EXPIRED");
    expect(refused.body.detail).toContain("call the tool again");
    await gateway.call("POST", "/api/v1/elicitations", fresh());
    expect((await gateway.call("GET", `/api/v1/elicitations/${body.idHash}`)).status).toBe(404);
  });

  it("another organization's gateway, users and other token roles get nothing", async () => {
    const body = fresh();
    await gateway.call("POST", "/api/v1/elicitations", body);
    expect((await otherGateway.call("GET", `/api/v1/elicitations/${body.idHash}`)).status).toBe(404);
    expect((await otherGateway.call("POST", `/api/v1/elicitations/${body.idHash}/consume`)).status).toBe(404);
    expect((await otherGateway.call("POST", "/api/v1/elicitations", fresh())).status).toBe(404);
    expect(
      (await gateway.call("POST", "/api/v1/elicitations", fresh({ expositionId: otherExpositionId }))).status,
    ).toBe(404);
    for (const path of [`/api/v1/elicitations/${body.idHash}`]) {
      const answer = await writer.admin.call("GET", path);
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("ROLE_REFUSED");
    }
    expect((await writer.admin.call("POST", "/api/v1/elicitations", fresh())).status).toBe(403);
    // Still usable by its own organization's gateway.
    expect((await gateway.call("POST", `/api/v1/elicitations/${body.idHash}/consume`)).status).toBe(200);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [fresh({ idHash: "ABC" }), "body.idHash"],
      [fresh({ idHash: hashOf("x").toUpperCase() }), "body.idHash"],
      [fresh({ principal: "alice" }), "body.principal"],
      [fresh({ tool: "" }), "body.tool"],
      [fresh({ tool: "t".repeat(129) }), "body.tool"],
      [fresh({ expiresAt: "tomorrow" }), "body.expiresAt"],
      [fresh({ expiresAt: inMinutes(-1) }), "body.expiresAt"],
      [fresh({ expiresAt: inMinutes(30) }), "body.expiresAt"],
      [fresh({ expositionId: "nope" }), "body.expositionId"],
      [{ ...fresh(), credential: "hunter2" }, "body"],
    ];
    for (const [body, field] of cases) {
      const answer = await gateway.call("POST", "/api/v1/elicitations", body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(JSON.stringify(answer.body.errors)).toContain(field);
    }
    expect((await gateway.call("GET", "/api/v1/elicitations/not-a-hash")).status).toBe(400);
  });

  it(`at most ${PENDING_ELICITATIONS_PER_USER} pending per user and Exposition: one user's calls leave the others theirs`, async () => {
    const busy = await expose(writer.admin, "busy");
    const own = (user: string) =>
      fresh({ expositionId: busy.expositionId, principal: createHash("sha256").update(user).digest("base64url") });
    for (let n = 0; n < PENDING_ELICITATIONS_PER_USER; n++) {
      expect((await gateway.call("POST", "/api/v1/elicitations", own("greedy"))).status).toBe(201);
    }
    const refused = await gateway.call("POST", "/api/v1/elicitations", own("greedy"));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("TOO_MANY_PENDING_ELICITATIONS");
    expect(refused.body.detail).toContain(`This user has ${PENDING_ELICITATIONS_PER_USER} pending elicitations`);
    expect(refused.headers["retry-after"]).toBe("60");
    expect((await gateway.call("POST", "/api/v1/elicitations", own("patient"))).status).toBe(201);
  });

  it(`at most ${PENDING_ELICITATIONS_PER_EXPOSITION} pending per Exposition (429 with Retry-After); deleting the Exposition deletes them`, async () => {
    const crowded = await expose(writer.admin, "crowded");
    const [{ organization_id: organization } = { organization_id: "" }] = await selectRows<{ organization_id: string }>(
      writer,
      sql`select organization_id from expositions where id = ${crowded.expositionId}`,
    );
    await writer.database.db.execute(
      sql`insert into elicitations (id_hash, organization_id, exposition_id, principal, tool, expires_at)
          select md5(n::text) || md5(${crowded.expositionId} || n::text), ${organization}, ${crowded.expositionId}, 'p', 't', now() + interval '5 minutes'
          from generate_series(1, ${PENDING_ELICITATIONS_PER_EXPOSITION}) as n`,
    );
    const refused = await gateway.call("POST", "/api/v1/elicitations", fresh({ expositionId: crowded.expositionId }));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("TOO_MANY_PENDING_ELICITATIONS");
    expect(refused.headers["retry-after"]).toBe("60");
    expect((await gateway.call("POST", "/api/v1/elicitations", fresh())).status).toBe(201);
    expect((await writer.admin.call("DELETE", `/api/v1/expositions/${crowded.expositionId}`)).status).toBe(204);
    const left = await selectRows<{ n: number }>(
      writer,
      sql`select count(*)::int as n from elicitations where exposition_id = ${crowded.expositionId}`,
    );
    expect(left[0]?.n).toBe(0);
  }, 60_000);
});
