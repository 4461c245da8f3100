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

const gateway = { id: "gw-eu", instanceId: "ended-sessions-test" };
const reportPath = `/api/v1/gateways/${gateway.id}/ended-sessions`;

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
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    replicas = await startReplicaPair(kind);
    ({ writer, reader: streamer } = replicas);
    const admin = writer.admin;
    ids.eu = await exposeOn(admin, "eu", { region: "eu" });
    ids.us = await exposeOn(admin, "us", { region: "us" });
    ids.otherOrganization = await exposeOn(await addOrganization(writer, "other"), "eu", { region: "eu" });
    reporter = await tokenClient(writer);
    token = reporter.token as string;
    await registerGateway(streamer.api.withToken(token), gateway, { region: "eu" });
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  it("delivers a report to the live streams serving the Exposition, and in a new stream's snapshot", async () => {
    const stream = await openChangeStream(streamer.url, token, gateway);
    const ended = endedSession(ids.eu as string);
    try {
      const snapshot = await stream.next("snapshot");
      expect(snapshot.endedSessions).toEqual([]);
      ids.revisionBefore = String(snapshot.revision);
      const started = Date.now();
      // Another group's Exposition is not this gateway's business: only the second report arrives.
      expect((await reporter.call("POST", reportPath, endedSession(ids.us as string))).status).toBe(204);
      expect((await reporter.call("POST", reportPath, ended)).status).toBe(204);
      const change = await stream.next("changes");
      expect(change).toMatchObject({ upserts: [], deletes: [], endedSessions: [ended] });
      expect(Date.now() - started).toBeLessThan(2000);
      // A retried report changes nothing.
      expect((await reporter.call("POST", reportPath, ended)).status).toBe(204);
    } finally {
      stream.close();
    }
    const later = await openChangeStream(streamer.url, token, gateway);
    try {
      expect((await later.next("snapshot")).endedSessions).toEqual([ended]);
    } finally {
      later.close();
    }
    const resumed = await openChangeStream(streamer.url, token, gateway, Number(ids.revisionBefore));
    try {
      expect((await resumed.next("changes")).endedSessions).toEqual([ended]);
    } finally {
      resumed.close();
    }
  });

  it("sends the sessions ended on an Exposition along with it when it starts selecting the gateway", async () => {
    const stream = await openChangeStream(streamer.url, token, gateway);
    try {
      const before = (await stream.next("snapshot")).endedSessions;
      const groups = await writer.admin.call("GET", "/api/v1/gateway-groups");
      const us = groups.body.items.find((group: { name: string }) => group.name === "us");
      await writer.admin.call("PUT", `/api/v1/gateway-groups/${us.id}`, { name: "us", labels: { region: "eu" } });
      const change = await stream.next("changes");
      expect(change.upserts.map((e: { id: string }) => e.id)).toEqual([ids.us]);
      expect(change.endedSessions).toEqual([expect.objectContaining({ expositionId: ids.us })]);
      expect(before.map((e: { expositionId: string }) => e.expositionId)).toEqual([ids.eu]);
    } finally {
      stream.close();
    }
  });

  it("forgets a session once it has expired", async () => {
    const stream = await openChangeStream(streamer.url, token, gateway);
    const shortLived = endedSession(ids.eu as string, 1500);
    try {
      const known = (await stream.next("snapshot")).endedSessions;
      expect((await reporter.call("POST", reportPath, shortLived)).status).toBe(204);
      expect((await stream.next("changes")).endedSessions).toEqual([shortLived]);
      await new Promise((resolve) => setTimeout(resolve, Date.parse(shortLived.expiresAt) - Date.now() + 50));
      const later = await openChangeStream(streamer.url, token, gateway);
      try {
        expect((await later.next("snapshot")).endedSessions).toEqual(known);
      } finally {
        later.close();
      }
      // Reported after it expired (a gateway catching up): accepted, not kept.
      expect((await reporter.call("POST", reportPath, endedSession(ids.eu as string, -1000))).status).toBe(204);
      await writer.hub.prune(3600);
      const rows = await writer.database.db.execute(sql`select session_hash from ended_sessions`);
      const stored = (rows as unknown as { rows: { session_hash: string }[] }).rows.map((row) => row.session_hash);
      expect(stored).toHaveLength(2); // the first test's two reports
      expect(stored).not.toContain(shortLived.sessionHash);
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
