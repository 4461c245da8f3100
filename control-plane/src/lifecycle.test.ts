/**
 * What happens across restarts and with time: data kept by the embedded database, encryption
 * keys rotated (and a missing key refused at start-up), gateways going stale, and change-stream
 * revisions that are no longer available.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startControlPlane } from "./app.ts";
import { parseKeySet } from "./secrets/key-set.ts";
import { openChangeStream, sampleOpenApi, startTestControlPlane, testConfig } from "./testing.ts";

const key = (fill: number) => Buffer.alloc(32, fill).toString("base64");
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-cp-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database", () => {
  it("keeps records and its generated encryption key across a restart", async () => {
    const dataDir = tempDir();
    const first = await startTestControlPlane("pglite", { config: { dataDir, encryption: undefined } });
    const secret = await first.admin.call("POST", "/api/v1/secrets", { name: "token", value: "kept-value" });
    expect(secret.status).toBe(201);
    await first.close();
    expect(statSync(join(dataDir, "encryption-key")).mode & 0o777).toBe(0o600);

    const second = await startTestControlPlane("pglite", { config: { dataDir, encryption: undefined } });
    try {
      const listed = await second.admin.call("GET", "/api/v1/secrets");
      expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([secret.body.id]);
      expect(second.bootstrap.created).toBe(false);
    } finally {
      await second.close();
    }
  });
});

describe("encryption keys", () => {
  it("rotate: old values stay readable, re-encryption moves them once, a missing key stops start-up", async () => {
    const dataDir = tempDir();
    const v1 = parseKeySet({ activeKeyId: "v1", keys: { v1: key(1) } });
    const first = await startTestControlPlane("pglite", { config: { dataDir, encryption: v1 } });
    await first.admin.call("POST", "/api/v1/secrets", { name: "token", value: "rotated-value" });
    await first.close();

    const v1v2 = parseKeySet({ activeKeyId: "v2", keys: { v1: key(1), v2: key(2) } });
    const second = await startTestControlPlane("pglite", { config: { dataDir, encryption: v1v2 } });
    try {
      const report = await second.admin.call("POST", "/api/v1/admin/reencrypt");
      expect(report.body).toMatchObject({ activeKeyId: "v2", scanned: 1, reencrypted: 1, byPreviousKey: { v1: 1 } });
      const again = await second.admin.call("POST", "/api/v1/admin/reencrypt");
      expect(again.body).toMatchObject({ scanned: 1, reencrypted: 0, alreadyCurrent: 1 });
    } finally {
      await second.close();
    }

    const onlyV3 = parseKeySet({ activeKeyId: "v3", keys: { v3: key(3) } });
    await expect(startControlPlane(testConfig({ dataDir, encryption: onlyV3 }))).rejects.toThrow(
      /encrypted with key 'v2', which is not configured/,
    );
  });

  it("are required with PostgreSQL", async () => {
    await expect(
      startControlPlane(testConfig({ databaseUrl: "postgres://postgres@127.0.0.1:5432/test", encryption: undefined })),
    ).rejects.toThrow(/ATRIUM_ENCRYPTION_KEYS is required/);
  });
});

describe("gateways and time", () => {
  it("turn stale without health advertisements, drop out of endpoints, and must register again", async () => {
    const cp = await startTestControlPlane("pglite", { config: { gatewayStaleSeconds: 1 } });
    try {
      const token = (await cp.admin.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 })).body.token;
      const gateway = cp.api.withToken(token);
      const service = await cp.admin.call("POST", "/api/v1/services", {
        name: "p",
        version: "1",
        openapi: { inline: sampleOpenApi() },
      });
      const plan = await cp.admin.call("POST", "/api/v1/configuration-plans", {
        name: "p",
        serviceId: service.body.id,
        backendEndpoint: "https://p.example.com",
      });
      const group = await cp.admin.call("POST", "/api/v1/gateway-groups", { name: "all" });
      const expo = await cp.admin.call("POST", "/api/v1/expositions", {
        name: "p",
        configurationPlanId: plan.body.id,
        gatewayGroupId: group.body.id,
      });
      await gateway.call("POST", "/api/v1/gateways/register", {
        id: "gw-1",
        instanceId: "instance-one",
        fqdns: ["gw-1.local"],
        labels: {},
      });
      expect((await cp.admin.call("GET", `/api/v1/expositions/${expo.body.id}`)).body.endpoints).toEqual([
        "gw-1.local",
      ]);

      await new Promise((resolve) => setTimeout(resolve, 1200));
      const listed = await cp.admin.call("GET", "/api/v1/gateways");
      expect(listed.body.items[0].health).toBe("STALE");
      expect((await cp.admin.call("GET", `/api/v1/expositions/${expo.body.id}`)).body.endpoints).toEqual([]);
      // A stale id may be taken over by another instance.
      const takeover = await gateway.call("POST", "/api/v1/gateways/register", {
        id: "gw-1",
        instanceId: "instance-two",
        fqdns: ["gw-1b.local"],
        labels: {},
      });
      expect(takeover.status).toBe(200);
      const oldHealth = await gateway.call("POST", "/api/v1/gateways/gw-1/health", { instanceId: "instance-one" });
      expect(oldHealth.status).toBe(404);
    } finally {
      await cp.close();
    }
  });

  it("give a fresh snapshot to a gateway whose revision was pruned", async () => {
    const cp = await startTestControlPlane("pglite");
    try {
      const token = (await cp.admin.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 })).body.token;
      const gateway = { id: "gw-1", instanceId: "instance-one" };
      await cp.api
        .withToken(token)
        .call("POST", "/api/v1/gateways/register", { ...gateway, fqdns: ["gw.local"], labels: {} });
      for (const name of ["a", "b", "c"]) await cp.admin.call("POST", "/api/v1/gateway-groups", { name });
      await cp.hub.prune(0);
      const stream = await openChangeStream(cp.url, token, gateway, 1);
      try {
        const snapshot = await stream.next("snapshot");
        expect(snapshot.expositions).toEqual([]);
        expect(snapshot.revision).toBe(3);
      } finally {
        stream.close();
      }
    } finally {
      await cp.close();
    }
  });
});
