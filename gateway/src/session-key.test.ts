/**
 * The session key from the environment or from a file (ATRIUM_GATEWAY_SESSION_KEY_FILE), and the
 * cluster key from its file (ATRIUM_GATEWAY_CLUSTER_KEY_FILE), as the Helm chart mounts the
 * cluster keystore: every replica reading the same file signs and seals alike.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { configFromEnv } from "./config.ts";
import { ClusterKeyring } from "./elicitation/cluster-keys.ts";

const dir = mkdtempSync(join(tmpdir(), "atrium-session-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = { ATRIUM_CONTROL_PLANE_TOKEN: "t", ATRIUM_GATEWAY_ID: "gw" };

function keyFile(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe("session key", () => {
  it("is read from ATRIUM_GATEWAY_SESSION_KEY_FILE (base64, surrounding whitespace ignored)", () => {
    const key = randomBytes(32);
    const path = keyFile("session-key", `${key.toString("base64")}\n`);
    expect(configFromEnv({ ...base, ATRIUM_GATEWAY_SESSION_KEY_FILE: path }).sessionKey).toEqual(key);
  });

  it("is the same key from the file as from the variable", () => {
    const encoded = randomBytes(48).toString("base64");
    const fromFile = configFromEnv({ ...base, ATRIUM_GATEWAY_SESSION_KEY_FILE: keyFile("same", encoded) });
    const fromEnv = configFromEnv({ ...base, ATRIUM_GATEWAY_SESSION_KEY: encoded });
    expect(fromFile.sessionKey).toEqual(fromEnv.sessionKey);
  });

  it("refuses a short, empty or missing file and both settings at once, naming the setting", () => {
    expect(() =>
      configFromEnv({ ...base, ATRIUM_GATEWAY_SESSION_KEY_FILE: keyFile("short", randomBytes(16).toString("base64")) }),
    ).toThrow("ATRIUM_GATEWAY_SESSION_KEY_FILE must be base64 of at least 32 bytes");
    expect(() => configFromEnv({ ...base, ATRIUM_GATEWAY_SESSION_KEY_FILE: keyFile("empty", "\n") })).toThrow(
      "is empty",
    );
    expect(() => configFromEnv({ ...base, ATRIUM_GATEWAY_SESSION_KEY_FILE: join(dir, "absent") })).toThrow(
      "ATRIUM_GATEWAY_SESSION_KEY_FILE: cannot read",
    );
    const encoded = randomBytes(32).toString("base64");
    expect(() =>
      configFromEnv({
        ...base,
        ATRIUM_GATEWAY_SESSION_KEY: encoded,
        ATRIUM_GATEWAY_SESSION_KEY_FILE: keyFile("k", encoded),
      }),
    ).toThrow("not both");
  });

  it("is absent when neither is set (a random key per process)", () => {
    expect(configFromEnv(base).sessionKey).toBeUndefined();
  });
});

describe("cluster key", () => {
  it("is read from ATRIUM_GATEWAY_CLUSTER_KEY_FILE, and two replicas reading it seal alike", () => {
    const key = randomBytes(32);
    const path = keyFile("cluster-key", `${key.toString("base64")}\n`);
    const first = configFromEnv({ ...base, ATRIUM_GATEWAY_CLUSTER_KEY_FILE: path });
    const second = configFromEnv({ ...base, ATRIUM_GATEWAY_ID: "gw-2", ATRIUM_GATEWAY_CLUSTER_KEY_FILE: path });
    expect(first.clusterKey).toEqual(key);
    const sealed = new ClusterKeyring([first.clusterKey as Buffer]).seal("elicited-credential", Buffer.from("k"), "c");
    expect(new ClusterKeyring([second.clusterKey as Buffer]).open("elicited-credential", sealed, "c")).toEqual({
      ok: true,
      plaintext: Buffer.from("k"),
    });
  });

  it("refuses a missing, empty or short file, naming the setting and the file", () => {
    const absent = join(dir, "no-cluster-key");
    expect(() => configFromEnv({ ...base, ATRIUM_GATEWAY_CLUSTER_KEY_FILE: absent })).toThrow(
      `ATRIUM_GATEWAY_CLUSTER_KEY_FILE: cannot read ${absent}`,
    );
    const empty = keyFile("cluster-empty", "  \n");
    expect(() => configFromEnv({ ...base, ATRIUM_GATEWAY_CLUSTER_KEY_FILE: empty })).toThrow(
      `ATRIUM_GATEWAY_CLUSTER_KEY_FILE: ${empty} is empty`,
    );
    const short = keyFile("cluster-short", randomBytes(31).toString("base64"));
    expect(() => configFromEnv({ ...base, ATRIUM_GATEWAY_CLUSTER_KEY_FILE: short })).toThrow(
      "ATRIUM_GATEWAY_CLUSTER_KEY_FILE must be base64 of at least 32 bytes",
    );
  });

  it("is absent when not set (gateways then refuse plans whose backend secret is elicited)", () => {
    expect(configFromEnv(base).clusterKey).toBeUndefined();
  });
});
