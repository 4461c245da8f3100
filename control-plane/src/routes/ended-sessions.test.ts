/**
 * Ended sessions, on PGlite and on PostgreSQL (there with the report written through one replica
 * and the stream held on another): a gateway's report is validated, kept to its organization,
 * delivered to the streams of gateways serving the Exposition — live, in a snapshot, on resume —
 * and forgotten once the session has expired.
 */
import { createHash, randomBytes } from "node:crypto";
import { ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE } from "@atrium/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  addOrganization,
  DATABASE_KINDS,
  expose,
  openChangeStream,
  type ReplicaPair,
  registerGateway,
  startReplicaPair,
  type TestControlPlane,
  tokenClient,
} from "../testing.ts";

type Gateway = { id: string; instanceId: string };
const reportPathOf = (gateway: Gateway) => `/api/v1/gateways/${gateway.id}/ended-sessions`;

/** A Service, plan, gateway group and Exposition of their own; returns the Exposition id. */
async function exposeOn(client: ApiClient, name: string, labels: Record<string, string>): Promise<string> {
  return (await expose(client, name, { labels })).expositionId;
}

function endedSession(expositionId: string, expiresInMs = 3600_000) {
  return {
    expositionId,
    sessionHash: createHash("sha256").update(randomBytes(16)).digest("hex"),
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  };
}

