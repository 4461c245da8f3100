/**
 * Pending elicitations from the gateway's side, against a real control plane (PGlite): one
 * replica records, another reads and consumes; the id never reaches the control plane (only its
 * hash); a second consume, an expired or an unknown id are told apart; another organization's
 * gateway cannot use it.
 */
import { createHash } from "node:crypto";
import { selectRows } from "@atrium/control-plane/testing";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newElicitationId } from "./elicitation-id.ts";
import { PendingElicitations } from "./pending-elicitations.ts";
import { useElicitationStack } from "./testing.ts";

const principal = createHash("sha256").update("alice").digest("base64url");
const stack = useElicitationStack();
// Two replicas of one organization, and a gateway of another.
const replicaA = () => new PendingElicitations(stack().rest);
const replicaB = () => new PendingElicitations(stack().rest);
const otherOrganization = () => new PendingElicitations(stack().otherOrganizationRest);

describe("pending elicitations", () => {
  it("recorded on one replica, read and consumed once on another; the control plane holds only the id's hash", async () => {
    const { id, elicitation } = await replicaA().record(stack().expositionId, principal, "get_weather");
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(elicitation.expiresAt) - Date.now()).toBeGreaterThan(590_000);
    const stored = JSON.stringify(await selectRows(stack().controlPlane, sql`select * from elicitations`));
    expect(stored).not.toContain(id);
    expect(await replicaB().read(id)).toMatchObject({
      expositionId: stack().expositionId,
      principal,
      tool: "get_weather",
      usedAt: null,
    });
    expect(await otherOrganization().consume(id)).toEqual({ ok: false, reason: "unknown" });
    expect(await replicaB().consume(id)).toMatchObject({ ok: true, elicitation: { tool: "get_weather" } });
    expect(await replicaA().consume(id)).toEqual({ ok: false, reason: "used" });
  });

  it("an expired id and an unknown id are told apart", async () => {
    const { id } = await replicaA().record(stack().expositionId, principal, "get_weather", 1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await replicaB().consume(id)).toEqual({ ok: false, reason: "expired" });
    expect(await replicaB().consume(newElicitationId())).toEqual({ ok: false, reason: "unknown" });
    expect(await replicaB().read(newElicitationId())).toBeUndefined();
  });
});
