/**
 * Revocation reaches open change streams: deleting or expiring the API token that opened one
 * ends it within 5 s, on the replica that holds it even when the revocation went through
 * another, and nothing written afterwards (a rotated secret) reaches it. Users cannot open
 * streams; their credentials (deleted user, changed role, logout, expired login) are watched
 * the same way, checked here on the credential watch of a second replica.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CredentialWatch } from "../auth/credential-watch.ts";
import { authenticate } from "../auth/principal.ts";
import { apiTokens, loginSessions } from "../db/schema.ts";
import {
  type ApiClient,
  DATABASE_KINDS,
  expose,
  openChangeStream,
  type ReplicaPair,
  startReplicaPair,
  TEST_ADMIN,
  type TestControlPlane,
} from "../testing.ts";

const BOUND_MS = 5000;

/** Milliseconds until `promise` settles; fails past the bound. */
async function within(promise: Promise<unknown>, what: string): Promise<number> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not within ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
  return Date.now() - started;
}

describe.each(DATABASE_KINDS)("revocation on %s", (kind) => {
  let replicas: ReplicaPair;
  /** Where revocations are written. */
  let writer: TestControlPlane;
  /** Where streams are held: another replica on PostgreSQL, the same one on PGlite. */
  let holder: TestControlPlane;
  let secretId: string;
  let gatewayCount = 0;

  beforeAll(async () => {
    replicas = await startReplicaPair(kind);
    ({ writer, reader: holder } = replicas);
    const secret = await writer.admin.call("POST", "/api/v1/secrets", { name: "backend", value: "secret-before" });
    secretId = secret.body.id;
    await expose(writer.admin, "pets", { labels: { region: "eu" }, plan: { backendSecret: { secretId } } });
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  /** A new gateway token, a gateway registered with it on the holder, and its open stream after the snapshot. */
  async function streamingGateway() {
    gatewayCount += 1;
    const created = await writer.admin.call("POST", "/api/v1/api-tokens", {
      name: `gw-${gatewayCount}`,
      validityDays: 1,
    });
    const gateway = { id: `gw-${gatewayCount}`, instanceId: `instance-${gatewayCount}-revocation` };
    const registered = await holder.api.withToken(created.body.token).call("POST", "/api/v1/gateways/register", {
      ...gateway,
      fqdns: [`gw${gatewayCount}.example.com`],
      labels: { region: "eu" },
    });
    expect(registered.status).toBe(200);
    const stream = await openChangeStream(holder.url, created.body.token, gateway);
    expect(stream.status).toBe(200);
    const snapshot = await stream.next("snapshot");
    expect(JSON.stringify(snapshot)).toMatch(/"value":"secret-(before|after)"/);
    return { tokenId: created.body.id as string, token: created.body.token as string, gateway, stream };
  }

  it("ends a stream within 5 s when its token is deleted, and sends nothing written afterwards", async () => {
    const { tokenId, token, gateway, stream } = await streamingGateway();
    expect((await writer.admin.call("DELETE", `/api/v1/api-tokens/${tokenId}`)).status).toBe(204);
    await within(stream.ended, "the stream's end after the token's deletion");
    const rotated = await writer.admin.call("PUT", `/api/v1/secrets/${secretId}`, { value: "secret-after" });
    expect(rotated.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(JSON.stringify(stream.events)).not.toContain("secret-after");
    const again = await openChangeStream(holder.url, token, gateway);
    expect(again.status).toBe(401);
    again.close();
  });

  it("ends a stream within 5 s when its token expires", async () => {
    const { tokenId, stream } = await streamingGateway();
    // Expiry is a point in time: bring it close rather than wait a day.
    await writer.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() + 500) })
      .where(eq(apiTokens.id, tokenId));
    await within(stream.ended, "the stream's end after the token's expiry");
  });

  it("refuses a stream to a logged-in user: only gateway tokens open one", async () => {
    const refused = await openChangeStream(holder.url, writer.admin.token as string, {
      id: "gw-1",
      instanceId: "instance-1-revocation",
    });
    expect(refused.status).toBe(403);
    refused.close();
  });

  describe("a user's credential, watched on the replica that holds it", () => {
    let watch: CredentialWatch;
    let member: ApiClient;
    let memberId: string;
    let count = 0;

    beforeAll(async () => {
      watch = new CredentialWatch(holder.database, (error) => {
        throw error;
      });
      await watch.start();
    });
    afterAll(() => watch?.stop());

    /** A new member, logged in; resolves `revoked` when the watch reports the login revoked. */
    async function watchedMember() {
      count += 1;
      const credentials = { username: `member-${count}`, password: "member-password-1" };
      const created = await writer.admin.call("POST", "/api/v1/users", { ...credentials, role: "member" });
      memberId = created.body.id;
      member = await writer.api.login({ organization: TEST_ADMIN.organization, ...credentials });
      const principal = await authenticate(holder.database.db, member.token);
      const revoked = new Promise<void>((resolve) => watch.watch(principal, resolve));
      return { revoked };
    }

    it("reports it within 5 s when the user is deleted", async () => {
      const { revoked } = await watchedMember();
      expect((await writer.admin.call("DELETE", `/api/v1/users/${memberId}`)).status).toBe(204);
      await within(revoked, "the deleted user's revocation");
    });

    it("reports it within 5 s when the user's role changes", async () => {
      const { revoked } = await watchedMember();
      expect((await writer.admin.call("PUT", `/api/v1/users/${memberId}`, { role: "admin" })).status).toBe(200);
      await within(revoked, "the role change's revocation");
    });

    it("reports it within 5 s when the user logs out", async () => {
      const { revoked } = await watchedMember();
      expect((await member.call("POST", "/api/v1/logout")).status).toBe(204);
      await within(revoked, "the logout's revocation");
    });

    it("reports it within 5 s when the login expires", async () => {
      const { revoked } = await watchedMember();
      const principal = await authenticate(holder.database.db, member.token);
      await writer.database.db
        .update(loginSessions)
        .set({ expiresAt: new Date(Date.now() + 500) })
        .where(eq(loginSessions.id, principal.credentialId));
      await within(revoked, "the expired login's revocation");
    });
  });
});
