/**
 * The gateway's elicited-credential store against a real control plane (PGlite): what one
 * replica stores another reads with the same cluster key; the control plane holds neither the
 * credential nor the user in clear; what the page stores under the user's digest the call path
 * reads with the identity; a row moved to another user, or read with another cluster's
 * key, does not open; another organization's gateway gets nothing; the cache is bounded and
 * expires, and this replica's own deletes take effect at once.
 */
import { randomBytes } from "node:crypto";
import { RestProblemError } from "@atrium/contract/rest-client";
import { selectRows } from "@atrium/control-plane/testing";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ClusterKeyring } from "./cluster-keys.ts";
import {
  type CredentialScope,
  ELICITED_CREDENTIAL_MAX_BYTES,
  ElicitedCredentialStore,
  principalDigest,
} from "./credential-store.ts";
import { useElicitationStack } from "./testing.ts";

const alice = { iss: "https://id.example", sub: "alice-7f3a" };
const bob = { iss: "https://id.example", sub: "bob-91c2" };
const clusterKey = randomBytes(32);
const stack = useElicitationStack();

/** The stack's Exposition (or another), for the backend its plan calls (or another). */
function scope(expositionId = stack().expositionId, backend = "https://weather.example"): CredentialScope {
  return { expositionId, backend };
}

function store(options: ConstructorParameters<typeof ElicitedCredentialStore>[2] = {}, key = clusterKey) {
  return new ElicitedCredentialStore(stack().rest, new ClusterKeyring([key]), options);
}

const rows = () =>
  selectRows<{ principal: string; ciphertext: string }>(
    stack().controlPlane,
    sql`select principal, ciphertext from elicited_credentials order by principal`,
  );

