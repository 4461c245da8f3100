/**
 * The contract only grows by optional fields (docs/upgrades.md: control plane first, then
 * gateways): what older peers send still parses, and what the contract requires is still refused
 * when it is missing.
 */
import { describe, expect, it } from "vitest";
import { endedSessionsReport } from "./ended-sessions.ts";
import { gatewayRegistration, registrationAnswer } from "./registration.ts";
import { importWarning } from "./rest/services.ts";
import { changesEnvelope, changesEvent, snapshotEnvelope, snapshotEvent } from "./stream.ts";

describe("contract compatibility", () => {
  it("reads an import warning whose code a newer control plane added", () => {
    const newer = { code: "SOMETHING_ADDED_LATER", message: "A change this reader does not know." };
    expect(importWarning.parse(newer)).toEqual(newer);
    expect(importWarning.safeParse({ message: "no code" }).success).toBe(false);
  });

  it("reads a registration answer from a control plane without heartbeats or organizations", () => {
    const older = { id: "gw-1", healthIntervalSeconds: 60, staleAfterSeconds: 300 };
    expect(registrationAnswer.parse(older)).toEqual(older);
    expect(registrationAnswer.safeParse({ id: "gw-1", healthIntervalSeconds: 60 }).success).toBe(false);
  });

  it("reads events from a control plane that predates ended sessions", () => {
    expect(snapshotEvent.parse({ revision: 3, expositions: [] })).toEqual({
      revision: 3,
      expositions: [],
      endedSessions: [],
    });
    expect(changesEvent.parse({ revision: 4, upserts: [], deletes: ["x"] }).endedSessions).toEqual([]);
    expect(snapshotEnvelope.parse({ revision: 3, expositions: [{ any: "thing" }] }).endedSessions).toEqual([]);
    expect(changesEnvelope.safeParse({ upserts: [], deletes: [] }).success).toBe(false);
  });

  it("takes a registration without labels, and refuses a gateway id a control plane would refuse", () => {
    const registration = { id: "gw-1", instanceId: "instance-1", fqdns: ["gw1.example.com:8080"] };
    expect(gatewayRegistration.parse(registration).labels).toEqual({});
    expect(gatewayRegistration.safeParse({ ...registration, id: "GW_1" }).success).toBe(false);
    expect(gatewayRegistration.safeParse({ ...registration, fqdns: [] }).success).toBe(false);
  });

  it("bounds an ended-sessions report", () => {
    const session = {
      expositionId: "0b7e4c1e-7a35-4f43-9d2f-3f7cf1a9f5d1",
      sessionHash: "a".repeat(64),
      expiresAt: "2026-01-31T12:00:00Z",
    };
    expect(endedSessionsReport.safeParse({ endedSessions: [session] }).success).toBe(true);
    expect(endedSessionsReport.safeParse({ endedSessions: Array(101).fill(session) }).success).toBe(false);
    expect(endedSessionsReport.safeParse({ endedSessions: [{ ...session, sessionHash: "raw-id" }] }).success).toBe(
      false,
    );
  });
});
