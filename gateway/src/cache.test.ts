/**
 * The cache belongs to one identity: a gateway restarted with the same token serves its cache at
 * once; restarted with another organization's token (same id, same cache folder) it never serves
 * the first organization's Expositions; a cache written before caches were bound to an identity
 * is set aside, and so is one the gateway cannot read; two live gateway processes never share a
 * cache folder.
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { addOrganization, expose } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { credentialFingerprint } from "./cache.ts";
import { startGateway } from "./gateway.ts";
import { FIXTURE_OPENAPI, type Stack, useStack, waitFor } from "./testing.ts";

let stack: Stack;
let organizationId: string;

useStack((started) => {
  stack = started;
});

describe("the gateway's cache", () => {
  it("is kept per organization, bound to the credential, and served at once after a restart", async () => {
    const config = stack.gatewayConfig();
    const first = await startGateway(config);
    await waitFor(() => first.registry.size > 0, "the first snapshot");
    await first.close();
    const folders = readdirSync(config.cacheDir);
    expect(folders).toHaveLength(1);
    organizationId = folders[0] as string;
    const file = join(config.cacheDir, organizationId, "configuration.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const cache = JSON.parse(readFileSync(file, "utf8"));
    expect(cache.organization.id).toBe(organizationId);
    expect(cache.credential).toBe(credentialFingerprint(stack.token));
    expect(readFileSync(file, "utf8")).not.toContain(stack.token);

    const again = await startGateway(config);
    try {
      // From the cache, before the control plane has said anything.
      expect(again.registry.byId(stack.expositionId)).toBeDefined();
    } finally {
      await again.close();
    }
  });

  it("is not served to a gateway restarted with another organization's token", async () => {
    const other = await addOrganization(stack.controlPlane, "other");
    const { expositionId } = await expose(other, "other", {
      service: { openapi: { inline: FIXTURE_OPENAPI } },
      labels: { env: "test" },
      plan: { backendEndpoint: `${stack.backend.url}/api` },
    });
    const token = (await other.call("POST", "/api/v1/api-tokens", { name: "gw", validityDays: 1 })).body.token;

    // The same id and cache folder as the first test's gateway.
    const config = {
      ...stack.gatewayConfig(),
      id: "gw-1",
      cacheDir: join(stack.gatewayConfig().cacheDir, "..", "gw-1"),
    };
    const switched = await startGateway({ ...config, controlPlaneToken: token });
    try {
      expect(switched.registry.size).toBe(0);
      await waitFor(() => switched.registry.byId(expositionId) !== undefined, "the other organization's snapshot");
      expect(switched.registry.byId(stack.expositionId)).toBeUndefined();
      expect(switched.registry.size).toBe(1);
    } finally {
      await switched.close();
    }
    // Each organization has its own file; the first one's is untouched.
    expect(readdirSync(config.cacheDir).sort()).toHaveLength(2);
    expect(existsSync(join(config.cacheDir, organizationId, "configuration.json"))).toBe(true);
  });

  it("sets aside a cache written before caches were bound to an identity", async () => {
    const config = stack.gatewayConfig();
    const bound = join(stack.gatewayConfig().cacheDir, "..", "gw-1", organizationId, "configuration.json");
    mkdirSync(config.cacheDir, { recursive: true });
    copyFileSync(bound, join(config.cacheDir, "configuration.json"));
    const gateway = await startGateway(config);
    try {
      expect(gateway.registry.size).toBe(0);
      expect(readdirSync(config.cacheDir).some((name) => name.startsWith("configuration.json.set-aside-"))).toBe(true);
      await waitFor(() => gateway.registry.byId(stack.expositionId) !== undefined, "a fresh snapshot");
    } finally {
      await gateway.close();
    }
  });

  it.each([
    ["not JSON", '{"instanceId": "truncated-', "not JSON"],
    ["not the snapshot's shape", JSON.stringify({ instanceId: "abcdefgh12", expositions: "none" }), "expositions:"],
  ])("is set aside with a warning when it is %s; the gateway starts empty and syncs", async (_, text, why) => {
    const config = { ...stack.gatewayConfig(), logLevel: "warn" };
    const folder = join(config.cacheDir, organizationId);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "configuration.json"), text);
    const logs: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    const gateway = await startGateway(config, { logStream });
    try {
      expect(gateway.registry.size).toBe(0);
      expect(readdirSync(folder).filter((name) => name.startsWith("configuration.json.set-aside-"))).toHaveLength(1);
      const warning = logs.map((line) => JSON.parse(line)).find((line) => line.msg.startsWith("cache file not used"));
      expect(warning?.msg).toContain("it is not a cache file this gateway can read");
      expect(warning?.msg).toContain(why);
      await waitFor(() => gateway.registry.byId(stack.expositionId) !== undefined, "a fresh snapshot");
    } finally {
      await gateway.close();
    }
    // The fresh snapshot is cached in its place.
    const cache = JSON.parse(readFileSync(join(folder, "configuration.json"), "utf8"));
    expect(cache.organization.id).toBe(organizationId);
  });

  it("is never shared by two live gateway processes", async () => {
    const config = stack.gatewayConfig();
    mkdirSync(config.cacheDir, { recursive: true });
    // Another process holds the folder (as a second gateway on the host with the same id would).
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      writeFileSync(join(config.cacheDir, "gateway.lock"), String(holder.pid));
      await expect(startGateway(config)).rejects.toThrow(`is in use by gateway process ${holder.pid}`);
    } finally {
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder.once("exit", resolve));
    }
    // Once that process is gone, its lock is stale.
    const gateway = await startGateway(config);
    try {
      expect(readFileSync(join(config.cacheDir, "gateway.lock"), "utf8")).toBe(String(process.pid));
      await waitFor(() => gateway.registry.byId(stack.expositionId) !== undefined, "a snapshot");
    } finally {
      await gateway.close();
    }
    expect(existsSync(join(config.cacheDir, "gateway.lock"))).toBe(false);
  });
});
