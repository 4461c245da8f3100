import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testLogging } from "@atrium/reliability/secrets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhook, type Webhook } from "./server.ts";
import { createTestCa, type PemPair, servedFingerprint, type TestCa, writeSecretVolume } from "./testing.ts";
import { checkTlsPair, readTlsPair, type TlsPair, watchTlsPair } from "./tls.ts";

let dir: string;
let ca: TestCa;
let first: PemPair;
let second: PemPair;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-webhook-tls-"));
  ca = await createTestCa(dir);
  [first, second] = await Promise.all([ca.issueServingCert(), ca.issueServingCert()]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("readTlsPair", () => {
  it("reads a mounted Secret's tls.crt and tls.key", async () => {
    const volume = join(dir, "read");
    await writeSecretVolume(volume, first);
    const pair = await readTlsPair(volume);
    expect(pair.cert).toBe(first.cert);
    expect(pair.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(pair.validTo.getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses missing files and a key of another certificate, with coded errors", async () => {
    await expect(readTlsPair(join(dir, "nowhere"))).rejects.toMatchObject({ code: "TLS_UNREADABLE" });
    expect(() => checkTlsPair(dir, first.cert, second.key)).toThrow(
      expect.objectContaining({ code: "TLS_INVALID", message: expect.stringContaining("does not belong") }),
    );
    expect(() => checkTlsPair(dir, "not a certificate", first.key)).toThrow(
      expect.objectContaining({ code: "TLS_INVALID" }),
    );
  });
});

describe("watchTlsPair", () => {
  it("reports a symlink-swapped new pair once, and a bad one without replacing the pair", async () => {
    const volume = join(dir, "watch");
    await writeSecretVolume(volume, first);
    const changes: TlsPair[] = [];
    const problems: string[] = [];
    const watch = watchTlsPair({
      dir: volume,
      intervalMs: 60_000,
      current: await readTlsPair(volume),
      onChange: (pair) => changes.push(pair),
      onError: (error) => problems.push((error as { code?: string }).code ?? error.message),
    });
    try {
      await watch.check();
      expect(changes).toEqual([]);

      await writeSecretVolume(volume, second);
      await watch.check();
      await watch.check();
      expect(changes.map((pair) => pair.cert)).toEqual([second.cert]);

      // A half-done rotation: a certificate with the key of another.
      await writeSecretVolume(volume, { cert: first.cert, key: second.key });
      await watch.check();
      await watch.check();
      expect(changes).toHaveLength(1);
      expect(problems).toEqual(["TLS_INVALID"]);

      await writeSecretVolume(volume, first);
      await watch.check();
      expect(changes.map((pair) => pair.cert)).toEqual([second.cert, first.cert]);
    } finally {
      watch.stop();
    }
  });
});

describe("the HTTPS server", () => {
  let webhook: Webhook;
  const volume = () => join(dir, "served");

  beforeAll(async () => {
    await writeSecretVolume(volume(), first);
    webhook = await startWebhook({
      host: "127.0.0.1",
      port: 0,
      tlsDir: volume(),
      tlsReloadIntervalMs: 100,
      ...testLogging("webhook"),
    });
  });

  afterAll(async () => {
    await webhook?.close();
  });

  async function waitForFingerprint(expected: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    while ((await servedFingerprint(webhook.port, ca.caPem)) !== expected) {
      if (Date.now() > deadline) throw new Error(`still not serving ${expected}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("serves the mounted certificate, then the renewed one, without a restart", async () => {
    const firstPair = checkTlsPair(dir, first.cert, first.key);
    const secondPair = checkTlsPair(dir, second.cert, second.key);
    expect(await servedFingerprint(webhook.port, ca.caPem)).toBe(firstPair.fingerprint256);

    await writeSecretVolume(volume(), second);
    await waitForFingerprint(secondPair.fingerprint256);
    expect(webhook.tls().serialNumber).toBe(secondPair.serialNumber);
  });

  it("keeps serving the current certificate when the new files are not a pair", async () => {
    const served = webhook.tls().fingerprint256;
    await writeFile(join(volume(), "..data", "tls.key"), first.key);
    await webhook.reloadTls();
    expect(await servedFingerprint(webhook.port, ca.caPem)).toBe(served);
    const metrics = await webhook.metrics.registry.metrics();
    expect(metrics).toContain('atrium_webhook_certificate_reloads_total{outcome="loaded"} 1');
    expect(metrics).toContain('atrium_webhook_certificate_reloads_total{outcome="rejected"} 1');
    expect(metrics).toMatch(/atrium_webhook_certificate_expiry_timestamp_seconds \d+/);
  });
});