describe("elicited credential store", () => {
  it("one replica stores, another reads with the same cluster key; the control plane holds no clear value", async () => {
    const credential = `sk-live-${randomBytes(12).toString("hex")}`;
    await store().put(scope(), alice, credential);
    expect(await store().get(scope(), alice)).toBe(credential);
    const held = JSON.stringify(await rows());
    for (const clear of [credential, alice.sub, alice.iss]) expect(held).not.toContain(clear);
    expect(held).toContain(principalDigest(alice));
  });

  it("stored under the digest a pending elicitation holds (the page), read with the identity (the call path)", async () => {
    await store().put(scope(), { digest: principalDigest(alice) }, "from-the-page");
    expect(await store().get(scope(), alice)).toBe("from-the-page");
    expect(await store().get(scope(), { digest: principalDigest(bob) })).toBeUndefined();
    expect(await store().delete(scope(), { digest: principalDigest(alice) })).toBe(true);
    expect(await store().get(scope(), alice)).toBeUndefined();
  });

  it("is per user and per Exposition", async () => {
    await store().put(scope(), alice, "alice-key");
    expect(await store().get(scope(), bob)).toBeUndefined();
    expect(await store().get(scope(stack().secondExpositionId), alice)).toBeUndefined();
    expect(await store().get(scope(), { sessionId: "a-session" })).toBeUndefined();
  });

  it("a row the control plane moved to another user does not open for them", async () => {
    await store().put(scope(), alice, "alice-only");
    await stack().controlPlane.database.db.execute(
      sql`insert into elicited_credentials (exposition_id, principal, organization_id, ciphertext)
          select exposition_id, ${principalDigest(bob)}, organization_id, ciphertext from elicited_credentials
          where exposition_id = ${stack().expositionId} and principal = ${principalDigest(alice)}`,
    );
    expect(await store().get(scope(), bob)).toBeUndefined();
    expect(await store().get(scope(), alice)).toBe("alice-only");
    expect(await store().delete(scope(), bob)).toBe(true);
  });

  it("another cluster's key opens nothing", async () => {
    await store().put(scope(), alice, "cluster-a");
    expect(await store({}, randomBytes(32)).get(scope(), alice)).toBeUndefined();
  });

  it("another organization's gateway reads nothing and cannot write", async () => {
    await store().put(scope(), alice, "org-a");
    const foreign = new ElicitedCredentialStore(stack().otherOrganizationRest, new ClusterKeyring([clusterKey]));
    expect(await foreign.get(scope(), alice)).toBeUndefined();
    const refused = await foreign.put(scope(), alice, "planted").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RestProblemError);
    expect((refused as RestProblemError).status).toBe(404);
    expect(await foreign.delete(scope(), alice)).toBe(false);
    expect(await store().get(scope(), alice)).toBe("org-a");
  });

  it("refuses an empty or over-long credential before storing anything", async () => {
    const session = { sessionId: "limits" };
    await expect(store().put(scope(), session, "")).rejects.toThrow(/1 to 4096 bytes/);
    await expect(store().put(scope(), session, "x".repeat(ELICITED_CREDENTIAL_MAX_BYTES + 1))).rejects.toThrow(
      RangeError,
    );
    expect((await rows()).map((row) => row.principal)).not.toContain(principalDigest(session));
    await store().put(scope(), session, "é".repeat(ELICITED_CREDENTIAL_MAX_BYTES / 2));
    expect(await store().get(scope(), session)).toBe("é".repeat(ELICITED_CREDENTIAL_MAX_BYTES / 2));
  });

  it("caches reads until they expire: another replica's revocation shows after the TTL, its own delete at once", async () => {
    let clock = 1_000_000;
    const cached = store({ cacheTtlMs: 30_000, now: () => clock });
    const other = store();
    await other.put(scope(), alice, "cached-key");
    expect(await cached.get(scope(), alice)).toBe("cached-key");
    await other.delete(scope(), alice);
    clock += 29_999;
    expect(await cached.get(scope(), alice)).toBe("cached-key");
    clock += 1;
    expect(await cached.get(scope(), alice)).toBeUndefined();

    await cached.put(scope(), alice, "again");
    expect(await cached.delete(scope(), alice)).toBe(true);
    expect(await cached.get(scope(), alice)).toBeUndefined();
    expect(await cached.delete(scope(), alice)).toBe(false);
  });

  it("a credential opens only for the backend it was given for: the plan's new backend asks again", async () => {
    await store().put(scope(), alice, "for-weather");
    expect(await store().get(scope(stack().expositionId, "https://attacker.example"), alice)).toBeUndefined();
    expect(await store().get(scope(stack().expositionId, "https://weather.example:8443"), alice)).toBeUndefined();
    // Cached on this replica for the old backend: the new one still does not get it.
    const replica = store({ cacheTtlMs: 60_000 });
    expect(await replica.get(scope(), alice)).toBe("for-weather");
    expect(await replica.get(scope(stack().expositionId, "https://attacker.example"), alice)).toBeUndefined();
    // One row per user and Exposition: storing for the new backend replaces the old one.
    await store().put(scope(stack().expositionId, "https://new.example"), alice, "for-new");
    expect(await store().get(scope(), alice)).toBeUndefined();
    expect(await store().get(scope(stack().expositionId, "https://new.example"), alice)).toBe("for-new");
    await store().delete(scope(), alice);
  });

  it("a read that overlapped this replica's delete or replacement is not cached (found in review)", async () => {
    const replica = store({ cacheTtlMs: 60_000 });
    const expositionId = scope();
    await replica.put(expositionId, bob, "before");
    await replica.delete(expositionId, bob); // empties the cache: the next read asks the control plane
    await store().put(expositionId, bob, "revoked-soon");
    const reading = replica.get(expositionId, bob);
    expect(await replica.delete(expositionId, bob)).toBe(true);
    await reading; // whichever it saw, it must not outlive the delete in the cache
    expect(await replica.get(expositionId, bob)).toBeUndefined();

    await store().put(expositionId, bob, "old");
    const overlapping = replica.get(expositionId, bob);
    await replica.put(expositionId, bob, "new");
    await overlapping;
    expect(await replica.get(expositionId, bob)).toBe("new");
    await replica.delete(expositionId, bob);
  });

  it("the cache is bounded: the least recently used goes first", async () => {
    const small = store({ cacheEntries: 3 });
    const users = Array.from({ length: 5 }, (_, i) => ({ iss: "https://id.example", sub: `user-${i}` }));
    for (const [i, user] of users.entries()) await small.put(scope(), user, `key-${i}`);
    expect(small.cachedEntries).toBe(3);
    for (const [i, user] of users.entries()) expect(await small.get(scope(), user)).toBe(`key-${i}`);
    expect(small.cachedEntries).toBe(3);
  });
});
