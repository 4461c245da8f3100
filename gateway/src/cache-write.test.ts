/**
 * Writing the cache after each change: the file reads back as the configuration written, and an
 * Exposition the registry still holds (the same object) is not serialized again — with 10,000 of
 * them, serializing all on every change took longer than the change's whole way to being served.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigurationCache, credentialFingerprint } from "./cache.ts";

const organization = { id: "7c1e9d52-8d36-4a57-9f0e-0d6f1b2f4a11", name: "default" };
const log = { warn: () => undefined };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function boundCache(dir = mkdtempSync(join(tmpdir(), "atrium-cache-write-"))) {
  dirs.push(dir);
  const cache = new ConfigurationCache(dir, "the-token", log);
  cache.bindOrganization(organization);
  return { dir, cache };
}

/** An Exposition-like record counting how often it is serialized. */
function counted(id: string, body: Record<string, unknown> = {}) {
  const record = {
    serializations: 0,
    toJSON() {
      record.serializations += 1;
      return { id, name: `exposition ${id}`, note: 'quotes " and \\ and ünïcode', ...body };
    },
  };
  return record;
}

const fields = (revision: number) => ({
  instanceId: "instance-0001",
  organization,
  revision,
  currentAt: 1_700_000_000_000 + revision,
  refusals: [{ expositionId: "x", reason: "invalid" as const, message: "no" }],
  endedSessions: [],
});

describe("writing the gateway's cache", () => {
  it("reads back as what was written, field for field", () => {
    const { dir, cache } = boundCache();
    const expositions = [counted("a"), counted("b", { nested: { list: [1, 2, { deep: true }] } })];
    cache.write({ ...fields(3), expositions });
    const text = readFileSync(join(dir, organization.id, "configuration.json"), "utf8");
    expect(JSON.parse(text)).toEqual(
      JSON.parse(JSON.stringify({ ...fields(3), expositions, credential: credentialFingerprint("the-token") })),
    );
    // And the gateway loads it (the contract's snapshot schema, the identity checks).
    const loaded = new ConfigurationCache(dir, "the-token", log).load();
    expect(loaded?.revision).toBe(3);
    expect(loaded?.expositions).toEqual([
      expect.objectContaining({ id: "a", name: "exposition a" }),
      expect.objectContaining({ id: "b", nested: { list: [1, 2, { deep: true }] } }),
    ]);
  });

  it("serializes only the Expositions a change brought; the others are written from their earlier JSON", () => {
    const { dir, cache } = boundCache();
    const [a, b, c] = [counted("a"), counted("b"), counted("c")];
    cache.write({ ...fields(1), expositions: [a, b, c] });
    const replacedB = counted("b", { changed: true });
    cache.write({ ...fields(2), expositions: [a, replacedB, c] });
    cache.write({ ...fields(3), expositions: [a, c] });
    expect([a.serializations, b.serializations, replacedB.serializations, c.serializations]).toEqual([1, 1, 1, 1]);
    const written = JSON.parse(readFileSync(join(dir, organization.id, "configuration.json"), "utf8"));
    expect(written.revision).toBe(3);
    expect(written.expositions.map((e: { id: string }) => e.id)).toEqual(["a", "c"]);
  });

  it("writes an empty configuration", () => {
    const { dir, cache } = boundCache();
    cache.write({ ...fields(1), expositions: [] });
    const written = JSON.parse(readFileSync(join(dir, organization.id, "configuration.json"), "utf8"));
    expect(written).toMatchObject({ expositions: [], revision: 1, instanceId: "instance-0001" });
  });
});