describe.each(DATABASE_KINDS)("ended sessions on %s", (kind) => {
  const endedSessionRevisions = async () => {
    const rows = await writer.database.db.execute(
      sql`select count(*)::int as n from changes where kind = 'EndedSession'`,
    );
    return (rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
  };
  let replicas: ReplicaPair;
  let writer: TestControlPlane;
  let streamer: TestControlPlane;
  /** The gateway's token, on the replica reports go to. */
  let reporter: ApiClient;
  let token: string;
  /** The gateway of the tests that do not watch a stream; those that do register one of their own. */
  const gateway = { id: "gw-eu", instanceId: "ended-sessions-test" };
  const reportPath = reportPathOf(gateway);
  const ids: Record<string, string> = {};

  /** A gateway of its own selecting `region`, registered on the streaming replica. */
  async function gatewayIn(region: string): Promise<Gateway> {
    const own = { id: `gw-${region}`, instanceId: `ended-sessions-${region}` };
    await registerGateway(streamer.api.withToken(token), own, { region });
    return own;
  }

  beforeAll(async () => {
    replicas = await startReplicaPair(kind);
    ({ writer, reader: streamer } = replicas);
    const admin = writer.admin;
    ids.eu = await exposeOn(admin, "eu", { region: "eu" });
    ids.otherOrganization = await exposeOn(await addOrganization(writer, "other"), "eu", { region: "eu" });
    reporter = await tokenClient(writer);
    token = reporter.token as string;
    await registerGateway(streamer.api.withToken(token), gateway, { region: "eu" });
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  it("delivers a report to the live streams serving the Exposition, and in a new stream's snapshot", async () => {
    const live = await gatewayIn("live");
    const served = await exposeOn(writer.admin, "live", { region: "live" });
    const elsewhere = await exposeOn(writer.admin, "live-elsewhere", { region: "live-elsewhere" });
    const report = (body: unknown) => reporter.call("POST", reportPathOf(live), body);
    const stream = await openChangeStream(streamer.url, token, live);
    const ended = endedSession(served);
    let revisionBefore: number;
    try {
      const snapshot = await stream.next("snapshot");
      expect(snapshot.endedSessions).toEqual([]);
      revisionBefore = Number(snapshot.revision);
      const started = Date.now();
      // Another group's Exposition is not this gateway's business: only the second report arrives.
      expect((await report(endedSession(elsewhere))).status).toBe(204);
      expect((await report(ended)).status).toBe(204);
      const change = await stream.next("changes");
      expect(change).toMatchObject({ upserts: [], deletes: [], endedSessions: [ended] });
      expect(Date.now() - started).toBeLessThan(2000);
      // A retried report changes nothing.
      expect((await report(ended)).status).toBe(204);
    } finally {
      stream.close();
    }
    const later = await openChangeStream(streamer.url, token, live);
    try {
      expect((await later.next("snapshot")).endedSessions).toEqual([ended]);
    } finally {
      later.close();
    }
    const resumed = await openChangeStream(streamer.url, token, live, revisionBefore);
    try {
      expect((await resumed.next("changes")).endedSessions).toEqual([ended]);
    } finally {
      resumed.close();
    }
  });

  it("sends the sessions ended on an Exposition along with it when it starts selecting the gateway", async () => {
    const moving = await gatewayIn("moving");
    const selected = await exposeOn(writer.admin, "moving", { region: "moving" });
    const joining = await expose(writer.admin, "moving-later", { labels: { region: "moving-later" } });
    for (const expositionId of [selected, joining.expositionId]) {
      expect((await reporter.call("POST", reportPathOf(moving), endedSession(expositionId))).status).toBe(204);
    }
    const stream = await openChangeStream(streamer.url, token, moving);
    try {
      const before = (await stream.next("snapshot")).endedSessions;
      await writer.admin.call("PUT", `/api/v1/gateway-groups/${joining.groupId}`, {
        name: "moving-later",
        labels: { region: "moving" },
      });
      const change = await stream.next("changes");
      expect(change.upserts.map((e: { id: string }) => e.id)).toEqual([joining.expositionId]);
      expect(change.endedSessions).toEqual([expect.objectContaining({ expositionId: joining.expositionId })]);
      expect(before.map((e: { expositionId: string }) => e.expositionId)).toEqual([selected]);
    } finally {
      stream.close();
    }
  });

  it("forgets a session once it has expired", async () => {
    const expiring = await gatewayIn("expiring");
    const exposition = await exposeOn(writer.admin, "expiring", { region: "expiring" });
    const report = (body: unknown) => reporter.call("POST", reportPathOf(expiring), body);
    const kept = endedSession(exposition);
    expect((await report(kept)).status).toBe(204);
    const stream = await openChangeStream(streamer.url, token, expiring);
    const shortLived = endedSession(exposition, 1500);
    try {
      const known = (await stream.next("snapshot")).endedSessions;
      expect((await report(shortLived)).status).toBe(204);
      expect((await stream.next("changes")).endedSessions).toEqual([shortLived]);
      await new Promise((resolve) => setTimeout(resolve, Date.parse(shortLived.expiresAt) - Date.now() + 50));
      const later = await openChangeStream(streamer.url, token, expiring);
      try {
        expect((await later.next("snapshot")).endedSessions).toEqual(known);
      } finally {
        later.close();
      }
      // Reported after it expired (a gateway catching up): accepted, not kept.
      expect((await report(endedSession(exposition, -1000))).status).toBe(204);
      await writer.hub.prune(3600);
      const rows = await writer.database.db.execute(
        sql`select session_hash from ended_sessions where exposition_id = ${exposition}`,
      );
      const stored = (rows as unknown as { rows: { session_hash: string }[] }).rows.map((row) => row.session_hash);
      expect(stored).toEqual([kept.sessionHash]);
    } finally {
      stream.close();
    }
  });

  it("records a batch as one revision, and at most the per-Exposition cap a minute", async () => {
    const flood = await exposeOn(writer.admin, "flood", { region: "flood" });
    const batches = Array.from({ length: 3 }, () => Array.from({ length: 100 }, () => endedSession(flood)));
    const revisionsBefore = await endedSessionRevisions();
    const answers = [];
    for (const batch of batches) answers.push(await reporter.call("POST", reportPath, { endedSessions: batch }));
    expect(answers[0]?.status).toBe(204);
    expect(answers[1]?.status).toBe(200);
    expect(answers[1]?.body).toEqual({ recorded: ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE - 100, dropped: 80 });
    expect(answers[2]?.body).toEqual({ recorded: 0, dropped: 100 });
    const rows = await writer.database.db.execute(
      sql`select count(*)::int as n from ended_sessions where exposition_id = ${flood}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE);
    // One revision per batch that recorded anything: 300 sessions, 2 revisions.
    expect((await endedSessionRevisions()) - revisionsBefore).toBe(2);
    // Retried, an already recorded batch records nothing more.
    expect((await reporter.call("POST", reportPath, { endedSessions: batches[0] })).status).toBe(204);
    expect((await endedSessionRevisions()) - revisionsBefore).toBe(2);
  });

  it("refuses bad input with the field named", async () => {
    const valid = endedSession(ids.eu as string);
    // A bare session (gateways that predate batches) is read as a batch of one.
    const cases: [unknown, string][] = [
      [{ ...valid, sessionHash: "not-a-hash" }, "body.endedSessions.0.sessionHash"],
      [{ ...valid, sessionHash: valid.sessionHash.toUpperCase() }, "body.endedSessions.0.sessionHash"],
      [{ ...valid, expositionId: "eu" }, "body.endedSessions.0.expositionId"],
      [{ ...valid, expiresAt: "tomorrow" }, "body.endedSessions.0.expiresAt"],
      [
        { ...valid, expiresAt: new Date(Date.now() + 3 * 24 * 3600_000).toISOString() },
        "body.endedSessions.0.expiresAt",
      ],
      [{ sessionHash: valid.sessionHash }, "body.endedSessions.0.expositionId"],
      [{ endedSessions: [valid, { ...valid, sessionHash: "x" }] }, "body.endedSessions.1.sessionHash"],
      [{ endedSessions: [] }, "body.endedSessions"],
      [{ endedSessions: Array.from({ length: 101 }, () => valid) }, "body.endedSessions"],
    ];
    for (const [body, field] of cases) {
      const refused = await reporter.call("POST", reportPath, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.code).toBe("INVALID_REQUEST");
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const malformed = await reporter.call("POST", reportPath, "{", { "content-type": "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("MALFORMED_BODY");
    const badGatewayId = await reporter.call("POST", "/api/v1/gateways/GW_1/ended-sessions", valid);
    expect(badGatewayId.status).toBe(400);
    const unregistered = await reporter.call("POST", "/api/v1/gateways/gw-nobody/ended-sessions", valid);
    expect(unregistered.status).toBe(404);
    expect(unregistered.body.detail).toContain("gw-nobody");
  });

  it("refuses another organization's Exposition, and callers without a token", async () => {
    const foreign = await reporter.call("POST", reportPath, endedSession(ids.otherOrganization as string));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "NOT_FOUND" });
    expect(foreign.body.detail).toContain(ids.otherOrganization);
    const unknown = await reporter.call("POST", reportPath, endedSession("00000000-0000-4000-8000-000000000000"));
    expect(unknown.status).toBe(404);
    const anonymous = await writer.api.call("POST", reportPath, endedSession(ids.eu as string));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("UNAUTHENTICATED");
  });
});
