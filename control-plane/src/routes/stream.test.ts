/**
 * The change stream: a snapshot of exactly the Expositions selecting the gateway, deltas after
 * each change, resumption from a revision, and — with two replicas on one PostgreSQL — a change
 * written through one replica reaching a stream held on the other.
 */
import { changesEvent, snapshotEvent } from "@atrium/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../auth/tokens.ts";
import {
  type ApiClient,
  type Exposed,
  expose,
  openChangeStream,
  type ReplicaPair,
  registerGateway,
  sampleOpenApi,
  startReplicaPair,
  type TestControlPlane,
  tokenClient,
} from "../testing.ts";

const petstore = sampleOpenApi();

let replicas: ReplicaPair;
let replica1: TestControlPlane;
let replica2: TestControlPlane;
let token: string;
const gateway = { id: "gw-eu", instanceId: "stream-test-instance" };
const ids: Record<string, string | number> = {};

/** A plan of its own with an API key on the petstore service, exposed on a group. */
async function exposeOn(admin: ApiClient, name: string, groupId: number): Promise<Exposed> {
  return expose(admin, name, { serviceId: String(ids.service), groupId, plan: { apiKey: true } });
}

beforeAll(async () => {
  replicas = await startReplicaPair("postgres");
  ({ writer: replica1, reader: replica2 } = replicas);
  const admin = replica1.admin;
  ids.service = (
    await admin.call("POST", "/api/v1/services", { name: "petstore", version: "1", openapi: { inline: petstore } })
  ).body.id;
  ids.eu = (await admin.call("POST", "/api/v1/gateway-groups", { name: "eu", labels: { region: "eu" } })).body.id;
  ids.us = (await admin.call("POST", "/api/v1/gateway-groups", { name: "us", labels: { region: "us" } })).body.id;
  const eu = await exposeOn(admin, "eu-pets", Number(ids.eu));
  const us = await exposeOn(admin, "us-pets", Number(ids.us));
  [ids.euExpo, ids.euPlan, ids.usExpo, ids.usPlan] = [eu.expositionId, eu.planId, us.expositionId, us.planId];
  token = (await tokenClient(replica1, "gw")).token as string;
  await registerGateway(replica2.api.withToken(token), gateway, { region: "eu" });
});

afterAll(async () => {
  await replicas?.stop();
});

describe("change stream", () => {
  it("refuses a gateway that is not registered, or another instance of it", async () => {
    const unknown = await openChangeStream(replica2.url, token, { id: "gw-nobody", instanceId: "instance-x-1" });
    expect(unknown.status).toBe(404);
    const impostor = await openChangeStream(replica2.url, token, { id: gateway.id, instanceId: "other-instance" });
    expect(impostor.status).toBe(404);
  });

  it("opens with a snapshot of exactly the matching expositions, compiled", async () => {
    const stream = await openChangeStream(replica2.url, token, gateway);
    try {
      const snapshot = await stream.next("snapshot");
      expect(snapshot.expositions.map((e: { id: string }) => e.id)).toEqual([ids.euExpo]);
      // The Expositions' JSON is spliced into the event: it must still read as the contract's event.
      const { eventId: _snapshotId, ...event } = snapshot;
      expect(snapshotEvent.safeParse(event).error).toBeUndefined();
      const [expo] = snapshot.expositions;
      expect(expo.organization.name).toBe("default");
      expect(expo.plan.apiKeyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(expo.service.operations.map((op: { operationId: string }) => op.operationId)).toContain("getPet");
    } finally {
      stream.close();
    }
  });

  // The one test that changes what the gateway sees; resuming is checked against those changes.
  it("delivers a change made through replica 1 to a stream held on replica 2, and resumes from a revision with only what changed since", async () => {
    const stream = await openChangeStream(replica2.url, token, gateway);
    let snapshotRevision: number;
    let lastRevision: number;
    try {
      const snapshot = await stream.next("snapshot");
      snapshotRevision = Number(snapshot.revision);
      const oldHash = snapshot.expositions[0].plan.apiKeyHash;
      const started = Date.now();
      const renewal = await replica1.admin.call("POST", `/api/v1/configuration-plans/${ids.euPlan}/renew-api-key`);
      const change = await stream.next("changes");
      expect(change.upserts.map((e: { id: string }) => e.id)).toEqual([ids.euExpo]);
      expect(change.deletes).toEqual([]);
      const { eventId: _changeId, ...event } = change;
      expect(changesEvent.safeParse(event).error).toBeUndefined();
      // Gateways now hold only the new key's hash: the old key stops working without overlap.
      expect(change.upserts[0].plan.apiKeyHash).toBe(sha256(renewal.body.apiKey));
      expect(change.upserts[0].plan.apiKeyHash).not.toBe(oldHash);
      expect(Date.now() - started).toBeLessThan(2000);
      // When the change was recorded (the database's clock, this machine's): the gateways' change lag.
      expect(change.committedAt).toBeGreaterThanOrEqual(started - 1000);
      expect(change.committedAt).toBeLessThanOrEqual(Date.now());

      // A change to another region's exposition is not this gateway's business.
      await replica1.admin.call("POST", `/api/v1/configuration-plans/${ids.usPlan}/renew-api-key`);
      // Moving the us exposition's group to eu makes it appear; deleting it removes it.
      await replica1.admin.call("PUT", `/api/v1/gateway-groups/${ids.us}`, { name: "us", labels: { region: "eu" } });
      const appeared = await stream.next("changes");
      expect(appeared.upserts.map((e: { id: string }) => e.id)).toEqual([ids.usExpo]);
      await replica1.admin.call("DELETE", `/api/v1/expositions/${ids.usExpo}`);
      const removed = await stream.next("changes");
      expect(removed.deletes).toEqual([ids.usExpo]);
      lastRevision = Number(removed.revision);
    } finally {
      stream.close();
    }

    const resumed = await openChangeStream(replica1.url, token, gateway, snapshotRevision);
    try {
      const change = await resumed.next("changes");
      expect(change.revision).toBe(lastRevision);
      expect(change.upserts.map((e: { id: string }) => e.id)).toEqual([ids.euExpo]);
      expect(change.deletes).toContain(ids.usExpo);
      // What a resuming gateway catches up with has no commit time: its lag is the time it was away.
      expect(change.committedAt).toBeUndefined();
    } finally {
      resumed.close();
    }
    const upToDate = await openChangeStream(replica1.url, token, gateway, lastRevision);
    try {
      expect((await upToDate.next("resumed")).revision).toBe(lastRevision);
    } finally {
      upToDate.close();
    }
  });

  it("sends a fresh snapshot when the revision is no longer available", async () => {
    const current = await openChangeStream(replica1.url, token, gateway);
    const revision = Number((await current.next("snapshot")).revision);
    current.close();
    const stream = await openChangeStream(replica1.url, token, gateway, revision + 1000);
    try {
      const snapshot = await stream.next("snapshot");
      expect(snapshot.expositions.map((e: { id: string }) => e.id)).toEqual([ids.euExpo]);
    } finally {
      stream.close();
    }
  });
});
