/**
 * `atrium run`'s cluster key file: created once (private, a key the gateway accepts), then kept
 * across starts.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configFromEnv } from "@atrium/gateway";
import { afterAll, describe, expect, it } from "vitest";
import { ensureClusterKey } from "./cluster-key.ts";

const dir = mkdtempSync(join(tmpdir(), "atrium-cluster-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the local stack's cluster key", () => {
  it("is generated once, 0600, and the gateway reads it; a second start keeps it", () => {
    const file = ensureClusterKey(join(dir, "stack", "gateway-cluster-key"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = readFileSync(file, "utf8");
    const config = configFromEnv({
      ATRIUM_CONTROL_PLANE_TOKEN: "t",
      ATRIUM_GATEWAY_ID: "local",
      ATRIUM_GATEWAY_CLUSTER_KEY_FILE: file,
    });
    expect(config.clusterKey).toHaveLength(32);
    expect(ensureClusterKey(file)).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(first);
  });

  it("two stacks get different keys", () => {
    const a = readFileSync(ensureClusterKey(join(dir, "a", "key")), "utf8");
    const b = readFileSync(ensureClusterKey(join(dir, "b", "key")), "utf8");
    expect(a).not.toBe(b);
  });
});
